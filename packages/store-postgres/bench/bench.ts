/**
 * Store benchmark: write throughput and search latency of the PostgreSQL store at 10k and 100k
 * episodes, for a multi-tenant corpus and for one tenant holding everything. The corpus, shapes
 * and queries are the SQLite store's benchmark's (same generator and seeds), so the two compare.
 *
 *   node --conditions=@strata-memory/source bench/bench.ts [--json] [--sizes=10000,100000]
 *        [--queries=200] [--dimensions=384] [--url=postgres://…] [--bulk-from=20000]
 *        [--keyword-ranking=bm25|ts_rank_cd] [--shapes=100,1] [--keep] [--reuse=<pid>,…] [--stages]
 *        [--unprepared]
 *
 * The server is `--url`, else STRATA_PG_URL, else postgres://postgres@127.0.0.1:5432/test; each
 * run uses fresh schemas and drops them at the end (unless --keep). `--reuse=<pid>` measures the
 * searches again on the corpora a `--keep` run with that process id left behind
 * (`bench_<pid>_full_<size>_<tenants>`, the first listed pid that has one), skipping the load:
 * the insert figures are then absent. `--stages` adds, per corpus, how many calls of each store
 * method one `memory.recall` makes and their mean time, and the p50/p95 of each recall stage with
 * the stages run one after another (core's `onStages`). `--unprepared` measures the searches with
 * `prepareStatements: false` (every statement parsed and planned on every call).
 *
 * Prints a table (or, with --json, one JSON document) of:
 * - insert throughput, episodes/s, in batches of 500: text only, and with unit vectors (HNSW
 *   index maintained on every insert); corpora of --bulk-from episodes or more are loaded the way
 *   a bulk import should be, index dropped and rebuilt after the load (its build time reported);
 * - p50/p95 ms of searchKeyword, searchVector (limit 20), and of the store work one recall does
 *   (one keyword search, one vector search, a facts query and the recent messages, concurrently),
 *   and of the engine's whole `memory.recall` (router, hybrid retrieval, fusion, budget, access
 *   bookkeeping) with the query's embedding precomputed, so embedding time is excluded, and the
 *   mean CPU time around each recall, this process's and (on Linux) the whole machine's, with the
 *   share of the machine's time a virtual machine's host took for others meanwhile (steal), and
 *   the bytes through the loopback interface a recall (its statements and rows, with the server
 *   on this machine over TCP);
 * - p50/p95 ms of searchVector with recall's limit (60) by a store that has made no search before,
 *   as a new process (or another instance behind a load balancer) makes it, over 20 queries;
 * - recall@20 of searchVector against an exact search of the same schema (`exactSearchBelow`
 *   past the corpus size, so no HNSW);
 * - the episodes table's size with its indexes, and BM25's postings table's;
 * - the machine, the server's version and its `shared_buffers` and `work_mem`, and the load
 *   average at the start and the end (latency on a shared machine moves with it).
 */
import { readFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import {
  createMemory,
  defaultPolicy,
  defaultTokenizer,
  type Embedder,
  extractiveSummarizer,
  PORT_SPECIFICATION_VERSION,
  type Store,
} from '@strata-memory/core';
import { createRecall } from '@strata-memory/core/internals';
import {
  addRecallContext,
  embeddingSpace,
  FUNCTION_WORDS,
  prng,
  SHAPES,
  type Shape,
  scopeOf,
  sentence,
  summarize,
  vocabulary,
} from '@strata-memory/store-conformance/bench';
import pg from 'pg';
import { postgresStore } from '../src/index.ts';
import { deferIndex } from './deferred-index.ts';

interface Args {
  json: boolean;
  sizes: number[];
  queries: number;
  dimensions: number;
  url: string;
  keep: boolean;
  /** Corpora at least this large are loaded without the HNSW index, which is built afterwards. */
  bulkFrom: number;
  keywordRanking: 'bm25' | 'ts_rank_cd';
  /** Corpus shapes to run, by tenant count. */
  shapes: number[];
  /** Process ids of earlier `--keep` runs whose corpora are measured again instead of loading new ones. */
  reuse: string[];
  /** Also report store calls per recall and per-stage recall times. */
  stages: boolean;
  /** The measured store runs every statement unprepared. */
  unprepared: boolean;
}

function parseCommandLine(argv: string[]): Args {
  const value = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  return {
    json: argv.includes('--json'),
    sizes: (value('sizes') ?? '10000,100000').split(',').map(Number),
    queries: Number(value('queries') ?? 200),
    dimensions: Number(value('dimensions') ?? 384),
    url: value('url') ?? process.env.STRATA_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
    keep: argv.includes('--keep'),
    bulkFrom: Number(value('bulk-from') ?? 20_000),
    keywordRanking: value('keyword-ranking') === 'ts_rank_cd' ? 'ts_rank_cd' : 'bm25',
    shapes: (value('shapes') ?? '100,1').split(',').map(Number),
    reuse:
      value('reuse')
        ?.split(',')
        .filter((pid) => /^\d+$/.test(pid)) ?? [],
    stages: argv.includes('--stages'),
    unprepared: argv.includes('--unprepared'),
  };
}

/**
 * CPU time used so far, in ms: by this process, and by the whole machine (busy time in Linux's
 * `/proc/stat`, in ticks of 10 ms; undefined where there is none). With the server on the same
 * machine, the difference is mostly the server's. `stolen` and `all` are the machine's time a
 * virtual machine's host gave to others while it wanted to run, and all its time: on a shared
 * host, latency moves with the stolen share.
 */
function cpuTimes(): { node: number; machine?: number; stolen?: number; all?: number } {
  const { user, system } = process.cpuUsage();
  const node = (user + system) / 1000;
  try {
    // The first line: cpu user nice system idle iowait irq softirq steal …
    const ticks = readFileSync('/proc/stat', 'utf8')
      .split('\n', 1)[0]!
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number);
    const [user_, nice, system_, , , irq, softirq, steal] = ticks;
    return {
      node,
      machine: (user_! + nice! + system_! + irq! + softirq!) * 10,
      stolen: (steal ?? 0) * 10,
      all: ticks.slice(0, 8).reduce((sum, t) => sum + (t ?? 0), 0) * 10,
    };
  } catch {
    return { node };
  }
}

/**
 * Bytes through the loopback interface so far (Linux's `/proc/net/dev`; undefined elsewhere):
 * with the server on this machine over TCP, what a recall's statements and rows cost the network.
 */
function loopbackBytes(): number | undefined {
  try {
    const line = readFileSync('/proc/net/dev', 'utf8')
      .split('\n')
      .find((l) => l.trim().startsWith('lo:'));
    return line === undefined ? undefined : Number(line.trim().slice(3).trim().split(/\s+/)[0]);
  } catch {
    return undefined;
  }
}

async function timed<T>(fn: () => Promise<T>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

const BATCH = 500;

async function fill(args: {
  store: Store;
  shape: Shape;
  size: number;
  dimensions: number | undefined;
  seed: number;
  /** Drop the HNSW index after the first batch; the caller rebuilds it. */
  afterFirstBatch?: () => Promise<void>;
}): Promise<number> {
  const random = prng(args.seed);
  const { draw } = vocabulary(prng(7));
  const t0 = Date.UTC(2024, 0, 1);
  const embed = args.dimensions ? embeddingSpace(args.dimensions) : undefined;
  let elapsed = 0;
  for (let start = 0; start < args.size; start += BATCH) {
    const episodes: Parameters<Store['episodes']['put']>[0]['episodes'] = [];
    for (let i = start; i < Math.min(args.size, start + BATCH); i++) {
      episodes.push({
        id: `ep-${i}`,
        scope: scopeOf(args.shape, i),
        text: sentence(random, draw),
        occurredAt: t0 + i * 60_000,
        provenance: { source: 'observation' as const, at: t0 + i * 60_000 },
        ...(embed ? { embedding: embed(random) } : {}),
      });
    }
    elapsed += await timed(() => args.store.episodes.put({ episodes }));
    if (start === 0) await args.afterFirstBatch?.();
  }
  return Math.round(args.size / (elapsed / 1000));
}

interface SearchNumbers {
  keyword: ReturnType<typeof summarize>;
  vector: ReturnType<typeof summarize>;
  recall: ReturnType<typeof summarize>;
  engineRecall: ReturnType<typeof summarize>;
  /** Mean CPU ms around each `memory.recall`: this process's, and the machine's (undefined off Linux). */
  recallCpuMs: { node: number; machine: number | undefined };
  /** Percent of the machine's time stolen by a virtual machine's host during the recalls (undefined off Linux). */
  recallStolenPercent: number | undefined;
  /** Mean KiB through the loopback interface a recall (undefined off Linux; 0 over a Unix socket). */
  recallLoopbackKiB: number | undefined;
  /** searchVector by a store that has made no search before (a new process's first of a scope). */
  vectorNewStore: ReturnType<typeof summarize>;
  keywordHitsMean: number;
  vectorRecallAt20: number;
  /** With --stages: store calls per `memory.recall`, and per-stage times. */
  storeCalls?: Record<string, { perRecall: number; meanMs: number }>;
  stages?: Record<string, ReturnType<typeof summarize>>;
}

/**
 * Replaces every method of the store's sub-stores with one that counts its calls and their time
 * (the store object is changed in place: only for the --stages pass, which runs last).
 */
function countCalls(store: Store): Map<string, { n: number; ms: number }> {
  const calls = new Map<string, { n: number; ms: number }>();
  for (const name of ['episodes', 'facts', 'threads', 'graph', 'scopes', 'state'] as const) {
    const sub = (store as unknown as Record<string, Record<string, unknown> | undefined>)[name];
    if (!sub) continue;
    for (const [method, fn] of Object.entries(sub)) {
      if (typeof fn !== 'function') continue;
      sub[method] = async (...args: unknown[]) => {
        const start = performance.now();
        try {
          return await (fn as (...a: unknown[]) => Promise<unknown>).apply(sub, args);
        } finally {
          const entry = calls.get(`${name}.${method}`) ?? { n: 0, ms: 0 };
          entry.n += 1;
          entry.ms += performance.now() - start;
          calls.set(`${name}.${method}`, entry);
        }
      };
    }
  }
  return calls;
}

/** An embedder that answers from precomputed vectors, so recall timings exclude embedding. */
function precomputedEmbedder(vectors: Map<string, number[]>, dimensions: number): Embedder {
  return {
    specificationVersion: PORT_SPECIFICATION_VERSION,
    id: 'precomputed',
    dimensions,
    maxBatchSize: 64,
    async embed({ texts }) {
      return texts.map(
        (text) => vectors.get(text) ?? new Array<number>(dimensions).fill(1 / Math.sqrt(dimensions)),
      );
    },
  };
}

async function searches(
  store: Store,
  exact: Store,
  shape: Shape,
  args: Args,
  seed: number,
  schema: string,
): Promise<SearchNumbers> {
  const random = prng(seed);
  const { draw } = vocabulary(prng(7));
  const embed = embeddingSpace(args.dimensions);
  const queries = Array.from({ length: args.queries + 20 }, (_, q) => {
    const scope = { ...scopeOf(shape, Math.floor(random() * 1_000_000)), threadId: 'main' };
    const words = Array.from({ length: 3 + Math.floor(random() * 4) }, () =>
      random() < 0.3 ? FUNCTION_WORDS[Math.floor(random() * FUNCTION_WORDS.length)] : draw(),
    );
    return {
      scope,
      text: `what did we say about ${words.join(' ')}?`,
      vector: embed(random),
      q,
    };
  });
  const keyword: number[] = [];
  const vector: number[] = [];
  const recall: number[] = [];
  const engineRecall: number[] = [];
  const memory = createMemory({
    store,
    embedder: precomputedEmbedder(new Map(queries.map((q) => [q.text, q.vector])), args.dimensions),
  });
  let nodeCpu = 0;
  let machineCpu = 0;
  let stolen = 0;
  let all = 0;
  let loopback = 0;
  let hits = 0;
  let overlap = 0;
  let expected = 0;
  for (const query of queries) {
    const warm = query.q < 20;
    const k = await timed(async () => {
      const found = await store.episodes.searchKeyword({ scope: query.scope, query: query.text, limit: 20 });
      if (!warm) hits += found.length;
    });
    let found: string[] = [];
    const v = await timed(async () => {
      const result = await store.episodes.searchVector({
        scope: query.scope,
        vector: query.vector,
        limit: 20,
      });
      found = result.map((hit) => hit.episode.id);
    });
    if (!warm) {
      const truth = await exact.episodes.searchVector({
        scope: query.scope,
        vector: query.vector,
        limit: 20,
      });
      const ids = new Set(found);
      overlap += truth.filter((hit) => ids.has(hit.episode.id)).length;
      expected += truth.length;
    }
    const r = await timed(() =>
      Promise.all([
        store.episodes.searchKeyword({ scope: query.scope, query: query.text, limit: 20 }),
        store.episodes.searchVector({ scope: query.scope, vector: query.vector, limit: 20 }),
        store.facts.find({ scope: query.scope, limit: 50 }),
        store.threads.listMessages({ scope: query.scope, order: 'desc', limit: 20 }),
      ]),
    );
    const cpuBefore = cpuTimes();
    const bytesBefore = loopbackBytes();
    const e = await timed(() => memory.recall(query.scope, { query: query.text }));
    const bytesAfter = loopbackBytes();
    const cpuAfter = cpuTimes();
    if (warm) continue;
    nodeCpu += cpuAfter.node - cpuBefore.node;
    // NaN off Linux, reported as undefined.
    machineCpu += (cpuAfter.machine ?? Number.NaN) - (cpuBefore.machine ?? Number.NaN);
    stolen += (cpuAfter.stolen ?? Number.NaN) - (cpuBefore.stolen ?? Number.NaN);
    all += (cpuAfter.all ?? Number.NaN) - (cpuBefore.all ?? Number.NaN);
    loopback += (bytesAfter ?? Number.NaN) - (bytesBefore ?? Number.NaN);
    keyword.push(k);
    vector.push(v);
    recall.push(r);
    engineRecall.push(e);
  }
  const vectorNewStore: number[] = [];
  for (const query of queries.slice(20, 40)) {
    const fresh = postgresStore({ connectionString: args.url, schema });
    // Connected, and its schema found, before the clock starts.
    await fresh.episodes.count({ scope: query.scope, status: ['active'] });
    vectorNewStore.push(
      await timed(() => fresh.episodes.searchVector({ scope: query.scope, vector: query.vector, limit: 60 })),
    );
    await fresh.close();
  }
  const staged = args.stages ? await stagesOf(store, queries, args.dimensions) : {};
  return {
    ...staged,
    keyword: summarize(keyword),
    vector: summarize(vector),
    recall: summarize(recall),
    engineRecall: summarize(engineRecall),
    recallCpuMs: {
      node: Math.round((nodeCpu / args.queries) * 10) / 10,
      machine: Number.isNaN(machineCpu) ? undefined : Math.round((machineCpu / args.queries) * 10) / 10,
    },
    recallStolenPercent:
      Number.isNaN(stolen) || all === 0 ? undefined : Math.round((stolen / all) * 1000) / 10,
    recallLoopbackKiB: Number.isNaN(loopback) ? undefined : Math.round(loopback / args.queries / 1024),
    vectorNewStore: summarize(vectorNewStore),
    keywordHitsMean: Math.round((hits / args.queries) * 10) / 10,
    vectorRecallAt20: expected === 0 ? 1 : Math.round((overlap / expected) * 1000) / 1000,
  };
}

/**
 * The --stages pass: the same queries through core's recall, once with its stages run
 * concurrently (as `memory.recall` runs them) counting store calls, once one stage after another
 * for per-stage times.
 */
async function stagesOf(
  store: Store,
  queries: Array<{ scope: ReturnType<typeof scopeOf>; text: string; vector: number[]; q: number }>,
  dimensions: number,
): Promise<Pick<SearchNumbers, 'storeCalls' | 'stages'>> {
  const times: Record<string, number[]> = {};
  const deps = {
    store,
    embedder: precomputedEmbedder(new Map(queries.map((q) => [q.text, q.vector])), dimensions),
    tokenizer: defaultTokenizer(),
    summarizer: extractiveSummarizer(),
    clock: { now: () => Date.now() },
    policy: defaultPolicy,
  };
  const concurrent = createRecall(deps);
  const sequential = createRecall({
    ...deps,
    sequentialStages: true,
    onStages: (stages) => {
      for (const [stage, ms] of Object.entries(stages)) {
        if (ms === undefined) continue;
        const list = times[stage] ?? [];
        list.push(ms);
        times[stage] = list;
      }
    },
  });
  const calls = countCalls(store);
  const timed = queries.filter((q) => q.q >= 20);
  for (const query of timed) await concurrent(query.scope, { query: query.text });
  const storeCalls = Object.fromEntries(
    [...calls].map(([name, c]) => [
      name,
      { perRecall: Math.round((c.n / timed.length) * 10) / 10, meanMs: Math.round((c.ms / c.n) * 100) / 100 },
    ]),
  );
  for (const query of timed) await sequential(query.scope, { query: query.text });
  return {
    storeCalls,
    stages: Object.fromEntries(Object.entries(times).map(([stage, ms]) => [stage, summarize(ms)])),
  };
}

async function serverInfo(
  admin: pg.Pool,
): Promise<{ postgres: string; pgvector: string; sharedBuffers: string; workMem: string }> {
  const result = await admin.query<{
    postgres: string;
    pgvector: string | null;
    shared_buffers: string;
    work_mem: string;
  }>(
    `SELECT current_setting('server_version') AS postgres,
            (SELECT extversion FROM pg_extension WHERE extname = 'vector') AS pgvector,
            current_setting('shared_buffers') AS shared_buffers, current_setting('work_mem') AS work_mem`,
  );
  const row = result.rows[0]!;
  return {
    postgres: row.postgres,
    pgvector: row.pgvector ?? 'not installed',
    sharedBuffers: row.shared_buffers,
    workMem: row.work_mem,
  };
}

async function schemaExists(admin: pg.Pool, schema: string): Promise<boolean> {
  const result = await admin.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
  return result.rows.length > 0;
}

async function tableMiB(admin: pg.Pool, schema: string, table = 'episodes'): Promise<number> {
  const result = await admin.query<{ bytes: string }>(
    `SELECT pg_total_relation_size(format('%I.%I', $1::text, $2::text)) AS bytes`,
    [schema, table],
  );
  return Math.round(Number(result.rows[0]!.bytes) / 2 ** 20);
}

async function main(): Promise<void> {
  const args = parseCommandLine(process.argv.slice(2));
  const admin = new pg.Pool({ connectionString: args.url, max: 2 });
  const log = (line: string) => {
    if (!args.json) console.log(line);
  };
  const cpu = cpus();
  const machine = {
    loadAverageAtStart: loadavg().map((x) => Math.round(x * 10) / 10),
    cpus: cpu.length,
    cpuModel: cpu[0]?.model ?? 'unknown',
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    ...(await serverInfo(admin)),
  };
  log(
    `keyword ranking ${args.keywordRanking}; statements ${args.unprepared ? 'unprepared' : 'prepared'}; machine: ${machine.cpus} × ${machine.cpuModel}, ${machine.memoryGiB} GiB, Node ${machine.node}, PostgreSQL ${machine.postgres}, pgvector ${machine.pgvector} (same machine), shared_buffers ${machine.sharedBuffers}, work_mem ${machine.workMem}`,
  );
  const schemas: string[] = [];
  const fresh = (label: string) => {
    const name = `bench_${process.pid}_${label}`;
    schemas.push(name);
    return name;
  };
  const results: Array<Record<string, unknown>> = [];
  try {
    for (const size of args.sizes) {
      for (const shape of SHAPES.filter((s) => args.shapes.includes(s.tenants))) {
        const label = `${size}_${shape.tenants}`;
        let kept: string | undefined;
        for (const pid of args.reuse) {
          if (!kept && (await schemaExists(admin, `bench_${pid}_full_${label}`)))
            kept = `bench_${pid}_full_${label}`;
        }
        if (args.reuse.length > 0 && !kept)
          throw new Error(`no kept corpus bench_<${args.reuse}>_full_${label}`);
        let load: Record<string, unknown> = { reused: kept };
        const schema = kept ?? fresh(`full_${label}`);
        const store = postgresStore({
          connectionString: args.url,
          schema,
          keywordRanking: args.keywordRanking,
          prepareStatements: !args.unprepared,
        });
        if (!kept) {
          const textOnly = postgresStore({ connectionString: args.url, schema: fresh(`text_${label}`) });
          const insertText = await fill({ store: textOnly, shape, size, dimensions: undefined, seed: 1 });
          await textOnly.close();
          const bulk = size >= args.bulkFrom;
          let rebuild: (() => Promise<number>) | undefined;
          const insertVectors = await fill({
            store,
            shape,
            size,
            dimensions: args.dimensions,
            seed: 1,
            ...(bulk
              ? {
                  afterFirstBatch: async () => {
                    rebuild = await deferIndex(admin, schema, args.dimensions);
                  },
                }
              : {}),
          });
          const indexBuildSeconds = rebuild ? await rebuild() : undefined;
          await addRecallContext(store, shape);
          // What autovacuum does after a load: statistics, and the visibility map index-only scans use.
          await admin.query(
            `VACUUM (ANALYZE) "${schema}".episodes, "${schema}".keyword_postings, "${schema}".episode_vectors`,
          );
          load = {
            insertPerSecondText: insertText,
            insertPerSecondVectors: insertVectors,
            vectorLoad: bulk
              ? 'bulk: HNSW index built after the load'
              : 'HNSW index maintained on every insert',
            ...(indexBuildSeconds === undefined ? {} : { indexBuildSeconds }),
          };
        }
        // Always exact: what the HNSW path's results are compared with.
        const exact = postgresStore({ connectionString: args.url, schema, exactSearchBelow: 10_000_000 });
        const numbers = await searches(store, exact, shape, args, 99, schema);
        await exact.close();
        await store.close();
        const mib = await tableMiB(admin, schema);
        const postingsMiB = await tableMiB(admin, schema, 'keyword_postings');
        const result = {
          episodes: size,
          shape: shape.name,
          ...load,
          dimensions: args.dimensions,
          episodesTableMiB: mib,
          keywordPostingsMiB: postingsMiB,
          ...numbers,
        };
        results.push(result);
        log(
          `${String(size).padStart(7)} episodes, ${shape.name.padEnd(11)} | ${
            kept
              ? `reused ${kept}`
              : `insert ${load.insertPerSecondText} ep/s text, ${load.insertPerSecondVectors} ep/s with ${args.dimensions}-d vectors${
                  load.indexBuildSeconds === undefined
                    ? ''
                    : ` (index built after: ${load.indexBuildSeconds} s)`
                }`
          } | ` +
            `keyword p50 ${numbers.keyword.p50} ms p95 ${numbers.keyword.p95} ms (${numbers.keywordHitsMean} hits) | ` +
            `vector p50 ${numbers.vector.p50} ms p95 ${numbers.vector.p95} ms (recall@20 ${numbers.vectorRecallAt20}) | ` +
            `recall store work p50 ${numbers.recall.p50} ms p95 ${numbers.recall.p95} ms | ` +
            `memory.recall p50 ${numbers.engineRecall.p50} ms p95 ${numbers.engineRecall.p95} ms (CPU a recall: Node ${numbers.recallCpuMs.node} ms${
              numbers.recallCpuMs.machine === undefined ? '' : `, machine ${numbers.recallCpuMs.machine} ms`
            }${numbers.recallStolenPercent === undefined ? '' : `; stolen by the host ${numbers.recallStolenPercent}%`}${
              numbers.recallLoopbackKiB === undefined ? '' : `; loopback ${numbers.recallLoopbackKiB} KiB`
            }) | ` +
            `vector (limit 60) by a new store p50 ${numbers.vectorNewStore.p50} ms p95 ${numbers.vectorNewStore.p95} ms | ${mib} MiB + ${postingsMiB} MiB postings`,
        );
        for (const [name, c] of Object.entries(numbers.storeCalls ?? {}))
          log(`  ${name}: ${c.perRecall} calls per recall, ${c.meanMs} ms each`);
        for (const [stage, t] of Object.entries(numbers.stages ?? {}))
          log(`  stage ${stage}: p50 ${t.p50} ms p95 ${t.p95} ms`);
      }
    }
  } finally {
    if (!args.keep)
      for (const schema of schemas) await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
  }
  const loadAverageAtEnd = loadavg().map((x) => Math.round(x * 10) / 10);
  log(
    `load average (1, 5, 15 min) at start ${machine.loadAverageAtStart.join(', ')}, at end ${loadAverageAtEnd.join(', ')}`,
  );
  if (args.json) {
    console.log(
      JSON.stringify(
        {
          machine: { ...machine, loadAverageAtEnd },
          queries: args.queries,
          keywordRanking: args.keywordRanking,
          preparedStatements: !args.unprepared,
          results,
        },
        null,
        2,
      ),
    );
  }
}

await main();
