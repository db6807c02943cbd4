import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sqliteStore } from '../src/index.ts';
import { batchSizes, consistencyReport, openRaw, startWriter } from './writer-process.ts';

const folder = mkdtempSync(join(tmpdir(), 'strata-crash-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('a process killed while writing', () => {
  it('leaves a consistent database with whole batches only, every acknowledged batch kept', async () => {
    const path = join(folder, 'memory.db');
    const SIZE = 150;
    const acknowledged = new Map<string, number[]>();
    let committed = new Map<string, number>();
    // Kill the writer three times, at different points, reopening the same file each time.
    for (const [round, afterBatches, extraMs] of [
      [0, 2, 0],
      [1, 3, 7],
      [2, 1, 23],
    ] as const) {
      const writer = startWriter({ path, writer: `w${round}`, batches: 'forever', size: SIZE });
      await writer.ackedAtLeast(afterBatches);
      await new Promise((resolve) => setTimeout(resolve, extraMs));
      writer.child.kill('SIGKILL');
      const { signal } = await writer.exited;
      expect(signal).toBe('SIGKILL');
      acknowledged.set(`w${round}`, [...writer.acked]);

      const db = openRaw(path);
      const report = consistencyReport(db);
      expect(report.integrity).toBe('ok');
      expect(report.embeddings).toBe(report.episodes);
      expect(report.vectors).toBe(report.episodes);
      expect(report.counted).toBe(report.vectors);
      expect(report.ftsRows).toBe(report.episodes);

      const sizes = batchSizes(db);
      committed = sizes;
      for (const [batch, count] of sizes) expect(count, `batch ${batch}`).toBe(SIZE);
      for (const [name, batches] of acknowledged) {
        for (const batch of batches)
          expect(sizes.get(`${name}-${batch}`), `${name} batch ${batch}`).toBe(SIZE);
      }
      const facts = db.prepare("SELECT entity_id FROM facts WHERE entity_type = 'batch'").all() as Array<{
        entity_id: string;
      }>;
      expect(new Set(facts.map((f) => f.entity_id))).toEqual(new Set(sizes.keys()));
      db.close();
    }

    // The store opens the file normally afterwards and finds what the writers committed.
    const store = sqliteStore({ path });
    const scope = { orgId: 'crash-test', userId: 'w1' };
    // The checkpoint written in each batch's transaction names the last whole batch.
    const w1Batches = [...committed.keys()]
      .filter((key) => key.startsWith('w1-'))
      .map((key) => Number(key.slice(3)));
    expect(Math.max(...w1Batches)).toBeGreaterThanOrEqual(Math.max(...acknowledged.get('w1')!));
    expect((await store.state.get({ scope, key: 'last-batch' }))?.value).toBe(Math.max(...w1Batches));
    const hits = await store.episodes.searchKeyword({ scope, query: 'shipment', limit: 5 });
    expect(hits).toHaveLength(5);
    await store.close();
  });
});
