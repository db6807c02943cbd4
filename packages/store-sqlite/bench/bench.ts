/**
 * Store benchmark: write throughput and search latency of the SQLite store at 10k and 100k
 * episodes, for a multi-tenant corpus and for one tenant holding everything.
 *
 *   node --conditions=@strata-memory/source bench/bench.ts [--json] [--sizes=10000,100000]
 *        [--queries=200] [--dimensions=384] [--exact-limit=N] [--oversampling=N] [--chunk-size=N] [--keep]
 *
 * Prints a table (or, with --json, one JSON document) of:
 * - insert throughput, episodes/s, in batches of 500: text only, and with unit vectors;
 * - p50/p95 ms of searchKeyword, searchVector (limit 20), and of the store work one recall does
 *   (one keyword search, one vector search, a facts query and the recent messages), embedding
 *   time excluded: wall-clock, and CPU time of this process (which a busy shared machine inflates
 *   far less: on an idle machine the two are close);
 * - the vector search's recall@20 against an exact search of the same file (below 1 only when a
 *   tenant is past `exactVectorLimit` and searched coarse-then-exact).
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { Store } from '@strata-memory/core/store';
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
import { getLoadablePath } from 'sqlite-vec';
import { sqliteStore } from '../src/index.ts';

interface Args {
  json: boolean;
  sizes: number[];
  queries: number;
  dimensions: number;
  keep: boolean;
  /** Store options under test (`--exact-limit=`, `--oversampling=`, `--chunk-size=`); defaults when absent. */
  store: { exactVectorLimit?: number; vectorOversampling?: number; vectorChunkSize?: number };
}

function parseCommandLine(argv: string[]): Args {
  const value = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
  return {
    json: argv.includes('--json'),
    sizes: (value('sizes') ?? '10000,100000').split(',').map(Number),
    queries: Number(value('queries') ?? 200),
    dimensions: Number(value('dimensions') ?? 384),
    keep: argv.includes('--keep'),
    store: {
      ...(value('exact-limit') ? { exactVectorLimit: Number(value('exact-limit')) } : {}),
      ...(value('oversampling') ? { vectorOversampling: Number(value('oversampling')) } : {}),
      ...(value('chunk-size') ? { vectorChunkSize: Number(value('chunk-size')) } : {}),
    },
  };
}

interface Timing {
  /** Wall-clock ms. */
  wall: number;
  /** CPU ms this process spent (user + system): what the call costs on an otherwise idle machine. */
  cpu: number;
}

async function measured<T>(fn: () => Promise<T>): Promise<Timing> {
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  await fn();
  const wall = performance.now() - start;
  const cpu = process.cpuUsage(cpuStart);
  return { wall, cpu: (cpu.user + cpu.system) / 1000 };
}

async function timed<T>(fn: () => Promise<T>): Promise<number> {
  return (await measured(fn)).wall;
}

const BATCH = 500;

async function fill(args: {
  store: Store;
  shape: Shape;
  size: number;
  dimensions: number | undefined;
  seed: number;
}): Promise<number> {
  const random = prng(args.seed);
  const { draw } = vocabulary(prng(7));
  const embed = args.dimensions ? embeddingSpace(args.dimensions) : undefined;
  const t0 = Date.UTC(2024, 0, 1);
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
  }
  return Math.round(args.size / (elapsed / 1000));
}

interface SearchNumbers {
  /** Wall-clock ms per call. */
  keyword: ReturnType<typeof summarize>;
  vector: ReturnType<typeof summarize>;
  recall: ReturnType<typeof summarize>;
  /** CPU ms per call: close to the wall-clock time on an idle machine, and stable on a busy one. */
  keywordCpu: ReturnType<typeof summarize>;
  vectorCpu: ReturnType<typeof summarize>;
  recallCpu: ReturnType<typeof summarize>;
  keywordHitsMean: number;
  /** Share of the exact top 20 the timed vector search returned (1 when every search was exact). */
  vectorRecallAt20: number;
}

async function searches(
  store: Store,
  exact: Store,
  shape: Shape,
  args: Args,
  seed: number,
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
  const keyword: Timing[] = [];
  const vector: Timing[] = [];
  const recall: Timing[] = [];
  let hits = 0;
  let overlap = 0;
  let expected = 0;
  for (const query of queries) {
    const warm = query.q < 20;
    const k = await measured(async () => {
      const found = await store.episodes.searchKeyword({ scope: query.scope, query: query.text, limit: 20 });
      if (!warm) hits += found.length;
    });
    let vectorHits: string[] = [];
    const v = await measured(async () => {
      const found = await store.episodes.searchVector({
        scope: query.scope,
        vector: query.vector,
        limit: 20,
      });
      vectorHits = found.map((hit) => hit.episode.id);
    });
    if (!warm) {
      const truth = await exact.episodes.searchVector({
        scope: query.scope,
        vector: query.vector,
        limit: 20,
      });
      const ids = new Set(vectorHits);
      overlap += truth.filter((hit) => ids.has(hit.episode.id)).length;
      expected += truth.length;
    }
    const r = await measured(() =>
      Promise.all([
        store.episodes.searchKeyword({ scope: query.scope, query: query.text, limit: 20 }),
        store.episodes.searchVector({ scope: query.scope, vector: query.vector, limit: 20 }),
        store.facts.find({ scope: query.scope, limit: 50 }),
        store.threads.listMessages({ scope: query.scope, order: 'desc', limit: 20 }),
      ]),
    );
    if (warm) continue;
    keyword.push(k);
    vector.push(v);
    recall.push(r);
  }
  return {
    keyword: summarize(keyword.map((t) => t.wall)),
    vector: summarize(vector.map((t) => t.wall)),
    recall: summarize(recall.map((t) => t.wall)),
    keywordCpu: summarize(keyword.map((t) => t.cpu)),
    vectorCpu: summarize(vector.map((t) => t.cpu)),
    recallCpu: summarize(recall.map((t) => t.cpu)),
    keywordHitsMean: Math.round((hits / args.queries) * 10) / 10,
    vectorRecallAt20: expected === 0 ? 1 : Math.round((overlap / expected) * 1000) / 1000,
  };
}

function versions(): { sqlite: string; sqliteVec: string } {
  const db = new DatabaseSync(':memory:', { allowExtension: true });
  db.loadExtension(getLoadablePath());
  const row = db.prepare('SELECT sqlite_version() AS sqlite, vec_version() AS vec').get() as {
    sqlite: string;
    vec: string;
  };
  db.close();
  return { sqlite: row.sqlite, sqliteVec: row.vec };
}

async function main(): Promise<void> {
  const args = parseCommandLine(process.argv.slice(2));
  const folder = mkdtempSync(join(tmpdir(), 'strata-sqlite-bench-'));
  const log = (line: string) => {
    if (!args.json) console.log(line);
  };
  const cpu = cpus();
  const machine = {
    cpus: cpu.length,
    cpuModel: cpu[0]?.model ?? 'unknown',
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    ...versions(),
  };
  const load = loadavg().map((x) => Math.round(x * 100) / 100);
  log(`load average at start: ${load.join(', ')}; store options: ${JSON.stringify(args.store)}`);
  log(
    `machine: ${machine.cpus} × ${machine.cpuModel}, ${machine.memoryGiB} GiB, Node ${machine.node}, SQLite ${machine.sqlite}, sqlite-vec ${machine.sqliteVec}`,
  );
  const results: Array<Record<string, unknown>> = [];
  try {
    for (const size of args.sizes) {
      for (const shape of SHAPES) {
        const textOnly = sqliteStore({ path: join(folder, `text-${size}-${shape.tenants}.db`) });
        const insertText = await fill({ store: textOnly, shape, size, dimensions: undefined, seed: 1 });
        await textOnly.close();

        const path = join(folder, `full-${size}-${shape.tenants}.db`);
        const store = sqliteStore({ path, ...args.store });
        const insertVectors = await fill({ store, shape, size, dimensions: args.dimensions, seed: 1 });
        await addRecallContext(store, shape);
        // A second connection that always searches exactly, to measure the vector search's recall.
        const exact = sqliteStore({ path, exactVectorLimit: Number.MAX_SAFE_INTEGER });
        const numbers = await searches(store, exact, shape, args, 99);
        await exact.close();
        await store.close();
        const fileMiB = Math.round(statSync(path).size / 2 ** 20);
        const result = {
          episodes: size,
          shape: shape.name,
          insertPerSecondText: insertText,
          insertPerSecondVectors: insertVectors,
          dimensions: args.dimensions,
          fileMiB,
          ...numbers,
        };
        results.push(result);
        log(
          `${String(size).padStart(7)} episodes, ${shape.name.padEnd(11)} | insert ${insertText} ep/s text, ${insertVectors} ep/s with ${args.dimensions}-d vectors | ` +
            `keyword p50/p95 ${numbers.keyword.p50}/${numbers.keyword.p95} ms, cpu ${numbers.keywordCpu.p50}/${numbers.keywordCpu.p95} ms (${numbers.keywordHitsMean} hits) | ` +
            `vector ${numbers.vector.p50}/${numbers.vector.p95} ms, cpu ${numbers.vectorCpu.p50}/${numbers.vectorCpu.p95} ms (recall@20 ${numbers.vectorRecallAt20}) | ` +
            `recall store work ${numbers.recall.p50}/${numbers.recall.p95} ms, cpu ${numbers.recallCpu.p50}/${numbers.recallCpu.p95} ms | ${fileMiB} MiB`,
        );
      }
    }
  } finally {
    if (!args.keep) rmSync(folder, { recursive: true, force: true });
  }
  if (args.json) {
    console.log(
      JSON.stringify(
        { machine, loadAverageAtStart: load, storeOptions: args.store, queries: args.queries, results },
        null,
        2,
      ),
    );
  }
}

await main();
