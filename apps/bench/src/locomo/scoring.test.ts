import { StrataError } from '@strata-memory/core';
import { describe, expect, it } from 'vitest';
import { wordTokenizer } from '../../test/fixtures.ts';
import { parseEvidence } from './evidence.ts';
import { assertOneTurnPerItem, recallAtKs, turnRecall, turnsOfFirst } from './scoring.ts';
import { contextLine, packLines } from './strategies/context-lines.ts';
import type { QuestionRetrieval } from './strategies/types.ts';
import { StrategyTally } from './strategy-tally.ts';

const turns = new Set(['D1:1', 'D1:2', 'D1:3', 'D1:4', 'D2:1', 'D2:2', 'D2:3', 'D2:4']);

function retrieval(
  ranked: string[][],
  budgets: Record<number, string[]>,
  overBudget: number[] = [],
): QuestionRetrieval {
  return {
    ranked,
    budgets: new Map(
      Object.entries(budgets).map(([b, t]) => [
        Number(b),
        { turns: t, tokens: Number(b) - 1, overBudget: overBudget.includes(Number(b)) },
      ]),
    ),
    contextTokens: 42,
    latenciesMs: [1, 3],
  };
}

describe('one turn per ranked item', () => {
  it('rejects, with invalid_input, a ranking whose item came from several turns, wherever it ranks', () => {
    const evidence = parseEvidence(['D1:3', 'D2:3'], turns);
    const bundled = [['D1:1'], [], ['D1:3', 'D2:3']];
    for (const score of [
      () => assertOneTurnPerItem(bundled),
      () => recallAtKs(evidence, bundled, [1]),
      () => turnsOfFirst(bundled, 1),
      () =>
        new StrategyTally({ name: 'strata', scored: true, plan: { ks: [1, 3], budgets: [] } }).addQuestion({
          category: 1,
          evidence,
          retrieval: retrieval(bundled, {}),
        }),
    ]) {
      let caught: unknown;
      try {
        score();
      } catch (error) {
        caught = error;
      }
      expect(StrataError.hasCode(caught, 'invalid_input')).toBe(true);
      expect((caught as Error).message).toContain('Ranked item 3 came from 2 turns (D1:3, D2:3)');
    }
    // The same turns, one per item, are scored: an item from no turn still takes its rank.
    expect(recallAtKs(evidence, [['D1:1'], [], ['D1:3'], ['D2:3']], [3, 4])).toEqual(
      new Map([
        [3, 0.5],
        [4, 1],
      ]),
    );
  });
});

describe('turn recall', () => {
  it('is the share of evidence ids found, unresolved ids always missed', () => {
    const evidence = parseEvidence(['D1:3; D2:3', 'D:9:9'], turns);
    expect(turnRecall(evidence, new Set(['D1:3', 'D2:3']))).toBeCloseTo(2 / 3);
    expect(turnRecall(evidence, new Set(['D2:3', 'D1:1']))).toBeCloseTo(1 / 3);
    expect(turnRecall(evidence, new Set())).toBe(0);
  });

  it('is undefined for a question without evidence', () => {
    expect(() => turnRecall(parseEvidence([], turns), new Set(['D1:1']))).toThrow(RangeError);
  });

  it('at k counts the turn of each of the first k items', () => {
    const ranked = [['D1:4'], ['D2:3'], [], ['D1:3']];
    expect([...turnsOfFirst(ranked, 2)].sort()).toEqual(['D1:4', 'D2:3']);
    const evidence = parseEvidence(['D1:3', 'D2:3'], turns);
    expect(recallAtKs(evidence, ranked, [1, 2, 3, 4, 10])).toEqual(
      new Map([
        [1, 0],
        [2, 0.5],
        [3, 0.5],
        [4, 1],
        [10, 1],
      ]),
    );
  });
});

describe('StrategyTally', () => {
  const plan = { ks: [1, 5], budgets: [10, 20] };

  it('averages per-question recall overall and by category', () => {
    const tally = new StrategyTally({ name: 'bm25', scored: true, plan });
    const single = parseEvidence(['D1:1'], turns);
    const multi = parseEvidence(['D1:3; D2:3'], turns);
    tally.addQuestion({
      category: 4,
      evidence: single,
      retrieval: retrieval([['D1:1']], { 10: ['D1:1'], 20: ['D1:1'] }),
    });
    const scores = tally.addQuestion({
      category: 1,
      evidence: multi,
      retrieval: retrieval([['D2:2'], ['D2:3']], { 10: [], 20: ['D2:3', 'D1:3'] }),
    });
    expect(scores).toEqual({ recallAtK: { 1: 0, 5: 0.5 }, recallAtBudget: { 10: 0, 20: 1 } });
    tally.addObserve(8, 4000);
    const summary = tally.summary();
    expect(summary.recallAtK).toEqual({ 1: 0.5, 5: 0.75 });
    expect(summary.recallAtBudget).toEqual({ 10: 0.5, 20: 1 });
    expect(summary.byCategory).toEqual({
      1: { questions: 1, recallAtK: { 1: 0, 5: 0.5 }, recallAtBudget: { 10: 0, 20: 1 } },
      4: { questions: 1, recallAtK: { 1: 1, 5: 1 }, recallAtBudget: { 10: 1, 20: 1 } },
    });
    expect(summary.meanContextTokens).toBe(42);
    expect(summary.recallLatencyMs.p50).toBe(2);
    expect(summary.observePerSec).toBe(2);
  });

  it('scores a context that exceeded its budget as recall 0 and counts it', () => {
    const tally = new StrategyTally({ name: 'strata', scored: true, plan });
    const evidence = parseEvidence(['D1:1'], turns);
    tally.addQuestion({
      category: 4,
      evidence,
      retrieval: retrieval([['D1:1']], { 10: ['D1:1'], 20: ['D1:1'] }, [20]),
    });
    expect(tally.summary().recallAtBudget).toEqual({ 10: 1, 20: 0 });
    expect(tally.overBudget).toBe(1);
  });

  it('reports tokens and latency only for a strategy that is not scored', () => {
    const tally = new StrategyTally({ name: 'full-context', scored: false, plan });
    tally.addQuestion({
      category: 4,
      evidence: parseEvidence(['D1:1'], turns),
      retrieval: retrieval([], {}),
    });
    const summary = tally.summary();
    expect(summary.recallAtK).toEqual({});
    expect(summary.byCategory).toEqual({});
    expect(summary.meanContextTokens).toBe(42);
  });
});

describe('packLines', () => {
  const lines = [
    contextLine({ turns: ['D1:1'], speaker: 'Ana', text: 'one two three' }), // 4 words
    contextLine({ turns: ['D1:2'], speaker: 'Ben', text: 'one two three four five six seven' }), // 8 words
    contextLine({ turns: ['D1:3'], speaker: 'Ana', text: 'one' }), // 2 words
  ];

  it('takes lines in order until the budget is full, skipping one that does not fit', () => {
    const packed = packLines({ lines, budget: 8, tokenizer: wordTokenizer });
    expect(packed.context.turns).toEqual(['D1:1', 'D1:3']);
    expect(packed.context.tokens).toBe(6);
  });

  it('stops at the first misfit when the window must be unbroken', () => {
    const packed = packLines({ lines, budget: 8, tokenizer: wordTokenizer, contiguous: true });
    expect(packed.context.turns).toEqual(['D1:1']);
  });

  it('never exceeds the budget', () => {
    for (let budget = 0; budget <= 16; budget++) {
      const packed = packLines({ lines, budget, tokenizer: wordTokenizer });
      expect(packed.context.tokens).toBeLessThanOrEqual(budget);
    }
    expect(packLines({ lines, budget: 16, tokenizer: wordTokenizer }).context.turns).toHaveLength(3);
  });
});
