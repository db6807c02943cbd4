/**
 * Exact search or HNSW walk: for scopes of growing size in one index, the time of a vector search
 * with recall's limit (60) answered exactly and through the walk, the walk's recall@60 against the
 * exact answer, and the time with the store's default bound, which should follow the faster of the
 * two (`exactBoundSql` in src/search/vector-counts.ts; its ratio was fitted on this benchmark).
 *
 *   node --conditions=@strata-memory/source bench/exact-or-walk.ts [--json]
 *        [--sizes=10000,100000,1000000] [--queries=20] [--url=postgres://…] [--keep] [--reuse=<pid>]
 *
 * `--keep` leaves the corpora (`bench_<pid>_exact_or_walk_<size>`); `--reuse=<pid>` measures a
 * kept one again instead of loading it.
 *
 * Each corpus is one tenant whose users hold 250, 500, 1,000, 2,000, … episodes (the sizes that
 * fit in 70% of the corpus), a filler user the rest. Every row's user is drawn at random (a shuffle
 * with a fixed seed), so a user's rows are spread through the table as interleaved conversations
 * leave them. Sentences and 384-d vectors from the store benchmark's generator (rows as wide as
 * its corpus's, so the exact search reads as much per row), the HNSW index built after the
 * load, then VACUUM (ANALYZE), as autovacuum would. Searches run at each user's thread scope,
 * one after another on a quiet store.
 */
import { cpus, loadavg } from 'node:os';
import type { Store } from '@strata-memory/core/store';
import {
  embeddingSpace,
  prng,
  sentence,
  summarize,
  vocabulary,
} from '@strata-memory/store-conformance/bench';
import pg from 'pg';
import { postgresStore } from '../src/index.ts';
import { deferIndex } from './deferred-index.ts';

const SCOPE_SIZES = [250, 500, 1_000, 2_000, 3_000, 5_000, 8_000, 12_000, 16_000, 24_000, 32_000, 48_000];
const DIMENSIONS = 384;
const LIMIT = 60;
const BATCH = 500;

function parseCommandLine(argv: string[]) {
  const value = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  return {
    json: argv.includes('--json'),
    keep: argv.includes('--keep'),
    reuse: value('reuse'),
    sizes: (value('sizes') ?? '10000,100000,1000000').split(',').map(Number),
    queries: Number(value('queries') ?? 20),
    url: value('url') ?? process.env.STRATA_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
  };
}

/** The scope sizes that fit in 70% of a corpus of `size`. */
function scopeSizes(size: number): number[] {
  const chosen: number[] = [];
  let total = 0;
  for (const n of SCOPE_SIZES) {
    if (total + n > size * 0.7) break;
    chosen.push(n);
    total += n;
  }
  return chosen;
}

/** Each row's user, shuffled: `n` rows of user `size-<n>` for each scope size, `filler` the rest. */
function owners(size: number, sizes: number[]): string[] {
  const users = sizes.flatMap((n) => Array.from({ length: n }, () => `size-${n}`));
  while (users.length < size) users.push('filler');
  const random = prng(11);
  for (let i = users.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [users[i], users[j]] = [users[j]!, users[i]!];
  }
  return users;
}

async function load(store: Store, admin: pg.Pool, schema: string, size: number, sizes: number[]) {
  const users = owners(size, sizes);
  const embed = embeddingSpace(DIMENSIONS);
  const random = prng(3);
  const { draw } = vocabulary(prng(7));
  let rebuild: (() => Promise<number>) | undefined;
  for (let start = 0; start < size; start += BATCH) {
    await store.episodes.put({
      episodes: Array.from({ length: Math.min(BATCH, size - start) }, (_, k) => ({
        id: `ep-${start + k}`,
        scope: { orgId: 'org', userId: users[start + k]!, threadId: 'main' },
        text: sentence(random, draw),
        occurredAt: start + k,
        provenance: { source: 'observation' as const },
        embedding: embed(random),
      })),
    });
    if (start === 0) rebuild = await deferIndex(admin, schema, DIMENSIONS);
  }
  const indexSeconds = await rebuild!();
  await admin.query(`VACUUM (ANALYZE) "${schema}".episodes, "${schema}".episode_vectors`);
  return indexSeconds;
}

async function measure(stores: Record<'exact' | 'walk' | 'chosen', Store>, user: string, queries: number) {
  const scope = { orgId: 'org', userId: user, threadId: 'main' };
  const embed = embeddingSpace(DIMENSIONS);
  const random = prng(user.length * 7919 + queries);
  const times = { exact: [] as number[], walk: [] as number[], chosen: [] as number[] };
  let found = 0;
  for (let q = 0; q < queries + 3; q++) {
    const vector = embed(random);
    const run = async (name: keyof typeof times) => {
      const start = performance.now();
      const hits = await stores[name].episodes.searchVector({ scope, vector, limit: LIMIT });
      if (q >= 3) times[name].push(performance.now() - start);
      return hits;
    };
    const truth = await run('exact');
    const walked = await run('walk');
    await run('chosen');
    if (q < 3) continue;
    const ids = new Set(truth.map((hit) => hit.episode.id));
    found += walked.filter((hit) => ids.has(hit.episode.id)).length / truth.length;
  }
  return {
    exact: summarize(times.exact),
    walk: summarize(times.walk),
    chosen: summarize(times.chosen),
    walkRecall: Math.round((found / queries) * 1000) / 1000,
  };
}

async function main() {
  const args = parseCommandLine(process.argv.slice(2));
  const log = (line: string) => {
    if (!args.json) console.log(line);
  };
  const admin = new pg.Pool({ connectionString: args.url, max: 2 });
  const results: Array<Record<string, unknown>> = [];
  const schemas: string[] = [];
  log(
    `machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown'}, load average ${loadavg().map((x) => x.toFixed(1))}`,
  );
  try {
    for (const size of args.sizes) {
      const schema = `bench_${args.reuse ?? process.pid}_exact_or_walk_${size}`;
      const sizes = scopeSizes(size);
      let built = 'earlier';
      if (!args.reuse) {
        schemas.push(schema);
        const loader = postgresStore({ connectionString: args.url, schema });
        built = `in ${await load(loader, admin, schema, size, sizes)} s`;
        await loader.close();
      }
      const stores = {
        exact: postgresStore({ connectionString: args.url, schema, exactSearchBelow: 10_000_000 }),
        walk: postgresStore({ connectionString: args.url, schema, exactSearchBelow: 0 }),
        chosen: postgresStore({ connectionString: args.url, schema }),
      };
      log(`${size.toLocaleString('en')} episodes (index built ${built}), limit ${LIMIT}, p50 / p95 ms:`);
      log('| scope | exact | walk | walk recall@60 | default |');
      log('| ----: | ----: | ---: | -------------: | ------: |');
      for (const n of sizes) {
        const numbers = await measure(stores, `size-${n}`, args.queries);
        results.push({ episodes: size, scope: n, ...numbers });
        const cell = (s: { p50: number; p95: number }) => `${s.p50} / ${s.p95}`;
        log(
          `| ${n.toLocaleString('en')} | ${cell(numbers.exact)} | ${cell(numbers.walk)} | ${numbers.walkRecall} | ${cell(numbers.chosen)} |`,
        );
      }
      for (const store of Object.values(stores)) await store.close();
    }
  } finally {
    if (!args.keep)
      for (const schema of schemas) await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
  }
  if (args.json) console.log(JSON.stringify({ limit: LIMIT, dimensions: DIMENSIONS, results }, null, 2));
}

await main();
