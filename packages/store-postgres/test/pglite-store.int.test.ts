import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StrataError } from '@strata-memory/core/store';
import { afterAll, describe, expect, it } from 'vitest';
import { pgliteStore } from '../src/pglite/index.ts';

/** The embedded option users get: PGlite in a folder, with the same driver code as the server store. */

const folder = mkdtempSync(join(tmpdir(), 'strata-pglite-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('pgliteStore', () => {
  it('keeps its data in dataDir across close and reopen', async () => {
    const dataDir = join(folder, 'db');
    const first = pgliteStore({ dataDir });
    expect(first.capabilities).toMatchObject({
      persistent: true,
      multiProcess: false,
      keywordRanking: 'bm25',
    });
    await first.episodes.put({
      episodes: [
        {
          id: 'e1',
          scope: { userId: 'u' },
          text: 'supplier lead time 45 days',
          occurredAt: 1,
          provenance: { source: 'api' },
        },
      ],
    });
    await first.close();

    const second = pgliteStore({ dataDir });
    const hits = await second.episodes.searchKeyword({ scope: { userId: 'u' }, query: 'lead time' });
    expect(hits.map((h) => h.episode.id)).toEqual(['e1']);
    await second.close();
  });

  it('declares an in-memory database not persistent', async () => {
    const store = pgliteStore();
    expect(store.capabilities.persistent).toBe(false);
    await store.close();
  });

  it('rejects bad options with invalid_input before opening anything', () => {
    for (const options of [
      { schema: 'Bad-Name' },
      { dataDir: '' },
      { rankNormalization: -1 },
      { unknown: 1 },
    ]) {
      let error: unknown;
      try {
        pgliteStore(options as never);
      } catch (e) {
        error = e;
      }
      expect(StrataError.hasCode(error, 'invalid_input')).toBe(true);
    }
  });
});
