import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';

const cliDir = fileURLToPath(new URL('../../', import.meta.url));
const examples = join(cliDir, 'examples/eval');
const work = mkdtempSync(join(tmpdir(), 'strata-eval-test-'));

afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Runs the real `strata` command as a user does, with its own temporary folder. */
function strata(args: string[], tmp = join(work, 'tmp-default')) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    mkdirSync(tmp, { recursive: true });
    const env: NodeJS.ProcessEnv = { ...process.env, TMPDIR: tmp };
    delete env.STRATA_STORE;
    execFile(
      process.execPath,
      [
        '--experimental-strip-types',
        '--disable-warning=ExperimentalWarning',
        '--conditions=@strata-memory/source',
        join(cliDir, 'src/bin.ts'),
        ...args,
      ],
      { cwd: work, env, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

/** An empty folder under the test's own, for a child's TMPDIR. */
function tmpFolder(name: string): string {
  const dir = join(work, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** A case file small enough to run on each store kind. */
const oneCase = `
defaults:
  scope: org=acme,user=maria
  start: 2026-03-02T09:00:00Z
cases:
  - name: a correction wins
    setup:
      - content: Supplier X's lead time is 45 days.
      - after: 3d
        content: No, the lead time is actually 30 days, not 45.
    recall:
      query: What's Supplier X's lead time?
    expect:
      contains: "lead time: 30 days"
      facts:
        - { entity: Supplier X, key: lead time, value: 30 days }
`;

/** Two cases: the second starts on an empty memory, so the first's fact must not be there. */
const twoCases = `${oneCase}  - name: each case starts empty
    setup:
      - content: Construction suppliers are paid net 60.
    recall:
      query: What's Supplier X's lead time?
    expect:
      notContains: 30 days
      facts:
        - { entity: Supplier X, key: lead time, absent: true }
`;

describe('strata eval', () => {
  it('passes the shipped example and removes its temporary stores', async () => {
    const tmp = tmpFolder('tmp-example');
    const run = await strata(['eval', join(examples, 'cases.yaml')], tmp);
    expect(run.stderr).not.toMatch(/strata:/);
    expect(run.code).toBe(0);
    const lines = run.stdout.split('\n');
    expect(lines[0]).toMatch(/^result\s+case\s+checks\s+tokens$/);
    expect(lines.filter((line) => line.startsWith('pass ')).length).toBeGreaterThanOrEqual(5);
    expect(run.stdout).not.toMatch(/^FAIL/m);
    expect(run.stdout).toMatch(/(\d+) of \1 cases passed \(SQLite \(temporary file\)\)\./);
    expect(run.stderr).toContain('[1/');
    expect(readdirSync(tmp)).toEqual([]);
  });

  it('fails the broken example with exit 1 and says why', async () => {
    const run = await strata(['eval', join(examples, 'broken-cases.yaml')]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^FAIL\s+a what-if wrongly expected to change the terms/m);
    expect(run.stdout).toContain(
      '✗ fact: expected construction suppliers · payment terms = "90 days"; the current value is "net 60"',
    );
    expect(run.stdout).toContain(
      'pending review: construction suppliers · payment terms: 90 days (hypothetical) "What if we extended terms to 90 days?"',
    );
    expect(run.stdout).toContain('✗ notContains: the block contains "30 days"');
    expect(run.stdout).toMatch(/explain: facts in score [\d.]+: current fact visible at this scope/);
    expect(run.stdout).toContain('| - supplier x · lead time: 30 days');
    expect(run.stdout).toMatch(/2 of 2 cases failed/);
  });

  it('refuses a malformed file with exit 2, naming the case and the field', async () => {
    const file = join(work, 'malformed.yaml');
    writeFileSync(file, oneCase.replace('contains: "lead time: 30 days"', 'contain: "lead time: 30 days"'));
    const run = await strata(['eval', file]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(
      `${file}:14 › case "a correction wins" › cases[0].expect: unknown key "contain"; did you mean "contains"?`,
    );

    const json = await strata(['eval', file, '--json']);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toEqual({
      error: {
        code: 'invalid_input',
        message: expect.stringContaining('is not a valid case file'),
        details: {
          file,
          issues: [
            {
              path: 'cases[0].expect',
              caseName: 'a correction wins',
              line: 14,
              message: 'unknown key "contain"; did you mean "contains"?',
            },
          ],
        },
      },
    });
  });

  it('refuses a role the policy does not know with exit 2', async () => {
    const file = join(work, 'role.yaml');
    writeFileSync(
      file,
      oneCase.replace('    recall:\n', '    recall:\n      principal: { id: lee, role: manger }\n'),
    );
    const run = await strata(['eval', file]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      `case "a correction wins" › cases[0].recall.principal.role: role "manger" is not one of the policy's roles: member, manager, admin`,
    );
  });

  it('prints one JSON report with --json', async () => {
    const run = await strata(['eval', join(examples, 'broken-cases.yaml'), '--json']);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout);
    expect(report).toMatchObject({
      file: join(examples, 'broken-cases.yaml'),
      store: 'SQLite (temporary file)',
      total: 2,
      passed: 0,
      failed: 2,
    });
    const [first] = report.cases;
    expect(first).toMatchObject({
      name: 'a what-if wrongly expected to change the terms',
      passed: false,
      checks: 2,
      recall: { query: 'What are the payment terms for construction suppliers?' },
    });
    expect(first.recall.block).toMatch(/^<memory>/);
    expect(first.recall.tokens).toBeGreaterThan(0);
    const fact = first.failures.find((f: { expectation: string }) => f.expectation === 'fact');
    expect(fact).toMatchObject({
      expected: { entity: 'construction suppliers', key: 'payment terms', value: '90 days' },
      actual: { value: 'net 60', status: 'active' },
    });
    expect(fact.explain[0]).toMatchObject({ layer: 'facts', included: true, reason: expect.any(String) });
  });

  it("runs with the user's config file", async () => {
    const file = join(work, 'stale.yaml');
    writeFileSync(
      file,
      `${oneCase.replace(/ {2}- name[\s\S]*$/, '')}  - name: a 100-day-old fact is stale
    setup:
      - content: Supplier Y's lead time is 21 days.
    actions:
      - advance: 100d
    recall:
      query: Supplier Y lead time?
    expect:
      facts:
        - { entity: Supplier Y, key: lead time, value: 21 days, status: stale }
`,
    );
    const config = join(work, 'longer-stale.config.mjs');
    writeFileSync(config, 'export default { embedder: false, policy: { staleAfterDays: 365 } };\n');
    const withDefaults = await strata(['eval', file]);
    expect(withDefaults.code).toBe(0);
    const withConfig = await strata(['eval', file, '--config', config]);
    expect(withConfig.code).toBe(1);
    expect(withConfig.stdout).toContain('expected Supplier Y · lead time to be stale; it is active');
    rmSync(config);
  });

  it('runs on PGlite with --store pglite, each case on an empty schema, and removes the folder', async () => {
    const file = join(work, 'two.yaml');
    writeFileSync(file, twoCases);
    const tmp = tmpFolder('tmp-pglite');
    const run = await strata(['eval', file, '--store', 'pglite'], tmp);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('2 of 2 cases passed (PGlite (temporary folder)).');
    expect(readdirSync(tmp)).toEqual([]);
  }, 300_000);

  it('refuses a store path: an eval never writes into a memory in use', async () => {
    const run = await strata(['eval', join(examples, 'cases.yaml'), '--store', '.strata/memory.db']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--store takes sqlite (default), pglite or a postgres:// URL');
  });

  // Needs a PostgreSQL server: runs when STRATA_PG_URL names one (CI and the integration run set it).
  it.skipIf(!process.env.STRATA_PG_URL)(
    'runs on PostgreSQL, each case on an empty schema, dropped afterwards',
    async () => {
      const url = process.env.STRATA_PG_URL as string;
      const file = join(work, 'two.yaml');
      writeFileSync(file, twoCases);
      const run = await strata(['eval', file, '--store', url, '--json']);
      expect(run.code).toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({
        passed: 2,
        failed: 0,
        store: expect.stringMatching(/^PostgreSQL /),
      });
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const left = await client.query(
          "SELECT nspname FROM pg_namespace WHERE nspname LIKE 'strata_eval_%'",
        );
        expect(left.rows).toEqual([]);
      } finally {
        await client.end();
      }
    },
  );
});
