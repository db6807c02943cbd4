import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { Scope, Store } from '@strata-memory/core/store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Statements } from '../database/statements.ts';
import { sqliteStore } from '../index.ts';
import {
  matchExpression,
  queryTerms,
  scopeToken,
  searchTextOf,
  visibleScopeTokens,
} from './keyword-query.ts';
import { TermStatistics } from './term-statistics.ts';

describe('keyword query building', () => {
  it('folds case and diacritics, drops stop words, keeps each term once', () => {
    expect(queryTerms('The Café and the CAFE, naïve!')).toEqual(['cafe', 'naive']);
    expect(queryTerms('the and of to')).toEqual([]);
  });

  it('turns operator characters into separators, never syntax', () => {
    expect(queryTerms('"lead time" OR -supplier* NEAR(x y) col:value ^start {a b} a+b')).toEqual([
      'lead',
      'time',
      'supplier',
      'near',
      'x',
      'col',
      'value',
      'start',
      'b',
    ]);
  });

  it('splits Han and Kana one character per term', () => {
    expect(queryTerms('東京の会社')).toEqual(['東', '京', 'の', '会', '社']);
    expect(searchTextOf('私は東京に住んでいます')).toContain(' 東  京 ');
    expect(searchTextOf('plain ascii text')).toBeUndefined();
  });

  it('quotes every term and restricts the match to the visible scopes', () => {
    const match = matchExpression('payment "terms"', { orgId: 'acme', userId: 'ann' });
    const tokens = visibleScopeTokens({ orgId: 'acme', userId: 'ann' });
    // The user's own scope and the org's: every row of tenant org:acme has orgId acme.
    expect(tokens).toHaveLength(2);
    expect(tokens).toContain(scopeToken(['org:acme', 'acme', 'ann', '', '']));
    expect(tokens).toContain(scopeToken(['org:acme', 'acme', '', '', '']));
    expect(match).toBe(
      `scope_key : (${tokens.map((t) => `"${t}"`).join(' OR ')}) AND body : ("payment" OR "terms")`,
    );
    expect(matchExpression('!!! the', { userId: 'u' })).toBeUndefined();
  });
});

describe('keyword search on SQLite FTS5', () => {
  let store: Store;
  const alice: Scope = { orgId: 'acme', userId: 'alice' };
  const bob: Scope = { orgId: 'acme', userId: 'bob' };
  const other: Scope = { orgId: 'globex', userId: 'alice' };

  const put = (id: string, scope: Scope, text: string, extra: Record<string, unknown> = {}) =>
    store.episodes.put({
      episodes: [{ id, scope, text, occurredAt: 1_000, provenance: { source: 'api' }, ...extra }],
    });
  const search = async (scope: Scope, query: string, extra: Record<string, unknown> = {}) =>
    (await store.episodes.searchKeyword({ scope, query, ...extra })).map((hit) => hit.episode.id);

  beforeEach(() => {
    store = sqliteStore({ path: ':memory:' });
  });
  afterEach(async () => {
    await store.close();
  });

  it('treats FTS5 syntax in a query as literal text and never throws', async () => {
    await put('ops', alice, 'C++ OR NEAR(x, y) - "quoted" col:value * star ^caret (paren) AND not');
    const hostile = [
      '"',
      '""',
      '"unbalanced',
      'C++',
      'OR',
      'AND NOT',
      'NEAR(',
      'NEAR(x, y)',
      '-',
      '*',
      'star*',
      '^caret',
      'col:value',
      '(paren',
      'body : star',
      'scope_key : anything',
      '{body}: star',
      "'; DROP TABLE episodes; --",
      // (A NUL is rejected before any store sees it: see the conformance suite's input rules.)
      '\u0001\u0002',
      '🎉',
      '',
    ];
    for (const query of hostile) {
      await expect(store.episodes.searchKeyword({ scope: alice, query })).resolves.toBeDefined();
    }
    expect(await search(alice, 'NEAR(x')).toEqual(['ops']);
    expect(await search(alice, '"quoted')).toEqual(['ops']);
    expect(await search(alice, 'star*')).toEqual(['ops']);
    expect(await search(alice, 'col:value')).toEqual(['ops']);
    expect(await search(alice, 'scope_key : anything')).toEqual([]);
    expect(await store.episodes.count({ scope: alice })).toBe(1);
  });

  it('matches any term, stems English words and ranks by BM25 with positive scores', async () => {
    await put('a', alice, 'The supplier is shipping the payments on Thursday');
    await put('b', alice, 'Payment terms: net 30 days, payment by wire, payment confirmed');
    await put('c', alice, 'Lunch menu for the offsite');
    const hits = await store.episodes.searchKeyword({ scope: alice, query: 'payment shipped' });
    expect(hits.map((h) => h.episode.id).sort()).toEqual(['a', 'b']);
    for (const hit of hits) expect(hit.score).toBeGreaterThan(0);
    expect(hits[0]!.score).toBeGreaterThanOrEqual(hits[1]!.score);
    expect(await search(alice, 'lunches')).toEqual(['c']);
    expect(await search(alice, 'the of and')).toEqual([]);
  });

  it('finds words inside unspaced scripts and folds diacritics both ways', async () => {
    await put('ja', alice, '私は東京に住んでいます');
    await put('fr', alice, 'Réunion au café à Zürich');
    expect(await search(alice, '東京')).toEqual(['ja']);
    expect(await search(alice, 'cafe zurich')).toEqual(['fr']);
    expect(await search(alice, 'RÉUNION')).toEqual(['fr']);
  });

  it('sees only the reader’s scope and its ancestors, inside the index', async () => {
    await put('alice-1', alice, 'quarterly budget review');
    await put('org-1', { orgId: 'acme' }, 'quarterly budget policy');
    await put('bob-1', bob, 'quarterly budget secret');
    await put('other-1', other, 'quarterly budget elsewhere');
    await put('thread-1', { ...alice, threadId: 't1' }, 'quarterly budget in a thread');
    expect((await search(alice, 'quarterly budget')).sort()).toEqual(['alice-1', 'org-1']);
    expect((await search({ ...alice, threadId: 't1' }, 'budget')).sort()).toEqual([
      'alice-1',
      'org-1',
      'thread-1',
    ]);
    expect((await search(bob, 'budget')).sort()).toEqual(['bob-1', 'org-1']);
    expect(await search(other, 'budget')).toEqual(['other-1']);
    expect(await search({ userId: 'alice' }, 'budget')).toEqual([]);
  });

  it('applies status, access level and time filters and keeps the index in step with deletes', async () => {
    await put('old', alice, 'invoice overdue', { occurredAt: 100 });
    await put('secret', alice, 'invoice overdue', { occurredAt: 200, accessLevel: 2 });
    await put('archived', alice, 'invoice overdue', { occurredAt: 300, status: 'archived' });
    expect((await search(alice, 'invoice')).sort()).toEqual(['old', 'secret']);
    expect(await search(alice, 'invoice', { accessLevel: 1 })).toEqual(['old']);
    expect(await search(alice, 'invoice', { since: 150 })).toEqual(['secret']);
    expect((await search(alice, 'invoice', { status: ['archived'] })).sort()).toEqual(['archived']);
    await store.episodes.delete({ scope: alice, ids: ['old'] });
    expect(await search(alice, 'invoice')).toEqual(['secret']);
    await store.forget({ scope: alice });
    expect(await search(alice, 'invoice', { status: ['active', 'archived'] })).toEqual([]);
  });

  it('breaks score ties by id and honours the limit', async () => {
    for (const id of ['e-3', 'e-1', 'e-2']) await put(id, alice, 'identical text here');
    expect(await search(alice, 'identical', { limit: 2 })).toEqual(['e-1', 'e-2']);
  });

  it('still finds the best visible episodes when the index’s best candidates fail the filter', async () => {
    // The 60 shortest (best-ranked) matches are archived; the active ones rank below all of them.
    const archived = Array.from({ length: 60 }, (_, i) => ({
      id: `arch-${String(i).padStart(2, '0')}`,
      scope: alice,
      text: 'deploy',
      occurredAt: 1,
      status: 'archived' as const,
      provenance: { source: 'api' as const },
    }));
    const active = Array.from({ length: 30 }, (_, i) => ({
      id: `act-${String(i).padStart(2, '0')}`,
      scope: alice,
      text: `deploy ${'filler '.repeat(i + 1)}`,
      occurredAt: 1,
      provenance: { source: 'api' as const },
    }));
    await store.episodes.put({ episodes: [...archived, ...active] });
    expect(await search(alice, 'deploy', { limit: 5 })).toEqual([
      'act-00',
      'act-01',
      'act-02',
      'act-03',
      'act-04',
    ]);
  });

  it('breaks ties by id even when more tied matches exist than it first ranks', async () => {
    const ids = Array.from({ length: 80 }, (_, i) => `tie-${String(i).padStart(2, '0')}`).reverse();
    await store.episodes.put({
      episodes: ids.map((id) => ({
        id,
        scope: alice,
        text: 'same words',
        occurredAt: 1,
        provenance: { source: 'api' },
      })),
    });
    expect(await search(alice, 'words', { limit: 3 })).toEqual(['tie-00', 'tie-01', 'tie-02']);
  });

  it('orders a tie past its first candidates by id among the rows that pass the filter', async () => {
    // 80 rows tie; the lowest ids are archived, and the best-ranked match is not tied at all.
    const ids = Array.from({ length: 80 }, (_, i) => `tie-${String(i).padStart(2, '0')}`).reverse();
    await store.episodes.put({
      episodes: [
        ...ids.map((id, i) => ({
          id,
          scope: alice,
          text: 'same words',
          occurredAt: 1,
          status: i >= 75 ? ('archived' as const) : ('active' as const),
          provenance: { source: 'api' as const },
        })),
        { id: 'zz-best', scope: alice, text: 'words', occurredAt: 1, provenance: { source: 'api' as const } },
      ],
    });
    expect(await search(alice, 'words', { limit: 3 })).toEqual(['zz-best', 'tie-05', 'tie-06']);
  });

  it('orders a tie of thousands of rows by id', async () => {
    const ids = Array.from({ length: 2_100 }, (_, i) => `tie-${String(i).padStart(4, '0')}`).reverse();
    const episodes = ids.map((id) => ({
      id,
      scope: alice,
      text: 'same words',
      occurredAt: 1,
      provenance: { source: 'api' as const },
    }));
    for (let start = 0; start < episodes.length; start += 1_000) {
      await store.episodes.put({ episodes: episodes.slice(start, start + 1_000) });
    }
    expect(await search(alice, 'words', { limit: 2 })).toEqual(['tie-0000', 'tie-0001']);
  });
});

describe('keyword search with words found in most episodes', () => {
  const scope: Scope = { orgId: 'acme', userId: 'ann' };
  let folder: string;
  let store: Store;

  /** The reference ranking: every query word in the MATCH, joined with the episodes table. */
  function reference(query: string, limit: number): Array<{ id: string; score: number }> {
    const db = new DatabaseSync(join(folder, 'memory.db'), { readOnly: true });
    try {
      const rows = db
        .prepare(
          `SELECT e.id, bm25(episodes_fts, 1.0, 0.0) AS rank
             FROM episodes_fts JOIN episodes e ON e.row_id = episodes_fts.rowid
            WHERE episodes_fts MATCH ? AND e.status = 'active'
            ORDER BY rank, e.id LIMIT ?`,
        )
        .all(matchExpression(query, scope)!, limit) as Array<{ id: string; rank: number }>;
      return rows.map((row) => ({ id: row.id, score: -row.rank }));
    } finally {
      db.close();
    }
  }

  beforeEach(async () => {
    folder = mkdtempSync(join(tmpdir(), 'strata-keyword-'));
    store = sqliteStore({ path: join(folder, 'memory.db') });
    // 2,400 episodes: "routine" in nine of ten, "zebra" in 40, "okapi" in 5.
    const episodes = Array.from({ length: 2_400 }, (_, i) => {
      const words = [i % 10 === 0 ? 'weekly' : 'routine', `topic${i % 37}`];
      if (i % 60 === 7) words.push('zebra');
      if (i % 480 === 11) words.push('okapi');
      words.push(...Array.from({ length: i % 5 }, () => 'filler'));
      return {
        id: `ep-${String(i).padStart(4, '0')}`,
        scope,
        text: words.join(' '),
        occurredAt: i,
        provenance: { source: 'api' as const },
      };
    });
    for (let start = 0; start < episodes.length; start += 500) {
      await store.episodes.put({ episodes: episodes.slice(start, start + 500) });
    }
  });

  afterEach(async () => {
    await store.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('ranks as if every word were searched (scores within 1e-5), pruning the common one', async () => {
    const hits = await store.episodes.searchKeyword({ scope, query: 'routine zebra', limit: 20 });
    const expected = reference('routine zebra', 20);
    expect(hits.map((h) => h.episode.id)).toEqual(expected.map((e) => e.id));
    for (const [i, hit] of hits.entries())
      expect(Math.abs(hit.score - expected[i]!.score)).toBeLessThan(1e-5);
  });

  it('fills the page with episodes holding only the common word when the rare ones run out', async () => {
    const hits = await store.episodes.searchKeyword({ scope, query: 'okapi routine', limit: 20 });
    expect(hits).toHaveLength(20);
    expect(hits.filter((h) => h.episode.text.includes('okapi'))).toHaveLength(5);
    expect(hits.map((h) => h.episode.id)).toEqual(reference('okapi routine', 20).map((e) => e.id));
  });
});

describe('TermStatistics', () => {
  it('names the query words in most indexed episodes, never all of them, and nothing on a small index', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'strata-terms-'));
    const store = sqliteStore({ path: join(folder, 'memory.db') });
    const scope = { userId: 'u' };
    const put = (count: number, text: (i: number) => string) =>
      store.episodes.put({
        episodes: Array.from({ length: count }, (_, i) => ({
          scope,
          text: text(i),
          occurredAt: i,
          provenance: { source: 'api' as const },
        })),
      });
    await put(1_000, (i) => `shipping notice ${i}`);
    const db = new DatabaseSync(join(folder, 'memory.db'));
    const statistics = new TermStatistics(new Statements(db));
    expect(statistics.commonWords(['shipping', 'rare'])).toEqual(new Set());
    await put(1_000, (i) => `shipped parcel ${i}`);
    await put(500, (i) => `parcel ${i}`);
    // "ships" stems like "shipping" and "shipped": the index's own tokenizer decides.
    const later = Date.now() + 60_000;
    expect(statistics.commonWords(['ships', 'parcel', 'notice'], later)).toEqual(
      new Set(['ships', 'parcel']),
    );
    expect(statistics.commonWords(['ships'], later)).toEqual(new Set());
    expect(statistics.commonWords(['ships', 'parcel'], later)).toEqual(new Set());
    statistics.close();
    db.close();
    await store.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('tells whether a reader’s scopes hold every indexed episode', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'strata-terms-'));
    const store = sqliteStore({ path: join(folder, 'memory.db') });
    const put = (scope: Scope, count: number) =>
      store.episodes.put({
        episodes: Array.from({ length: count }, (_, i) => ({
          scope,
          text: `invoice ${i}`,
          occurredAt: i,
          provenance: { source: 'api' as const },
        })),
      });
    const ann = { orgId: 'acme', userId: 'ann' };
    await put(ann, 3);
    await put({ orgId: 'acme' }, 2);
    const db = new DatabaseSync(join(folder, 'memory.db'));
    const statistics = new TermStatistics(new Statements(db));
    expect(statistics.coversIndex(visibleScopeTokens(ann))).toBe(true);
    expect(statistics.coversIndex(visibleScopeTokens({ orgId: 'acme' }))).toBe(false);
    await put({ orgId: 'acme', userId: 'bob' }, 1);
    expect(statistics.coversIndex(visibleScopeTokens(ann), Date.now() + 60_000)).toBe(false);
    statistics.close();
    db.close();
    await store.close();
    rmSync(folder, { recursive: true, force: true });
  });
});

describe('keyword search of a reader who held the whole index', () => {
  it('ranks as with scope tokens, and never returns rows that other scopes added since', async () => {
    const store = sqliteStore({ path: ':memory:' });
    const ann: Scope = { orgId: 'acme', userId: 'ann' };
    const put = (scope: Scope, prefix: string, texts: string[]) =>
      store.episodes.put({
        episodes: texts.map((text, i) => ({
          id: `${prefix}-${String(i).padStart(3, '0')}`,
          scope,
          text,
          occurredAt: i,
          provenance: { source: 'api' as const },
        })),
      });
    await put(
      ann,
      'ann',
      Array.from({ length: 40 }, (_, i) => (i % 4 === 0 ? 'invoice overdue invoice' : `invoice number ${i}`)),
    );
    const search = async (scope: Scope, limit: number) =>
      (await store.episodes.searchKeyword({ scope, query: 'overdue invoice', limit })).map((h) => [
        h.episode.id,
        h.score,
      ]);
    const alone = await search(ann, 5);
    expect(alone.slice(0, 5).map(([id]) => id)).toEqual([
      'ann-000',
      'ann-004',
      'ann-008',
      'ann-012',
      'ann-016',
    ]);

    // Another user's rows, better matches, right after: statistics up to 30 s old still say ann's
    // scopes hold everything, and only her rows come back, in the same order (BM25's term
    // weights count every row of the index, so the scores change).
    await put(
      { orgId: 'acme', userId: 'bob' },
      'bob',
      Array.from({ length: 60 }, () => 'overdue invoice overdue'),
    );
    expect((await search(ann, 5)).map(([id]) => id)).toEqual(alone.map(([id]) => id));
    const all = await search(ann, 40);
    expect(all).toHaveLength(40);
    expect(all.every(([id]) => String(id).startsWith('ann-'))).toBe(true);
    await store.close();
  });
});
