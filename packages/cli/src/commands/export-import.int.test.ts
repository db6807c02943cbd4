import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createMemory } from '@strata-memory/core';
import { manualClock, SAMPLE_SCOPES, seedSampleMemory, testEmbedder } from '@strata-memory/core/test';
import { sqliteStore } from '@strata-memory/store-sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scopeFilePath } from '../files/scope-file-names.ts';

const run = promisify(execFile);
const cliDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const work = mkdtempSync(join(tmpdir(), 'strata-cli-files-'));
const source = join(work, 'source.db');

/** Runs the real `strata` command as a user would, in `work`; never throws. */
async function strata(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      [
        '--experimental-strip-types',
        '--disable-warning=ExperimentalWarning',
        '--conditions=@strata-memory/source',
        join(cliDir, 'src', 'bin.ts'),
        ...args,
      ],
      { cwd: work, env: { ...process.env, STRATA_STORE: '' } },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

function filesOf(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (folder: string) => {
    for (const name of readdirSync(folder).sort()) {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) walk(path);
      else out.set(relative(dir, path), readFileSync(path, 'utf8'));
    }
  };
  walk(dir);
  return out;
}

beforeAll(async () => {
  const clock = manualClock();
  const memory = createMemory({ store: sqliteStore({ path: source }), clock, embedder: testEmbedder() });
  await seedSampleMemory(memory, clock);
  await memory.close();
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('strata export / strata import', () => {
  it('round-trips a SQLite file through files into a PGlite folder and back, identical', async () => {
    const exported = await strata('--store', source, 'export', 'files-a', '--json');
    expect(exported.code).toBe(0);
    const summary = JSON.parse(exported.stdout);
    expect(summary.counts.facts).toBeGreaterThan(0);
    expect(summary.files).toContain(scopeFilePath(SAMPLE_SCOPES.maria));

    const imported = await strata('--store', 'pglite:pg', 'import', 'files-a');
    expect(imported.code).toBe(0);
    expect(imported.stdout).toContain(`imported ${summary.counts.scopes} scopes`);
    expect(imported.stderr).toContain('scopes written');

    const again = await strata('--store', 'pglite:pg', 'export', 'files-b', '--json');
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout).counts).toEqual(summary.counts);
    expect(filesOf(join(work, 'files-b'))).toEqual(filesOf(join(work, 'files-a')));
  }, 600_000); // Three runs of the command, two of them starting PGlite: slow on a busy machine.

  it('refuses to import a memory into a store that already holds it, adding nothing', async () => {
    expect((await strata('--store', source, 'export', 'files-twice')).code).toBe(0);
    expect((await strata('--store', 'twice.db', 'import', 'files-twice')).code).toBe(0);
    const twice = await strata('--store', 'twice.db', 'import', 'files-twice', '--json');
    expect(twice.code).toBe(2);
    expect(JSON.parse(twice.stdout).error.code).toBe('conflict');
    expect((await strata('--store', 'twice.db', 'export', 'files-twice-after')).code).toBe(0);
    expect(filesOf(join(work, 'files-twice-after'))).toEqual(filesOf(join(work, 'files-twice')));
  });

  it('imports a hand edit as a correction and refuses a malformed one with file and line (exit 2)', async () => {
    expect((await strata('--store', source, 'export', 'files-edit')).code).toBe(0);
    const file = join(work, 'files-edit', scopeFilePath(SAMPLE_SCOPES.maria));
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, text.replace('- lead time: "30 days"', '- lead time: "21 days"'));
    const edited = await strata('--store', 'edited.db', 'import', 'files-edit', '--json');
    expect(edited.code).toBe(0);
    const result = JSON.parse(edited.stdout);
    expect(result.corrections).toEqual([
      expect.objectContaining({
        key: 'lead time',
        from: '30 days',
        to: '21 days',
        fact: expect.objectContaining({ provenance: expect.objectContaining({ via: 'imported edit' }) }),
      }),
    ]);

    writeFileSync(file, text.replace('- lead time: "30 days"', '- lead time: 21 days'));
    const line = text.split('\n').findIndex((l) => l.startsWith('- lead time: ')) + 1;
    const broken = await strata('--store', 'broken.db', 'import', 'files-edit');
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain(`${file}:${line}:`);
    expect(broken.stderr).toContain('not JSON');
    // Checked before the store was opened: no store file was created.
    expect(readdirSync(work)).not.toContain('broken.db');
  });

  it('fails with exit 2 and a clear message on a folder that is not an export', async () => {
    const missing = await strata('--store', 'x.db', 'import', 'nowhere');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('holds no memory.json');
    const badScope = await strata('--store', source, 'export', 'files-c', '--scope', 'galaxy=far');
    expect(badScope.code).toBe(2);
    expect(badScope.stderr).toContain('--scope');
  });
});
