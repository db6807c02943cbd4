import type { Embedder, Memory, RecallOptions } from '@strata-memory/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TINY_DIR } from '../../test/fixtures.ts';
import { noProgress } from '../cli/progress.ts';
import { allTurns, loadConversations } from './dataset.ts';
import { ADVERSARIAL_CATEGORY, runLocomo } from './run-locomo.ts';

// Every recall the benchmark makes, and every text the memory's embedder is asked for, in order.
const seen = vi.hoisted(() => ({ recalls: [] as unknown[], embeds: [] as string[] }));

vi.mock('@strata-memory/core', async (importOriginal) => {
  const core = await importOriginal<typeof import('@strata-memory/core')>();
  return {
    ...core,
    createMemory: (options: Parameters<typeof core.createMemory>[0]) => {
      const embedder = options.embedder as Embedder | undefined;
      const watched: Embedder | undefined = embedder && {
        ...embedder,
        embed: (args) => {
          seen.embeds.push(...args.texts);
          return embedder.embed(args);
        },
      };
      const memory = core.createMemory({ ...options, ...(watched ? { embedder: watched } : {}) });
      return new Proxy(memory, {
        get(target, property) {
          if (property === 'recall') {
            return (scope: unknown, recallOptions: RecallOptions) => {
              seen.recalls.push(recallOptions);
              return target.recall(scope as never, recallOptions);
            };
          }
          const value = Reflect.get(target, property, target);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      }) satisfies Memory;
    },
  };
});

describe('what the strata strategy is told', () => {
  afterEach(() => {
    seen.recalls.length = 0;
    seen.embeds.length = 0;
  });

  it('recalls with each question text and nothing else: no evidence id, answer or category', async () => {
    const [conversation] = await loadConversations(TINY_DIR);
    const asked = conversation!.questions.filter((q) => q.category !== ADVERSARIAL_CATEGORY);
    const budgets = [40, 200];
    const { report } = await runLocomo(
      { data: TINY_DIR, store: 'memory', embedder: 'hash', ks: [1, 5], budgets, strategies: ['strata'] },
      { progress: noProgress },
    );
    expect(report.questions).toBeGreaterThan(0);

    const recalls = seen.recalls as RecallOptions[];
    // The run observed every turn and asked every scored question: the queries are exactly their texts.
    const queries = new Set(recalls.map((options) => options.query));
    const scored = asked.filter((q) => q.evidence.length > 0).map((q) => q.question);
    expect([...queries].sort()).toEqual([...scored].sort());
    const turnIds = allTurns(conversation!).map((turn) => turn.id);
    for (const options of recalls) {
      expect(Object.keys(options).sort()).toEqual(
        options.maxEpisodes === undefined
          ? ['budget', 'query']
          : ['budget', 'maxEpisodes', 'query', 'relevanceBar'],
      );
      for (const id of turnIds) expect(options.query).not.toContain(id);
    }
    // One recall per budget and one ranking recall per question.
    expect(recalls).toHaveLength(scored.length * (budgets.length + 1));
  });

  it("embeds each question once, in the order asked: no recall reuses another question's vector", async () => {
    const { report } = await runLocomo(
      { data: TINY_DIR, store: 'memory', embedder: 'hash', ks: [1], budgets: [200], strategies: ['strata'] },
      { progress: noProgress },
    );
    const [conversation] = await loadConversations(TINY_DIR);
    const turnTexts = new Set(allTurns(conversation!).map((turn) => turn.content));
    const queryEmbeds = seen.embeds.filter((text) => !turnTexts.has(text));
    const queries = [...new Set((seen.recalls as RecallOptions[]).map((options) => options.query))];
    expect(queryEmbeds).toEqual(queries);
    expect(report.questions).toBe(queries.length);
  });
});
