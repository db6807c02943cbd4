import { createMemory, StrataError } from '@strata-memory/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTarget, type TestTarget } from './target.ts';

/**
 * Four writers remembering one fact key at once, as four request handlers of one service would:
 * every write succeeds (a lost race is retried after a jittered pause, not surfaced as `conflict`),
 * and the key's history holds every value exactly once, one current.
 */

const WRITERS = 4;
const WRITES = 25;

let target: TestTarget;
beforeAll(async () => {
  target = await openTarget();
});
afterAll(() => target.close());

describe('facts.remember under contention', () => {
  it(`${WRITERS} concurrent writers of one key: ${WRITERS * WRITES} writes, none failing`, async () => {
    const memory = createMemory({ store: target.openStore({ poolSize: WRITERS * 2 }) });
    const scope = { orgId: 'acme', userId: 'maria' };
    const key = { entity: 'Supplier X', key: 'lead time' };
    const failures: string[] = [];
    await Promise.all(
      Array.from({ length: WRITERS }, async (_, writer) => {
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
    const history = await memory.facts.history(scope, key);
    expect(history).toHaveLength(WRITERS * WRITES);
    expect(new Set(history.map((f) => f.value)).size).toBe(WRITERS * WRITES);
    expect(history.filter((f) => f.status === 'active')).toHaveLength(1);
  });
});
