import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { sqliteStore } from '../src/index.ts';
import { batchSizes, consistencyReport, openRaw, startWriter } from './writer-process.ts';

const folder = mkdtempSync(join(tmpdir(), 'strata-multi-process-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('several processes on one file', () => {
  it('loses no acknowledged write when two processes write at once, and never grants a claim twice', async () => {
    const path = join(folder, 'shared.db');
    // Create the file first so both writers start from the same schema.
    await sqliteStore({ path }).close();
    const BATCHES = 25;
    const SIZE = 20;
    const writers = [
      startWriter({ path, writer: 'a', batches: BATCHES, size: SIZE, claims: true }),
      startWriter({ path, writer: 'b', batches: BATCHES, size: SIZE, claims: true }),
    ];
    const results = await Promise.all(writers.map((w) => w.exited));
    for (const result of results) expect(result, result.stderr).toMatchObject({ code: 0 });
    for (const writer of writers) expect(writer.acked).toEqual(Array.from({ length: BATCHES }, (_, i) => i));

    const db = openRaw(path);
    const report = consistencyReport(db);
    expect(report.integrity).toBe('ok');
    expect(report.episodes).toBe(2 * BATCHES * SIZE);
    expect(report.vectors).toBe(report.episodes);
    expect(report.counted).toBe(report.vectors);
    const sizes = batchSizes(db);
    for (const name of ['a', 'b']) {
      for (let batch = 0; batch < BATCHES; batch++) expect(sizes.get(`${name}-${batch}`)).toBe(SIZE);
    }
    db.close();

    // Every job was claimed exactly once, by one of the two.
    const [a, b] = writers.map((w) => new Set(w.claimed));
    expect([...a!].filter((key) => b!.has(key))).toEqual([]);
    expect(a!.size + b!.size).toBe(50);

    const store = sqliteStore({ path });
    const claimedAfter = await store.ledger.list({ scope: { orgId: 'crash-test' }, limit: 100 });
    expect(claimedAfter.items).toHaveLength(50);
    for (const entry of claimedAfter.items) expect((entry.owner === 'a' ? a : b)!.has(entry.key)).toBe(true);
    await store.close();
  });

  it('creates .strata/memory.db under the working directory by default', () => {
    const cwd = mkdtempSync(join(folder, 'cwd-'));
    const script = join(cwd, 'open-default.ts');
    const entry = fileURLToPath(new URL('../src/index.ts', import.meta.url));
    writeFileSync(
      script,
      `import { sqliteStore } from ${JSON.stringify(entry)};\n` +
        `const store = sqliteStore();\n` +
        `await store.state.set({ scope: { userId: 'u' }, key: 'k', value: 1 });\n` +
        `console.log(JSON.stringify(store.capabilities));\n` +
        `await store.close();\n`,
    );
    const run = spawnSync(process.execPath, ['--conditions=@strata-memory/source', script], {
      cwd,
      encoding: 'utf8',
    });
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ persistent: true, multiProcess: true });
    expect(existsSync(join(cwd, '.strata', 'memory.db'))).toBe(true);
  });
});
