import type { Memory } from '@strata-memory/core';
import { inboxJob, ORG, people } from './cast.ts';

/** What the database holds, counted through the engine's read APIs. */
export interface Inventory {
  episodes: number;
  facts: number;
  edges: number;
  threads: number;
  reviewPending: number;
  ledgerEntries: number;
}

export async function takeInventory(memory: Memory): Promise<Inventory> {
  const inventory: Inventory = {
    episodes: 0,
    facts: 0,
    edges: 0,
    threads: 0,
    reviewPending: 0,
    ledgerEntries: 0,
  };
  for (const person of people) {
    inventory.episodes += await memory.store.episodes.count({
      scope: person.scope,
      status: ['active', 'merged', 'archived'],
    });
    inventory.facts += (await memory.facts.list(person.scope)).length;
    inventory.edges += await countPages((cursor) =>
      memory.store.graph.listEdges({ scope: person.scope, limit: 500, ...(cursor ? { cursor } : {}) }),
    );
    inventory.reviewPending += (await memory.review.list(person.scope)).length;
  }
  inventory.threads = await countPages((cursor) =>
    memory.store.threads.list({ scope: ORG, limit: 500, ...(cursor ? { cursor } : {}) }),
  );
  inventory.ledgerEntries = await countPages((cursor) =>
    memory.store.ledger.list({ scope: inboxJob, limit: 500, ...(cursor ? { cursor } : {}) }),
  );
  return inventory;
}

/** Counts every item of a paged listing. */
export async function countPages(
  page: (cursor?: string) => Promise<{ items: unknown[]; nextCursor?: string }>,
): Promise<number> {
  let total = 0;
  let cursor: string | undefined;
  do {
    const result = await page(cursor);
    total += result.items.length;
    cursor = result.nextCursor;
  } while (cursor);
  return total;
}

export function isEmpty(inventory: Inventory): boolean {
  return Object.values(inventory).every((n) => n === 0);
}
