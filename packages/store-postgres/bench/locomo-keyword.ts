/**
 * Keyword-only retrieval on the LoCoMo development split: every dialogue turn stored as an
 * episode (one tenant per conversation), each non-adversarial question sent to
 * `episodes.searchKeyword` as is, and turn recall@k of its evidence measured. Compares the
 * PostgreSQL store's two rankings, BM25 and `ts_rank_cd` (for each normalization option), with
 * the in-memory store's BM25 over the very same terms (the stores share the analyzer, so only the
 * ranking differs).
 *
 *   node --conditions=@strata-memory/source bench/locomo-keyword.ts [--json]
 *        [--data=/work/shared/bench/locomo] [--url=postgres://…] [--pglite] [--keep]
 *
 * The server is `--url`, else STRATA_PG_URL, else postgres://postgres@127.0.0.1:5432/test;
 * `--pglite` runs on an in-process PGlite instead.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { memoryStore, type Store } from '@strata-memory/core/store';
import pg from 'pg';
import { postgresStore } from '../src/index.ts';
import { pgliteStore } from '../src/pglite/index.ts';

interface Args {
  json: boolean;
  data: string;
  url: string;
  pglite: boolean;
  keep: boolean;
}

function parseCommandLine(argv: string[]): Args {
  const value = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  return {
    json: argv.includes('--json'),
    data: value('data') ?? '/work/shared/bench/locomo',
    url: value('url') ?? process.env.STRATA_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
    pglite: argv.includes('--pglite'),
    keep: argv.includes('--keep'),
  };
}

// ------------------------------------------------------------------ dataset

interface Turn {
  id: string;
  text: string;
  at: number;
}

interface Question {
  question: string;
  category: number;
  evidence: string[];
}

interface Conversation {
  id: string;
  turns: Turn[];
  questions: Question[];
}

interface RawTurn {
  dia_id: string;
  text: string;
  blip_caption?: string;
}

/** A turn as memory sees it: its text, plus the caption of an image the speaker shared. */
function turnText(turn: RawTurn): string {
  const caption = turn.blip_caption?.trim();
  return caption ? `${turn.text} [shares an image: ${caption}]` : turn.text;
}

async function loadConversations(dir: string): Promise<Conversation[]> {
  const files = (await readdir(dir))
    .filter((name) => /^conv-.+\.json$/.test(name))
    .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  if (files.length === 0) throw new Error(`no conv-*.json in ${dir}`);
  const out: Conversation[] = [];
  for (const file of files) {
    const raw = JSON.parse(await readFile(join(dir, file), 'utf8')) as Record<string, unknown>;
    const sessions = Object.keys(raw)
      .map((key) => /^session_(\d+)$/.exec(key)?.[1])
      .filter((n): n is string => n !== undefined)
      .map(Number)
      .sort((a, b) => a - b);
    const turns: Turn[] = [];
    for (const session of sessions) {
      const date =
        Date.parse(String(raw[`session_${session}_date_time`] ?? '')) || Date.UTC(2023, 0, session);
      (raw[`session_${session}`] as RawTurn[]).forEach((turn, position) => {
        turns.push({ id: turn.dia_id, text: turnText(turn), at: date + position * 30_000 });
      });
    }
    out.push({ id: file.replace(/\.json$/, ''), turns, questions: raw.qa as Question[] });
  }
  return out;
}

/** Evidence ids split on `;` and spaces; ids naming no turn stay in the count and are never found. */
function evidenceOf(question: Question): string[] {
  return [
    ...new Set(question.evidence.flatMap((entry) => entry.split(/[;\s]+/)).filter((id) => id.length > 0)),
  ];
}

// ------------------------------------------------------------------ measurement

const KS = [5, 10] as const;
const CATEGORIES: Record<number, string> = {
  1: 'multi-hop',
  2: 'temporal',
  3: 'open-domain',
  4: 'single-hop',
};

interface Scores {
  questions: number;
  recall: Record<string, number>;
  byCategory: Record<string, Record<string, number>>;
  p50Ms: number;
}

async function fill(store: Store, conversations: Conversation[]): Promise<void> {
  for (const conversation of conversations) {
    const scope = { userId: conversation.id };
    const episodes = conversation.turns.map((turn) => ({
      id: `${conversation.id}/${turn.id}`,
      scope,
      text: turn.text,
      occurredAt: turn.at,
      provenance: { source: 'observation' as const },
    }));
    for (let i = 0; i < episodes.length; i += 500)
      await store.episodes.put({ episodes: episodes.slice(i, i + 500) });
  }
}

async function evaluate(store: Store, conversations: Conversation[]): Promise<Scores> {
  const sums = new Map<string, number>();
  const counts = new Map<string, number>();
  const add = (key: string, value: number) => {
    sums.set(key, (sums.get(key) ?? 0) + value);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  };
  const times: number[] = [];
  for (const conversation of conversations) {
    const scope = { userId: conversation.id };
    for (const question of conversation.questions) {
      if (question.category === 5) continue;
      const evidence = evidenceOf(question);
      if (evidence.length === 0) continue;
      const start = performance.now();
      const hits = await store.episodes.searchKeyword({
        scope,
        query: question.question,
        limit: Math.max(...KS),
      });
      times.push(performance.now() - start);
      const ranked = hits.map((hit) => hit.episode.id.slice(conversation.id.length + 1));
      for (const k of KS) {
        const found = new Set(ranked.slice(0, k));
        const recall = evidence.filter((id) => found.has(id)).length / evidence.length;
        add(`all@${k}`, recall);
        add(`${question.category}@${k}`, recall);
      }
    }
  }
  const mean = (key: string) => Math.round(((sums.get(key) ?? 0) / (counts.get(key) ?? 1)) * 1000) / 10;
  times.sort((a, b) => a - b);
  return {
    questions: counts.get(`all@${KS[0]}`) ?? 0,
    recall: Object.fromEntries(KS.map((k) => [`@${k}`, mean(`all@${k}`)])),
    byCategory: Object.fromEntries(
      Object.entries(CATEGORIES).map(([id, name]) => [
        name,
        Object.fromEntries(KS.map((k) => [`@${k}`, mean(`${id}@${k}`)])),
      ]),
    ),
    p50Ms: Math.round(times[Math.floor(times.length / 2)]! * 100) / 100,
  };
}

/** `ts_rank_cd` normalization options measured (PostgreSQL's "Ranking Search Results"). */
const NORMALIZATIONS: Array<{ bits: number; meaning: string }> = [
  { bits: 0, meaning: 'none' },
  { bits: 1, meaning: '÷ (1 + log length)' },
  { bits: 2, meaning: '÷ length' },
  { bits: 4, meaning: '÷ mean harmonic distance between extents' },
  { bits: 8, meaning: '÷ unique words' },
  { bits: 32, meaning: 'rank / (rank + 1)' },
];

async function main(): Promise<void> {
  const args = parseCommandLine(process.argv.slice(2));
  const conversations = await loadConversations(args.data);
  const log = (line: string) => {
    if (!args.json) console.log(line);
  };
  const rows: Array<{ ranking: string; store: string } & Scores> = [];

  const memory = memoryStore();
  await fill(memory, conversations);
  rows.push({
    ranking: 'BM25 (k1 1.2, b 0.75)',
    store: 'memory',
    ...(await evaluate(memory, conversations)),
  });
  await memory.close();

  const schema = `locomo_${process.pid}`;
  let shared: Awaited<ReturnType<typeof openPglite>> | undefined;
  if (args.pglite) shared = await openPglite();
  const open = (tuning: { keywordRanking: 'bm25' | 'ts_rank_cd'; rankNormalization?: number }): Store =>
    shared
      ? pgliteStore({ schema, pglite: shared, ...tuning })
      : postgresStore({ connectionString: args.url, schema, ...tuning });
  const target = args.pglite ? 'pglite' : 'postgres';
  const loader = open({ keywordRanking: 'bm25' });
  await fill(loader, conversations);
  rows.push({ ranking: 'BM25 (k1 1.2, b 0.75)', store: target, ...(await evaluate(loader, conversations)) });
  await loader.close();
  for (const { bits, meaning } of NORMALIZATIONS) {
    const store = open({ keywordRanking: 'ts_rank_cd', rankNormalization: bits });
    rows.push({
      ranking: `ts_rank_cd, normalization ${bits} (${meaning})`,
      store: target,
      ...(await evaluate(store, conversations)),
    });
    await store.close();
  }
  if (!args.pglite && !args.keep) {
    const admin = new pg.Client({ connectionString: args.url });
    await admin.connect();
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
  }
  await shared?.close();

  const turns = conversations.reduce((n, c) => n + c.turns.length, 0);
  log(
    `LoCoMo dev split: ${conversations.length} conversations, ${turns} turns, ${rows[0]!.questions} questions (categories 1-4)`,
  );
  log(
    'ranking | store | recall@5 | recall@10 | multi-hop @5/@10 | temporal | open-domain | single-hop | p50 ms',
  );
  for (const row of rows) {
    const c = row.byCategory;
    const pair = (name: string) => `${c[name]!['@5']}/${c[name]!['@10']}`;
    log(
      `${row.ranking} | ${row.store} | ${row.recall['@5']}% | ${row.recall['@10']}% | ${pair('multi-hop')} | ${pair('temporal')} | ${pair('open-domain')} | ${pair('single-hop')} | ${row.p50Ms}`,
    );
  }
  if (args.json)
    console.log(JSON.stringify({ conversations: conversations.length, turns, results: rows }, null, 2));
}

async function openPglite() {
  const [{ PGlite }, { vector }, { btree_gin }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite-pgvector'),
    import('@electric-sql/pglite/contrib/btree_gin'),
  ]);
  return PGlite.create({ extensions: { vector, btree_gin } });
}

await main();
