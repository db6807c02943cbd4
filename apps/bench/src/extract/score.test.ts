import { describe, expect, it } from 'vitest';
import {
  type Alternatives,
  CORPUS_HALVES,
  type CorpusFile,
  type CorpusItem,
  EXTRACTION_KINDS,
  loadCorpusHalf,
} from './corpus.ts';
import { matches, normalizeLabel } from './matching.ts';
import { type ItemObservation, SCORE_UNITS, scoreItem, summarize } from './score.ts';

const first = (label: Alternatives): string => (typeof label === 'string' ? label : label[0]!);

/** What a perfect extractor would leave in memory for an item: exactly its labels. */
function perfect(item: CorpusItem): ItemObservation {
  return {
    facts: item.facts.map((f) => {
      const history = item.history.find(
        (h) => first(h.entity) === first(f.entity) && first(h.key) === first(f.key),
      );
      return {
        entity: first(f.entity),
        key: first(f.key),
        value: first(f.value),
        history: history ? history.values.map(first) : [first(f.value)],
      };
    }),
    edges: item.edges.map((e) => ({ from: [first(e.from)], relation: first(e.relation), to: [first(e.to)] })),
    review: item.review.map((r) => first(r.value)),
  };
}

const nothing: ItemObservation = { facts: [], edges: [], review: [] };

const halves: CorpusFile[] = await Promise.all(CORPUS_HALVES.map((h) => loadCorpusHalf(h)));
const allItems = halves.flatMap((h) => h.items);
const expectedUnits = (items: CorpusItem[]) =>
  items.reduce((n, i) => n + i.facts.length + i.edges.length + i.review.length + i.history.length, 0);

describe('the corpus', () => {
  it('has at least 400 sentences, unique ids, and every kind in both halves', () => {
    expect(allItems.reduce((n, i) => n + i.turns.length, 0)).toBeGreaterThanOrEqual(400);
    expect(new Set(allItems.map((i) => i.id)).size).toBe(allItems.length);
    for (const half of halves) {
      expect(new Set(half.items.map((i) => i.kind))).toEqual(new Set(EXTRACTION_KINDS));
    }
  });

  it('keeps each topic group in one half', () => {
    const [a, b] = halves.map((h) => new Set(h.items.map((i) => i.group)));
    expect([...a!].filter((g) => b!.has(g))).toEqual([]);
  });

  it('labels consistently: histories end at a labelled fact, chains have a turn per value, `none` expects nothing', () => {
    for (const item of allItems) {
      for (const h of item.history) {
        expect(item.turns.length).toBeGreaterThanOrEqual(h.values.length);
        const last = h.values.at(-1)!;
        expect(item.facts.some((f) => first(f.key) === first(h.key) && matches(f.value, first(last)))).toBe(
          true,
        );
      }
      if (item.kind === 'none') expect(expectedUnits([item])).toBe(0);
      if (item.kind === 'hypothetical' || item.kind === 'unowned') {
        expect(item.facts).toEqual([]);
        expect(item.review.length).toBeGreaterThan(0);
      }
    }
  });
});

describe('scoring', () => {
  it('a perfect extractor scores 1 on every kind that expects something, in both halves', () => {
    for (const half of halves) {
      const summary = summarize(half.items.map((item) => scoreItem(item, perfect(item))));
      expect(summary.overall.tp).toBe(expectedUnits(half.items));
      expect(summary.overall.precision).toBe(1);
      expect(summary.overall.recall).toBe(1);
      for (const kind of EXTRACTION_KINDS) {
        const items = half.items.filter((i) => i.kind === kind);
        expect(summary.byKind[kind].items).toBe(items.length);
        expect(summary.byKind[kind].recall).toBe(expectedUnits(items) === 0 ? null : 1);
      }
    }
  });

  it('an extractor that finds nothing has recall 0, no precision and no false alarms', () => {
    const summary = summarize(allItems.map((item) => scoreItem(item, nothing)));
    expect(summary.overall).toMatchObject({
      tp: 0,
      fp: 0,
      fn: expectedUnits(allItems),
      recall: 0,
      precision: null,
    });
    for (const unit of SCORE_UNITS) expect(summary.byUnit[unit].tp).toBe(0);
  });

  it('counts an unexpected fact, edge or review item as a false alarm', () => {
    const item = allItems.find((i) => i.kind === 'none')!;
    const noisy: ItemObservation = {
      facts: [{ entity: 'speaker', key: 'mood', value: 'fine', history: ['fine'] }],
      edges: [{ from: ['a'], relation: 'uses', to: ['b'] }],
      review: ['later'],
    };
    const summary = summarize([scoreItem(item, noisy)]);
    expect(summary.overall).toMatchObject({ tp: 0, fp: 3, fn: 0, precision: 0, recall: null });
  });

  it('pairs each label with at most one observed unit', () => {
    const item = allItems.find((i) => i.kind === 'identity' && i.facts.length === 1)!;
    const twice = perfect(item);
    twice.facts.push({ ...twice.facts[0]! });
    const { facts } = scoreItem(item, twice).units;
    expect(facts).toEqual({ tp: 1, fp: 1, fn: 0 });
  });

  it('scores a history only when every value is there, in order', () => {
    const item = allItems.find((i) => i.kind === 'chain')!;
    const observed = perfect(item);
    const fact = observed.facts[0]!;
    expect(scoreItem(item, observed).units.history).toEqual({ tp: 1, fp: 0, fn: 0 });
    fact.history = [...fact.history.slice(0, -1)].reverse().concat(fact.history.slice(-1));
    expect(scoreItem(item, observed).units.history).toEqual({ tp: 0, fp: 1, fn: 1 });
    fact.history = fact.history.slice(-2);
    expect(scoreItem(item, observed).units.history).toEqual({ tp: 0, fp: 1, fn: 1 });
    // The current value alone is still a fact.
    expect(scoreItem(item, observed).units.facts.tp).toBe(1);
  });
});

describe('matching', () => {
  it('folds case, whitespace, surrounding punctuation, a leading article and underscores', () => {
    expect(normalizeLabel('  The  Berlin Warehouse. ')).toBe('berlin warehouse');
    expect(matches('berlin warehouse', 'the Berlin warehouse')).toBe(true);
    expect(matches('depends_on', 'depends on')).toBe(true);
    expect(matches(['net 60', 'net sixty'], '"Net 60"')).toBe(true);
  });

  it('does not fold synonyms or other wordings the label does not list', () => {
    expect(matches('shipping cutoff', 'cutoff')).toBe(false);
    expect(matches('4 pm', '16:00')).toBe(false);
    expect(matches(['aisle', 'aisle seats'], 'aisle seat please')).toBe(false);
  });
});
