import { describe, expect, it } from 'vitest';
import { StrataError } from '../errors/strata-error.ts';
import { createMemory } from '../memory/create-memory.ts';
import type { Scope } from '../scope/scope.ts';
import type { Store } from '../store/contract.ts';
import { memoryStore } from '../store/memory/memory-store.ts';
import { manualClock } from '../test/index.ts';

const thread: Scope = { orgId: 'acme', userId: 'maria', threadId: 't1' };

/** `store`, except that listing episodes (how recall reads the turns around a hit) fails. */
function failingListings(store: Store): Store {
  return {
    ...store,
    episodes: {
      ...store.episodes,
      list: async () => {
        throw new StrataError({ code: 'store_unavailable', message: 'the server went away' });
      },
    },
  };
}

describe('recall: the reads around the best hits', () => {
  it('fails the recall with the read error, and leaves no promise rejecting unhandled', async () => {
    const store = memoryStore();
    const writer = createMemory({ store, clock: manualClock() });
    await writer.observe(thread, [
      { role: 'user', content: 'What is the lead time for Supplier X?' },
      { role: 'assistant', content: 'Supplier X quotes a lead time of 45 days.' },
    ]);
    const reader = createMemory({ store: failingListings(store), clock: manualClock() });
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const error = await reader
        .recall(thread, { query: 'Supplier X lead time', layers: ['episodes'] })
        .catch((e: unknown) => e);
      // Give an unhandled rejection, if there is one, the turns it needs to be reported.
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(StrataError.hasCode(error, 'store_unavailable')).toBe(true);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
