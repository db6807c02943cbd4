import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createMemory } from '@strata-memory/core';
import { sqliteStore } from '@strata-memory/store-sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { maria } from './cast.ts';
import { DB_PATH_ENV } from './demo-options.ts';

/**
 * The demo is the project's end-to-end check, so its test runs it for real: in a child process,
 * on a temporary database, twice (fresh, then on the memory the first run left), then once more on
 * a database someone tampered with, where it must fail, and finally with `-- --reset`.
 */

const MAIN = fileURLToPath(new URL('./main.ts', import.meta.url));
const folder = mkdtempSync(join(tmpdir(), 'strata-demo-'));
const dbPath = join(folder, 'demo.db');

afterAll(() => rmSync(folder, { recursive: true, force: true }));

function runDemo(args: string[] = []): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    // Plain output: NO_COLOR set, and FORCE_COLOR (which forces colour even when empty) removed.
    const { FORCE_COLOR: _, ...env } = process.env;
    const child = spawn(process.execPath, ['--conditions=@strata-memory/source', MAIN, ...args], {
      env: { ...env, [DB_PATH_ENV]: dbPath, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

const claims = (output: string, mark: '✓' | '✗') =>
  output.split('\n').filter((line) => line.trimStart().startsWith(`${mark} `));

describe('pnpm demo', () => {
  it('plays the ten scenes on a fresh database and every claim holds', async () => {
    const { code, output } = await runDemo();
    expect(output).toContain(`No memory yet in ${dbPath}`);
    expect(claims(output, '✗')).toEqual([]);
    expect(claims(output, '✓').length).toBeGreaterThanOrEqual(29);
    expect(output).toMatch(/│ \d+ in, \d+ out\n/); // the explain() table of scene 10
    expect(output).toMatch(/✓ all \d+ claims hold/);
    for (const line of [
      'fact written: supplier x · lead time = 45 days',
      "✓ nothing of Tom's is in Maria's context",
      'superseded: supplier x · lead time = 45 days → 30 days (correction by maria',
      'sent to the review queue (hypothetical',
      '✓ the rolling summary keeps "$4,200" word for word',
      '✓ the summary the agent is told still says "$4,200"',
      '✓ graph.impact returns exactly auth, billing and the client SDK',
      'unconfirmed since',
      '✓ the first run handles each of the 4 distinct emails exactly once',
      '✓ the second run handles nothing twice',
      'fact.stale       supplier x · lead time',
      'fact written: ada · home city = Porto',
      'fact written: ada · diet = vegetarian',
      "✓ Ada's name, home city and diet were read from her sentences and are in the agent's context",
      '✓ the full history fits the 600-token budget and the block the agent is told is not larger than it',
    ]) {
      expect(output).toContain(line);
    }
    expect(output).toMatch(/\d+ tokens \(full history would be \d+ tokens\)/);
    expect(code).toBe(0);
  });

  it('starts from the previous run on a second run, writes nothing twice, and still passes', async () => {
    const { code, output } = await runDemo();
    expect(output).toMatch(
      /Memory from a previous run found \(\d+ episodes, \d+ facts, .*— use --reset to start over/,
    );
    expect(output).toContain('✓ memory from the previous run is recalled before anything is replayed');
    expect(output).toContain(
      'already observed (same message id, from a previous run): nothing written twice',
    );
    expect(output).not.toContain('fact written:');
    expect(output).toContain(
      '✓ the first run handles nothing: all 4 emails were handled by the previous run',
    );
    expect(claims(output, '✗')).toEqual([]);
    expect(code).toBe(0);
  });

  it('fails, naming the broken claims, when memory no longer holds what the scenes show', async () => {
    const memory = createMemory({ store: sqliteStore({ path: dbPath }) });
    await memory.facts.correct(maria.scope, {
      entity: 'Supplier X',
      key: 'lead time',
      value: '45 days',
      principal: { id: 'someone-else' },
    });
    await memory.close();

    const { code, output } = await runDemo();
    expect(code).toBe(1);
    expect(claims(output, '✗').join('\n')).toContain('the current lead time is 30 days');
    expect(output).toMatch(/✗ \d+ of \d+ claims failed:/);
  });

  it('starts over with `-- --reset` (the flag passes through a bare --)', async () => {
    const { code, output } = await runDemo(['--', '--reset']);
    expect(output).toContain(`No memory yet in ${dbPath}`);
    expect(claims(output, '✗')).toEqual([]);
    expect(code).toBe(0);
  });

  it('rejects an unknown flag with the usage and exit code 2', async () => {
    const { code, output } = await runDemo(['--frobnicate']);
    expect(code).toBe(2);
    expect(output).toContain('Usage: pnpm demo');
  });
});
