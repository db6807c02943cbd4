/**
 * Recall latency by stage, on a synthetic conversational corpus in the in-memory store.
 *
 *   node --conditions=@strata-memory/source bench/recall-latency.ts [--episodes 600,10000]
 *     [--users 1] [--facts 50] [--queries 300] [--budget 1000] [--seed 1] [--json]
 *
 * Per size: a fresh in-memory store holding `episodes` episodes per user (sessions of 20–40 turns
 * between two named speakers, 30 s apart, sessions days apart, as in long chat histories), `facts`
 * current facts per user and a 40-message thread; the hash embedder (microseconds, so the figures
 * are the engine's and the store's, not a model's). Then `queries` recalls from the thread
 * (`budget` tokens, a mix of plain, speaker-naming and time-naming questions), after a warm-up.
 * `total` times recall as shipped (its loading stages run concurrently); each question is then
 * recalled again with `sequentialStages` and `onStages`, so each stage's time is its own (stages
 * inside `episodes`: `embed`, `keyword`, `vector`, `neighbours`, `rank`). `total - embed` is
 * recall without embedding the query.
 */
import { parseArgs } from 'node:util';
import {
  defaultPolicy,
  defaultTokenizer,
  extractiveSummarizer,
  hashEmbedder,
  memoryStore,
  type Scope,
  type Store,
} from '../src/index.ts';
import { createRecall, type RecallStage } from '../src/internals/index.ts';
import { seededRandom } from '../src/test/index.ts';

const { values } = parseArgs({
  options: {
    episodes: { type: 'string', default: '600,10000' },
    users: { type: 'string', default: '1' },
    facts: { type: 'string', default: '50' },
    queries: { type: 'string', default: '300' },
    budget: { type: 'string', default: '1000' },
    seed: { type: 'string', default: '1' },
    json: { type: 'boolean', default: false },
  },
});

const sizes = values.episodes.split(',').map(Number);
const users = Number(values.users);
const factsPerUser = Number(values.facts);
const queries = Number(values.queries);
const budget = Number(values.budget);
const seed = Number(values.seed);
for (const n of [...sizes, users, factsPerUser, queries, budget, seed]) {
  if (!Number.isInteger(n) || n < 0) {
    console.error('recall-latency: every option takes a non-negative integer (sizes as a comma list)');
    process.exit(2);
  }
}

const NAMES = ['Caroline', 'Melanie', 'Jon', 'Gina', 'Maria', 'Tom', 'Priya', 'Dan', 'Lena', 'Ben'];
const TOPICS = [
  'painting class',
  'support group',
  'camping trip',
  'new job',
  'dance studio',
  'adoption agency',
  'pottery workshop',
  'charity race',
  'road trip',
  'book club',
  'guitar lessons',
  'garden project',
  'steel order',
  'supplier invoice',
  'lead time',
  'payment terms',
];
const PLACES = [
  'Rotterdam',
  'Paris',
  'the beach',
  'the mountains',
  'Lisbon',
  'the lake',
  'Boston',
  'the park',
];
const VERBS = [
  'went to',
  'talked about',
  'signed up for',
  'finished',
  'planned',
  'loved',
  'started',
  'missed',
];
const FILLER = [
  'It was a really good week overall.',
  'I keep thinking about it.',
  'Thanks for asking!',
  'That sounds amazing, tell me more.',
  'We should catch up soon.',
  'My kids were so excited.',
];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August'];

function pick<T>(rand: () => number, list: readonly T[]): T {
  return list[Math.floor(rand() * list.length)]!;
}

function sentence(rand: () => number): string {
  const parts = [
    `I ${pick(rand, VERBS)} the ${pick(rand, TOPICS)} in ${pick(rand, PLACES)}`,
    rand() < 0.4 ? ` with ${pick(rand, NAMES)}` : '',
    rand() < 0.3 ? ` and it cost $${Math.floor(rand() * 900 + 100)}` : '',
    '.',
    rand() < 0.5 ? ` ${pick(rand, FILLER)}` : '',
  ];
  return parts.join('');
}

async function buildCorpus(store: Store, user: number, episodes: number, rand: () => number) {
  const scope: Scope = { orgId: 'bench', userId: `u${user}` };
  const [a, b] = [pick(rand, NAMES), pick(rand, NAMES)];
  const embedder = hashEmbedder();
  let at = Date.UTC(2023, 0, 1);
  let written = 0;
  let session = 0;
  while (written < episodes) {
    session += 1;
    const turns = Math.min(episodes - written, 20 + Math.floor(rand() * 21));
    const texts = Array.from({ length: turns }, () => sentence(rand));
    const vectors = await embedder.embed({ texts });
    const batch = texts.map((text, i) => {
      const occurredAt = at + i * 30_000;
      return {
        scope,
        text,
        role: 'user' as const,
        speaker: i % 2 === 0 ? a : b,
        occurredAt,
        createdAt: occurredAt,
        importance: 0.3 + rand() * 0.4,
        embedding: vectors[i]!,
        provenance: {
          source: 'observation' as const,
          messageId: `m${user}-${written + i}`,
          threadId: `s${session}`,
          at: occurredAt,
        },
      };
    });
    for (let i = 0; i < batch.length; i += 500)
      await store.episodes.put({ episodes: batch.slice(i, i + 500) });
    written += turns;
    at += (2 + Math.floor(rand() * 12)) * 86_400_000;
  }
  for (let f = 0; f < factsPerUser; f++) {
    await store.facts.insert({
      fact: {
        scope,
        entityType: 'entity',
        entityId: `${pick(rand, TOPICS)} ${f}`,
        key: pick(rand, ['status', 'owner', 'cost', 'place', 'date']),
        value: `${pick(rand, PLACES)} ${Math.floor(rand() * 100)}`,
        validFrom: at,
        createdAt: at,
        provenance: { source: 'api', at },
      },
    });
  }
  const thread: Scope = { ...scope, threadId: 'now' };
  await store.threads.appendMessages({
    scope: thread,
    messages: Array.from({ length: 40 }, (_, i) => ({
      role: i % 2 === 0 ? ('user' as const) : ('assistant' as const),
      content: sentence(rand),
      createdAt: at + i * 30_000,
    })),
  });
  return { thread, speakers: [a, b], end: at + 40 * 30_000 };
}

function question(rand: () => number, speakers: string[]): string {
  const kind = rand();
  const topic = pick(rand, TOPICS);
  if (kind < 0.4) return `What did ${pick(rand, speakers)} say about the ${topic}?`;
  if (kind < 0.6)
    return `When did ${pick(rand, speakers)} go to ${pick(rand, PLACES)} in ${pick(rand, MONTHS)} 2023?`;
  if (kind < 0.8) return `How much did the ${topic} cost?`;
  return `Who was at the ${topic} with ${pick(rand, NAMES)}?`;
}

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

const round = (x: number) => Math.round(x * 100) / 100;
const STAGES: Array<RecallStage | 'total' | 'total - embed'> = [
  'total',
  'total - embed',
  'working',
  'facts',
  'episodes',
  'embed',
  'keyword',
  'vector',
  'neighbours',
  'rank',
  'graph',
  'assemble',
];

const runs: Array<{ episodesPerUser: number; latencyMs: Record<string, { p50: number; p95: number }> }> = [];
for (const size of sizes) {
  const rand = seededRandom(seed);
  const store = memoryStore();
  const built = [];
  for (let u = 0; u < users; u++) built.push(await buildCorpus(store, u, size, rand));
  const tokenizer = defaultTokenizer();
  let now = Math.max(...built.map((b) => b.end));
  let stages: Partial<Record<RecallStage, number>> = {};
  const deps = {
    store,
    embedder: hashEmbedder(),
    tokenizer,
    summarizer: extractiveSummarizer({ tokenizer }),
    clock: { now: () => now },
    policy: defaultPolicy,
  };
  // As shipped (stages run concurrently): the totals.
  const recall = createRecall(deps);
  // The same recall with its stages one after another: each stage's own time.
  const staged = createRecall({
    ...deps,
    sequentialStages: true,
    onStages: (s) => {
      stages = s;
    },
  });
  const samples = new Map<string, number[]>(STAGES.map((s) => [s, []]));
  const warmup = Math.min(30, queries);
  for (let q = 0; q < warmup + queries; q++) {
    const corpus = built[q % built.length]!;
    const text = question(rand, corpus.speakers);
    now += 1_000;
    const start = performance.now();
    await recall(corpus.thread, { query: text, budget: { tokens: budget } });
    const total = performance.now() - start;
    stages = {};
    await staged(corpus.thread, { query: text, budget: { tokens: budget } });
    if (q < warmup) continue;
    samples.get('total')!.push(total);
    samples.get('total - embed')!.push(total - (stages.embed ?? 0));
    for (const [stage, ms] of Object.entries(stages)) samples.get(stage)?.push(ms);
  }
  const latencyMs: Record<string, { p50: number; p95: number }> = {};
  for (const [stage, list] of samples) {
    if (list.length === 0) continue;
    list.sort((x, y) => x - y);
    latencyMs[stage] = { p50: round(quantile(list, 0.5)), p95: round(quantile(list, 0.95)) };
  }
  runs.push({ episodesPerUser: size, latencyMs });
  if (!values.json) {
    console.log(
      `\n${size} episodes per user × ${users} user(s), ${factsPerUser} facts each, ${queries} recalls of ${budget} tokens (ms):`,
    );
    console.log(`${'stage'.padEnd(14)} ${'p50'.padStart(8)} ${'p95'.padStart(8)}`);
    for (const [stage, q] of Object.entries(latencyMs)) {
      console.log(`${stage.padEnd(14)} ${q.p50.toFixed(2).padStart(8)} ${q.p95.toFixed(2).padStart(8)}`);
    }
  }
}
if (values.json) {
  console.log(
    JSON.stringify({
      benchmark: 'recall-latency',
      store: 'memory',
      embedder: 'hash',
      users,
      factsPerUser,
      queries,
      budget,
      runs,
    }),
  );
}
