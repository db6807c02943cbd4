import { createMemory } from '@strata-memory/core';
import { analyzeText, type Scope, type Store } from '@strata-memory/core/store';
import { seededRandom, testEmbedder } from '@strata-memory/core/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTarget, type TestTarget } from './target.ts';

/**
 * Right to be forgotten, checked in every row of every table of the store's schema (BM25's
 * statistics and postings included), on PGlite or, with STRATA_PG_URL, the real server. The
 * user's text carries marker words found nowhere else.
 */

const maria: Scope = { orgId: 'acme', userId: 'maria' };
const mariaThread: Scope = { ...maria, threadId: 't1' };
const bobThread: Scope = { orgId: 'acme', userId: 'bob', threadId: 't1' };

/** Ten random consonants (no `s` or `y`, so the English stemmer keeps them whole), seeded. */
function markerWords(seed: number, count: number): string[] {
  const letters = 'bcdfghjklmnpqrtvwxz';
  const random = seededRandom(seed);
  return Array.from({ length: count }, () =>
    Array.from({ length: 10 }, () => letters[Math.floor(random() * letters.length)]).join(''),
  );
}

/** A word both users wrote, as the index stores it. */
const shared = analyzeText('quarterly')[0]!;

function sentence(a: string, b: string): string {
  return `Please remember ${a} and ${b} for the quarterly review.`;
}

let target: TestTarget;
let store: Store;
let schema: string;

beforeAll(async () => {
  target = await openTarget();
  schema = target.freshSchema('forget');
  store = target.openStore({ schema });
});
afterAll(async () => {
  await target.close();
});

/** Every row of every table in the store's schema, as text. */
async function everyRow(): Promise<string> {
  const tables = await target.sql.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND c.relkind IN ('r', 'p')`,
    [schema],
  );
  const out: string[] = [];
  for (const { name } of tables.rows) {
    const rows = await target.sql.query<{ row: string }>(
      `SELECT t::text AS row FROM "${schema}"."${name}" t`,
    );
    for (const { row } of rows.rows) out.push(row);
  }
  expect(tables.rows.map((t) => t.name)).toEqual(expect.arrayContaining(['episodes', 'keyword_terms']));
  return out.join('\n').toLowerCase();
}

async function documentCounts(words: readonly string[]): Promise<Record<string, number>> {
  const result = await target.sql.query<{ lexeme: string; n: string }>(
    `SELECT lexeme, sum(documents)::text AS n FROM "${schema}".keyword_terms
      WHERE lexeme = ANY($1::text[]) GROUP BY lexeme`,
    [words],
  );
  return Object.fromEntries(result.rows.map((row) => [row.lexeme, Number(row.n)]));
}

describe('forget erases the user from every table', () => {
  const mariaWords = markerWords(11, 8);
  const bobWords = markerWords(12, 8);
  const memory = () => createMemory({ store, embedder: testEmbedder(64) });

  it('leaves no row holding her words, keeps the others searchable with their counts', async () => {
    const engine = memory();
    for (const [scope, words] of [
      [mariaThread, mariaWords],
      [bobThread, bobWords],
    ] as const) {
      for (let i = 0; i < words.length; i += 2) {
        await engine.observe(scope, { role: 'user', content: sentence(words[i]!, words[i + 1]!) });
      }
      await engine.state.set(scope, 'note', { text: words.join(' ') });
    }
    const before = await everyRow();
    expect(mariaWords.filter((word) => !before.includes(word))).toEqual([]);
    expect(Object.keys(await documentCounts(mariaWords)).sort()).toEqual([...mariaWords].sort());

    const counts = await engine.forget(maria);
    expect(counts.episodes).toBe(mariaWords.length / 2);

    const after = await everyRow();
    expect(mariaWords.filter((word) => after.includes(word))).toEqual([]);
    expect(bobWords.filter((word) => !after.includes(word))).toEqual([]);
    // Bob's terms keep their counts; words both wrote keep Bob's share.
    expect(await documentCounts([...bobWords, shared])).toEqual({
      ...Object.fromEntries(bobWords.map((word) => [word, 1])),
      [shared]: bobWords.length / 2,
    });
    for (let i = 0; i < bobWords.length; i += 2) {
      const hits = await store.episodes.searchKeyword({ scope: bobThread, query: bobWords[i]! });
      expect(hits.map((hit) => hit.episode.text)).toEqual([sentence(bobWords[i]!, bobWords[i + 1]!)]);
    }
  });

  it('deleting one episode drops the terms only it held', async () => {
    const engine = memory();
    const [episode] = (await store.episodes.list({ scope: bobThread })).items.filter((e) =>
      e.text.includes(bobWords[0]!),
    );
    expect(await engine.forgetItem(bobThread, episode!.id)).toEqual({ deleted: true, layer: 'episodes' });
    const counts = await documentCounts([...bobWords, shared]);
    expect(counts).toEqual({
      ...Object.fromEntries(bobWords.slice(2).map((word) => [word, 1])),
      [shared]: bobWords.length / 2 - 1,
    });
  });
});
