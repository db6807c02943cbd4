import { describe, expect, it } from 'vitest';
import { KeywordIndex } from './keyword-index.ts';

const all = (_id: string) => true;

function scored(index: KeywordIndex, query: string, accept = all): Map<string, number> {
  return new Map(index.score(query, accept).map((hit) => [hit.id, hit.score]));
}

function ranked(index: KeywordIndex, query: string): string[] {
  return [...scored(index, query)].sort((a, b) => b[1] - a[1]).map(([id]) => id);
}

describe('BM25 keyword index', () => {
  it('ranks a document with more distinct query terms first', () => {
    const index = new KeywordIndex();
    index.add('both', 'supplier lead time is 45 days');
    index.add('one', 'the supplier called about invoices');
    index.add('none', 'weather is nice today');
    expect(ranked(index, 'supplier lead time')).toEqual(['both', 'one']);
  });

  it('weights rare terms above common ones (IDF)', () => {
    const index = new KeywordIndex();
    for (let i = 0; i < 20; i++) index.add(`common-${i}`, `meeting notes number ${i}`);
    index.add('rare', 'meeting about the kubernetes migration');
    index.add('plain', 'meeting meeting');
    const scores = scored(index, 'kubernetes meeting', all);
    expect(ranked(index, 'kubernetes meeting')[0]).toBe('rare');
    expect(scores.get('rare')!).toBeGreaterThan(scores.get('plain')!);
  });

  it('prefers the shorter of two documents with the same term frequency (length normalisation)', () => {
    const index = new KeywordIndex();
    index.add('short', 'invoice overdue');
    index.add(
      'long',
      'invoice overdue with many other unrelated words about shipping, weather and lunch plans',
    );
    const scores = scored(index, 'invoice', all);
    expect(scores.get('short')!).toBeGreaterThan(scores.get('long')!);
  });

  it('saturates term frequency (k1): ten repeats score less than ten times one', () => {
    const index = new KeywordIndex();
    index.add('once', 'alpha beta gamma delta');
    index.add('ten', 'alpha alpha alpha alpha alpha alpha alpha alpha alpha alpha');
    index.add('other', 'unrelated');
    const scores = scored(index, 'alpha', all);
    expect(scores.get('ten')!).toBeGreaterThan(scores.get('once')!);
    expect(scores.get('ten')!).toBeLessThan(10 * scores.get('once')!);
  });

  it('matches stemmed forms and ignores stop-word-only queries', () => {
    const index = new KeywordIndex();
    index.add('a', 'We shipped the parcels');
    expect(ranked(index, 'shipping parcel')).toEqual(['a']);
    expect(scored(index, 'the and of').size).toBe(0);
  });

  it('every score is positive, and the accept filter hides documents without changing IDF', () => {
    const index = new KeywordIndex();
    index.add('x', 'apple pie');
    index.add('y', 'apple tart');
    const open = scored(index, 'apple');
    const filtered = scored(index, 'apple', (id) => id === 'x');
    expect([...open.values()].every((s) => s > 0)).toBe(true);
    expect([...filtered.keys()]).toEqual(['x']);
    expect(filtered.get('x')).toBeCloseTo(open.get('x')!, 12);
  });

  it('forgets removed documents and re-adding replaces the old text', () => {
    const index = new KeywordIndex();
    index.add('a', 'red car');
    index.add('b', 'blue car');
    index.remove('b');
    expect(ranked(index, 'car')).toEqual(['a']);
    index.add('a', 'green boat');
    expect(ranked(index, 'car')).toEqual([]);
    expect(ranked(index, 'boat')).toEqual(['a']);
    expect(index.size).toBe(1);
  });
});

describe('BM25 keyword index under churn', () => {
  it('scores exactly as a freshly built index after many removals and re-adds (compaction)', () => {
    const churned = new KeywordIndex();
    const fresh = new KeywordIndex();
    const text = (i: number) => `doc ${i % 7} topic${i % 13} shared words ${i % 3 === 0 ? 'rare' : 'common'}`;
    for (let i = 0; i < 5_000; i++) churned.add(`d${i}`, text(i));
    for (let i = 0; i < 5_000; i++) if (i % 5 !== 0) churned.remove(`d${i}`);
    for (let i = 0; i < 5_000; i += 10) churned.add(`d${i}`, `${text(i)} readded`);
    for (let i = 0; i < 5_000; i += 5) fresh.add(`d${i}`, i % 10 === 0 ? `${text(i)} readded` : text(i));
    expect(churned.size).toBe(fresh.size);
    for (const query of ['rare readded', 'topic3 common', 'shared', 'doc 4']) {
      const a = scored(churned, query);
      const b = scored(fresh, query);
      expect(a.size).toBe(b.size);
      for (const [id, score] of b) expect(a.get(id)).toBeCloseTo(score, 10);
    }
  });
});

describe('BM25 keyword index partitions', () => {
  it('walks only the listed partitions, with statistics from every partition', () => {
    const index = new KeywordIndex();
    index.add('a1', 'invoice paid', 'alice');
    index.add('a2', 'lunch plans', 'alice');
    index.add('b1', 'invoice overdue', 'bob');
    for (let i = 0; i < 10; i++) index.add(`o${i}`, `invoice number ${i}`, 'org');
    const whole = new Map(index.score('invoice', all).map((hit) => [hit.id, hit.score]));
    const alice = index.score('invoice', all, ['alice', 'org', 'missing']);
    expect(alice.map((hit) => hit.id).sort()).toEqual(
      ['a1', ...Array.from({ length: 10 }, (_, i) => `o${i}`)].sort(),
    );
    for (const hit of alice) expect(hit.score).toBeCloseTo(whole.get(hit.id)!, 12);
    expect(index.score('invoice', all, ['bob']).map((hit) => hit.id)).toEqual(['b1']);
    expect(index.score('invoice', all, [])).toEqual([]);
  });

  it('keeps document frequencies across partitions through removals and compaction', () => {
    const index = new KeywordIndex();
    for (let i = 0; i < 3_000; i++)
      index.add(`d${i}`, `shared term ${i % 3 === 0 ? 'rare' : ''}`, `p${i % 4}`);
    for (let i = 0; i < 3_000; i += 2) index.remove(`d${i}`);
    const fresh = new KeywordIndex();
    for (let i = 1; i < 3_000; i += 2)
      fresh.add(`d${i}`, `shared term ${i % 3 === 0 ? 'rare' : ''}`, `p${i % 4}`);
    const a = new Map(index.score('rare shared', all, ['p1']).map((hit) => [hit.id, hit.score]));
    const b = new Map(fresh.score('rare shared', all, ['p1']).map((hit) => [hit.id, hit.score]));
    expect(a.size).toBe(b.size);
    for (const [id, score] of b) expect(a.get(id)).toBeCloseTo(score, 10);
  });
});
