import { createMemory, type Embedder, type Scope, type Tokenizer } from '@strata-memory/core';
import { accessSwitch } from '../../setup/access-switch.ts';
import { benchClock } from '../../setup/bench-clock.ts';
import { openBenchStore, type StoreKind } from '../../setup/stores.ts';
import type { PeerMemory } from '../peer-memory.ts';

/** Budget of the ranking recall behind recall@k: large enough never to bind. */
const RANKING_BUDGET_TOKENS = 100_000;
/** Episodes a ranking recall considers at least (the engine's default at small budgets). */
const RANKING_MIN_EPISODES = 20;

/**
 * The Strata engine on one of its stores, with the default policy, one `observe` per turn at the
 * turn's time. A search is one `recall` whose budget never binds (its items, best first); the
 * context is one `recall` with the budget, counted on its `render()`. Recalls do not raise access
 * counts (as in the LoCoMo benchmark), so every question meets the same memory.
 */
export async function openStrataPeer(args: {
  store: StoreKind;
  embedder: Embedder;
  tokenizer: Tokenizer;
}): Promise<PeerMemory> {
  const bench = await openBenchStore(args.store);
  const access = accessSwitch(bench.store);
  const clock = benchClock();
  const memory = createMemory({
    store: access.store,
    embedder: args.embedder,
    tokenizer: args.tokenizer,
    clock,
  });
  const scope = (userId: string, threadId: string): Scope => ({ userId, threadId });

  return {
    label: `Strata (${bench.backend})`,
    rankedResults: true,
    async beforeQuestions({ at }) {
      access.freeze();
      clock.set(at);
    },
    async add(turn) {
      clock.set(turn.at);
      await memory.observe(scope(turn.userId, turn.threadId), {
        id: turn.id,
        role: 'user',
        name: turn.speaker,
        content: turn.content,
        at: turn.at,
      });
    },
    async search({ userId, threadId, query, k }) {
      const context = await memory.recall(scope(userId, threadId), {
        query,
        budget: { tokens: RANKING_BUDGET_TOKENS },
        maxEpisodes: Math.max(k, RANKING_MIN_EPISODES),
      });
      return context.items.slice(0, k).map((item) => ({ turnIds: item.sources.messageIds, text: item.text }));
    },
    async context({ userId, threadId, query, budget }) {
      const context = await memory.recall(scope(userId, threadId), { query, budget: { tokens: budget } });
      return {
        turnIds: context.items.flatMap((item) => item.sources.messageIds),
        tokens: Math.max(context.tokens, args.tokenizer.count(context.render())),
      };
    },
    diskBytes: () => bench.diskBytes(),
    async close() {
      try {
        await memory.close();
      } finally {
        await bench.close();
      }
    },
  };
}
