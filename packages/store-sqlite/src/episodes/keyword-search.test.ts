import type { Scope, Store } from '@strata-memory/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sqliteStore } from '../index.ts';
import {
  matchExpression,
  queryTerms,
  scopeToken,
  searchTextOf,
  visibleScopeTokens,
} from './keyword-query.ts';

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
    expect(tokens).toHaveLength(4);
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
      '\u0000\u0001',
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
});
