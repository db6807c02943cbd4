import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemory, StrataError } from '@strata-memory/core';
import { afterAll, describe, expect, it } from 'vitest';
import { sqliteStore } from './index.ts';

/**
 * Four writers remembering one fact key at once, each with its own connection to one database
 * file (as four processes would): every write succeeds, and the key's history holds every value
 * exactly once, one of them current.
 */

const WRITERS = 4;
const WRITES = 25;
const folder = mkdtempSync(join(tmpdir(), 'strata-sqlite-contention-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('facts.remember under contention', () => {
  it(`${WRITERS} writers on one file, one key: ${WRITERS * WRITES} writes, none failing`, async () => {
    const path = join(folder, 'memory.db');
    const stores = Array.from({ length: WRITERS }, () => sqliteStore({ path }));
    try {
      const memories = stores.map((store) => createMemory({ store }));
      const scope = { orgId: 'acme', userId: 'maria' };
      const key = { entity: 'Supplier X', key: 'lead time' };
      const failures: string[] = [];
      await Promise.all(
        memories.map(async (memory, writer) => {
          for (let i = 0; i < WRITES; i++) {
            try {
              await memory.facts.remember(scope, { ...key, value: `${writer * WRITES + i} days` });
            } catch (error) {
              failures.push(StrataError.isInstance(error) ? error.code : String(error));
            }
          }
        }),
      );
      expect(failures).toEqual([]);
      const history = await memories[0]!.facts.history(scope, key);
      expect(history).toHaveLength(WRITERS * WRITES);
      expect(new Set(history.map((f) => f.value)).size).toBe(WRITERS * WRITES);
      expect(history.filter((f) => f.status === 'active')).toHaveLength(1);
    } finally {
      await Promise.all(stores.map((store) => store.close()));
    }
  });
});
