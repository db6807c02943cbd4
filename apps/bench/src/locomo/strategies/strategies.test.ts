import { type Embedder, hashEmbedder, memoryStore, type Store } from '@strata-memory/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TINY_DIR, wordTokenizer } from '../../../test/fixtures.ts';
import { allTurns, type Conversation, loadConversations } from '../dataset.ts';
import { fullContextStrategy } from './full-context.ts';
import { keywordStrategy } from './keyword.ts';
import { recentStrategy } from './recent.ts';
import type { RetrievalPlan } from './types.ts';
import { vectorStrategy } from './vector.ts';

const plan: RetrievalPlan = { ks: [1, 3], budgets: [12, 30] };
const conversationScope = { userId: 'conv-1' };
const questionScope = { userId: 'conv-1', threadId: 'session-3' };

/** Stores the fixture's turns the way the engine does: one episode and one thread message per turn. */
async function populate(store: Store, conversation: Conversation, embedder: Embedder): Promise<void> {
  for (const turn of allTurns(conversation)) {
    const [embedding] = await embedder.embed({ texts: [turn.content] });
    await store.threads.appendMessages({
      scope: { ...conversationScope, threadId: `session-${turn.session}` },
      messages: [
        { id: turn.id, role: 'user', name: turn.speaker, content: turn.content, createdAt: turn.at },
      ],
    });
    await store.episodes.put({
      episodes: [
        {
          scope: conversationScope,
          text: turn.content,
          speaker: turn.speaker,
          role: 'user',
          occurredAt: turn.at,
          embedding: embedding!,
          provenance: { source: 'observation', messageId: turn.id, at: turn.at },
        },
      ],
    });
  }
}

describe('baseline strategies on a tiny conversation', () => {
  let store: Store;
  let conversation: Conversation;
  let knownTurns: Set<string>;
  const embedder = hashEmbedder();

  beforeEach(async () => {
    store = memoryStore();
    [conversation] = (await loadConversations(TINY_DIR)) as [Conversation];
    knownTurns = new Set(allTurns(conversation).map((t) => t.id));
    await populate(store, conversation, embedder);
  });
  afterEach(() => store.close());

  it('bm25 ranks the turns that share the query words first and fills each budget in rank order', async () => {
    const bm25 = keywordStrategy({ store, scope: questionScope, tokenizer: wordTokenizer, plan, knownTurns });
    const result = await bm25.retrieve({ question: 'Where is Ben moving to Lisbon?' });
    expect(result.ranked[0]).toEqual(['D2:4']);
    expect(result.latenciesMs).toHaveLength(1);
    // "Ben: Big news: I am moving to Lisbon in June for a new job." is 14 words: it fits in 30, not 12.
    const small = result.budgets.get(12)!;
    expect(small.turns).not.toContain('D2:4');
    expect(small.turns.length).toBeGreaterThan(0);
    expect(small.tokens).toBeLessThanOrEqual(12);
    const large = result.budgets.get(30)!;
    expect(large.turns[0]).toBe('D2:4');
    expect(large.tokens).toBeLessThanOrEqual(30);
    expect(result.contextTokens).toBe(result.budgets.get(30)!.tokens);
  });

  it('vector ranks by embedding similarity with the same embedder', async () => {
    const vector = vectorStrategy({
      store,
      embedder,
      scope: questionScope,
      tokenizer: wordTokenizer,
      plan,
      knownTurns,
    });
    const result = await vector.retrieve({ question: 'pottery teacher says my vase is ready' });
    expect(result.ranked[0]).toEqual(['D2:2']);
  });

  it('recent returns the latest turns, newest first, as an unbroken window', async () => {
    const recent = recentStrategy({ store, conversationScope, tokenizer: wordTokenizer, plan, knownTurns });
    const result = await recent.retrieve({ question: 'anything at all' });
    expect(result.ranked.slice(0, 3)).toEqual([['D2:4'], ['D2:3'], ['D2:2']]);
    // The newest turn is 14 words: over 12, so the unbroken window at 12 is empty.
    expect(result.budgets.get(12)).toEqual({ turns: [], tokens: 0, overBudget: false });
    const window = result.budgets.get(30)!;
    expect(window.turns).toEqual(['D2:4', 'D2:3']);
    expect(window.tokens).toBeLessThanOrEqual(30);
  });

  it('full-context counts every turn and is not scored', async () => {
    const full = fullContextStrategy({ store, conversationScope, tokenizer: wordTokenizer });
    const result = await full.retrieve({ question: 'anything' });
    expect(full.scored).toBe(false);
    const words = allTurns(conversation).reduce(
      (sum, turn) => sum + wordTokenizer.count(`${turn.speaker}: ${turn.content}`),
      0,
    );
    expect(result.contextTokens).toBe(words);
    expect(result.budgets.size).toBe(0);
  });
});
