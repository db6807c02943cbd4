import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import {
  createMemory,
  defaultPolicy,
  defaultTokenizer,
  type Embedder,
  extractiveSummarizer,
  type Memory,
  type Scope,
  type Store,
  StrataError,
  type Tokenizer,
} from '@strata-memory/core';
import { createRecall } from '@strata-memory/core/internals';
import { z } from 'zod/v4';
import type { Progress } from '../cli/progress.ts';
import { type BenchClock, benchClock } from '../setup/bench-clock.ts';
import { createEmbedder, type EmbedderKind } from '../setup/embedders.ts';
import { openBenchStore, openKeptSqliteStore, type StoreKind } from '../setup/stores.ts';
import { latencySummary } from '../stats/percentile.ts';
import { type CorpusShape, corpus, corpusQuestion, corpusVocabulary, userScope } from './corpus.ts';
import { seededRandom } from './random.ts';

/** Items observed without an embedder, in a fresh store, for the no-embedding throughput. */
export const NO_EMBED_SAMPLE = 5_000;
/** Token budget of each timed recall. */
export const RECALL_BUDGET_TOKENS = 1_000;
const FACTS_PER_USER = 10;
const GRAPH_NODES_PER_USER = 12;
const TRAVERSE_HOPS = 3;
const THREAD_LENGTH = 20;

export interface PerfOptions {
  store: StoreKind;
  embedder: EmbedderKind;
  /** Corpus sizes, ascending. */
  items: number[];
  users: number;
  queries: number;
  seed: number;
  /** Run each size in its own process (clean peak RSS). */
  isolate: boolean;
  /** Also time each recall stage, the stages run one after another (core's `onStages`). */
  stages: boolean;
  /**
   * SQLite only, one size: keep the loaded store in this file. When the file exists, its data
   * (loaded by an earlier run with the same size, users and seed) is measured without observing
   * it again, and observe throughput is not measured; a load that was stopped part way goes on
   * from the first message the file does not hold.
   */
  db?: string;
}

const latencyShape = z.object({ p50: z.number(), p95: z.number() });

export const perfRunSchema = z.object({
  items: z.number().int(),
  /** Null when the store was loaded by an earlier run (`--db`). */
  observePerSec: z.number().nullable(),
  observeNoEmbedPerSec: z.number().nullable(),
  /** The process's first round of recalls: connections, statements and caches still warming up. */
  recallLatencyMs: latencyShape,
  /** A second round of as many new questions, in the same process after the first: steady state. */
  warmRecallLatencyMs: latencyShape,
  /** CPU time (user + system) of the process during each recall of the first round. */
  recallCpuMs: latencyShape,
  /** CPU time of the process during each recall of the second round. */
  warmRecallCpuMs: latencyShape,
  /**
   * A third round of new questions, each query embedded just before its recall starts: the
   * engine and the store without the embedding (wall time, then the process's CPU time).
   */
  recallExcludingEmbeddingMs: latencyShape,
  recallExcludingEmbeddingCpuMs: latencyShape,
  /** With `--stages`: each recall stage's wall time, the stages run one after another. */
  recallStagesMs: z.record(z.string(), latencyShape).optional(),
  factGetPerSec: z.number(),
  traverseLatencyMs: latencyShape,
  bytesPerItem: z.number().nullable(),
  peakRssMb: z.number(),
});
export type PerfRun = z.infer<typeof perfRunSchema>;

export interface PerfReport {
  benchmark: 'perf';
  store: StoreKind;
  embedder: EmbedderKind;
  runs: PerfRun[];
}

function peakRssMb(): number {
  return process.resourceUsage().maxRSS / 1024;
}

function heapUsed(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed;
}

/** CPU time (user + system) of the process since `start`, in ms. */
function cpuMsSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

/**
 * The embedder, except that a query embedded beforehand with `prime` is answered from memory:
 * what a recall measures once its query embedding is out of the timed call.
 */
function primedEmbedder(embedder: Embedder): { embedder: Embedder; prime(query: string): Promise<void> } {
  const primed = new Map<string, number[]>();
  return {
    embedder: {
      specificationVersion: embedder.specificationVersion,
      id: embedder.id,
      dimensions: embedder.dimensions,
      maxBatchSize: embedder.maxBatchSize,
      embed: async (args) => {
        const [text] = args.texts;
        const vector = args.purpose === 'query' && args.texts.length === 1 ? primed.get(text!) : undefined;
        return vector ? [vector] : embedder.embed(args);
      },
    },
    async prime(query) {
      const [vector] = await embedder.embed({ texts: [query], purpose: 'query' });
      primed.clear();
      if (vector) primed.set(query, vector);
    },
  };
}

/** When the corpus's last message was said. */
function lastMessageAt(shape: CorpusShape): number {
  let at = 0;
  for (const message of corpus(shape)) at = message.at;
  return at;
}

/** Observes every message of the corpus (past the first `skip`), one call each, at its own time. */
async function observeAll(args: {
  memory: Memory;
  clock: BenchClock;
  shape: CorpusShape;
  progress: Progress;
  label: string;
  skip?: number;
}): Promise<{ elapsedMs: number; lastAt: number }> {
  const skip = args.skip ?? 0;
  args.progress.start(args.shape.items - skip, args.label);
  let elapsedMs = 0;
  let lastAt = 0;
  let index = 0;
  try {
    for (const message of corpus(args.shape)) {
      if (index++ < skip) continue;
      args.clock.set(message.at);
      const start = performance.now();
      await args.memory.observe(message.scope, {
        role: 'user',
        name: message.speaker,
        content: message.content,
        at: message.at,
      });
      elapsedMs += performance.now() - start;
      lastAt = message.at;
      args.progress.advance();
    }
  } finally {
    args.progress.stop();
  }
  return { elapsedMs, lastAt };
}

/** Observe throughput without an embedder, on the first items of the same corpus in a fresh store. */
async function observeWithoutEmbedding(args: {
  store: StoreKind;
  shape: CorpusShape;
  progress: Progress;
  label: string;
}): Promise<number> {
  const bench = await openBenchStore(args.store);
  const clock = benchClock();
  const memory = createMemory({ store: bench.store, clock, tokenizer: defaultTokenizer() });
  try {
    const { elapsedMs } = await observeAll({ ...args, memory, clock });
    return args.shape.items / (elapsedMs / 1000);
  } finally {
    await memory.close();
    await bench.close();
  }
}

/**
 * The same questions again through a recall over the same store that runs its stages (working
 * memory, facts, episodes, graph) one after another and reports each one's wall time (core's
 * `onStages`), so each stage's time is its own. Stages inside episodic retrieval (keyword and
 * vector search) still overlap.
 */
async function timeRecallStages(args: {
  store: Store;
  embedder: Embedder | undefined;
  clock: BenchClock;
  tokenizer: Tokenizer;
  questions: Array<{ scope: Scope; query: string }>;
}): Promise<Record<string, { p50: number; p95: number }>> {
  const times: Record<string, number[]> = {};
  const recall = createRecall({
    store: args.store,
    ...(args.embedder ? { embedder: args.embedder } : {}),
    tokenizer: args.tokenizer,
    summarizer: extractiveSummarizer({ tokenizer: args.tokenizer }),
    clock: args.clock,
    policy: defaultPolicy,
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
  for (const { scope, query } of args.questions) {
    await recall(scope, { query, budget: { tokens: RECALL_BUDGET_TOKENS } });
  }
  return Object.fromEntries(Object.entries(times).map(([stage, ms]) => [stage, latencySummary(ms)]));
}

/** One corpus size, in this process. */
export async function runPerfSize(options: PerfOptions, items: number, progress: Progress): Promise<PerfRun> {
  const baseEmbedder = await createEmbedder(options.embedder);
  const priming = baseEmbedder ? primedEmbedder(baseEmbedder) : undefined;
  const embedder = priming?.embedder;
  const tokenizer = defaultTokenizer();
  const random = seededRandom(options.seed + 1);
  const users = Math.min(options.users, items);
  const shape: CorpusShape = { items, users, threadLength: THREAD_LENGTH, seed: options.seed };

  const kept = options.db ? await openKeptSqliteStore(options.db) : undefined;
  const bench = kept ?? (await openBenchStore(options.store));
  const held = kept?.observed ?? 0;
  const reused = held > 0;
  const clock = benchClock();
  const heapBefore = heapUsed();
  const memory = createMemory({ store: bench.store, clock, tokenizer, ...(embedder ? { embedder } : {}) });
  let run: Omit<PerfRun, 'observeNoEmbedPerSec' | 'peakRssMb'>;
  try {
    const observed =
      held >= items
        ? { elapsedMs: 0, lastAt: lastMessageAt(shape) }
        : await observeAll({
            memory,
            clock,
            shape,
            progress,
            label: `${items} items: observing`,
            skip: held,
          });
    const disk = await bench.diskBytes();
    const bytes = disk ?? heapUsed() - heapBefore;
    clock.set(observed.lastAt + 60_000);

    // Facts and a dependency graph per user, then timed lookups and walks.
    const { VENDORS, PRODUCTS } = corpusVocabulary;
    const factKeys = Array.from({ length: FACTS_PER_USER }, (_, i) => ({
      entity: VENDORS[i % VENDORS.length]!,
      key: i < VENDORS.length ? 'lead time' : 'contract tier',
    }));
    const roots: string[] = [];
    progress.start(users, `${items} items: facts and graph`);
    for (let user = 0; user < users; user++) {
      const scope = userScope(user);
      for (const [i, key] of factKeys.entries()) {
        await memory.facts.remember(scope, {
          ...key,
          value: `${10 + ((user + i) % 50)} days`,
          confidence: 1,
        });
      }
      const nodes = [];
      for (let i = 0; i < GRAPH_NODES_PER_USER; i++) {
        nodes.push(
          await memory.graph.upsertNode(scope, {
            type: 'component',
            name: `${PRODUCTS[i % PRODUCTS.length]} ${i}`,
          }),
        );
      }
      // A chain with side branches: node i depends on i+1 and on i+3.
      for (let i = 0; i + 1 < nodes.length; i++) {
        await memory.graph.relate(scope, {
          from: { id: nodes[i]!.id },
          relation: 'depends_on',
          to: { id: nodes[i + 1]!.id },
        });
        if (i + 3 < nodes.length) {
          await memory.graph.relate(scope, {
            from: { id: nodes[i]!.id },
            relation: 'depends_on',
            to: { id: nodes[i + 3]!.id },
          });
        }
      }
      roots.push(nodes[0]!.id);
      progress.advance();
    }
    progress.stop();

    const lookups = Math.max(options.queries * 10, 1000);
    const factStart = performance.now();
    for (let i = 0; i < lookups; i++) {
      const user = random.int(users);
      await memory.facts.get(userScope(user), random.pick(factKeys));
    }
    const factGetPerSec = lookups / ((performance.now() - factStart) / 1000);

    const traverseMs: number[] = [];
    progress.start(options.queries, `${items} items: traversals`);
    for (let i = 0; i < options.queries; i++) {
      const user = random.int(users);
      const start = performance.now();
      await memory.graph.traverse(userScope(user), {
        from: { id: roots[user]! },
        direction: 'out',
        maxHops: TRAVERSE_HOPS,
      });
      traverseMs.push(performance.now() - start);
      progress.advance();
    }
    progress.stop();

    // Two rounds of new questions: the process's first (its connections, prepared statements and
    // caches warming up as they would after a deploy), then the steady state.
    const questions = Array.from({ length: options.queries }, () => corpusQuestion(random, users));
    const warmQuestions = Array.from({ length: options.queries }, () => corpusQuestion(random, users));
    const unembeddedQuestions = Array.from({ length: options.queries }, () => corpusQuestion(random, users));
    const timeRecalls = async (
      round: typeof questions,
      prime?: (query: string) => Promise<void>,
    ): Promise<{ wallMs: number[]; cpuMs: number[] }> => {
      const wallMs: number[] = [];
      const cpuMs: number[] = [];
      for (const { scope, query } of round) {
        await prime?.(query);
        const cpuStart = process.cpuUsage();
        const start = performance.now();
        await memory.recall(scope, { query, budget: { tokens: RECALL_BUDGET_TOKENS } });
        wallMs.push(performance.now() - start);
        cpuMs.push(cpuMsSince(cpuStart));
        progress.advance();
      }
      return { wallMs, cpuMs };
    };
    progress.start(options.queries * 3, `${items} items: recalls, three rounds`);
    const first = await timeRecalls(questions);
    const warm = await timeRecalls(warmQuestions);
    const unembedded = await timeRecalls(unembeddedQuestions, priming?.prime);
    progress.stop();
    const stages = options.stages
      ? await timeRecallStages({ store: bench.store, embedder, clock, tokenizer, questions })
      : undefined;
    run = {
      items,
      observePerSec: reused ? null : items / (observed.elapsedMs / 1000),
      recallLatencyMs: latencySummary(first.wallMs),
      warmRecallLatencyMs: latencySummary(warm.wallMs),
      recallCpuMs: latencySummary(first.cpuMs),
      warmRecallCpuMs: latencySummary(warm.cpuMs),
      recallExcludingEmbeddingMs: latencySummary(unembedded.wallMs),
      recallExcludingEmbeddingCpuMs: latencySummary(unembedded.cpuMs),
      ...(stages ? { recallStagesMs: stages } : {}),
      factGetPerSec,
      traverseLatencyMs: latencySummary(traverseMs),
      bytesPerItem: bytes > 0 ? bytes / items : null,
    };
  } finally {
    await memory.close();
    await bench.close();
  }

  if (reused) return { ...run, observeNoEmbedPerSec: null, peakRssMb: peakRssMb() };
  const sample = Math.min(items, NO_EMBED_SAMPLE);
  const observeNoEmbedPerSec = await observeWithoutEmbedding({
    store: options.store,
    shape: { ...shape, items: sample },
    progress,
    label: `${items} items: observing ${sample} without embedding`,
  });
  return { ...run, observeNoEmbedPerSec, peakRssMb: peakRssMb() };
}

/** One corpus size in a child process, so its peak RSS is its own. */
async function runPerfSizeIsolated(options: PerfOptions, items: number): Promise<PerfRun> {
  const main = fileURLToPath(new URL('../main.ts', import.meta.url));
  const args = [
    ...process.execArgv,
    '--expose-gc',
    main,
    'perf',
    '--store',
    options.store,
    '--embedder',
    options.embedder,
    '--items',
    String(items),
    '--users',
    String(options.users),
    '--queries',
    String(options.queries),
    '--seed',
    String(options.seed),
    '--no-isolate',
    '--json',
    ...(options.stages ? ['--stages'] : []),
    ...(options.db ? ['--db', options.db] : []),
  ];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject).on('close', resolve);
  });
  if (code !== 0) {
    throw new StrataError({
      code: 'internal',
      message: `perf run for ${items} items exited with code ${code}`,
    });
  }
  let document: unknown;
  try {
    document = JSON.parse(stdout);
  } catch {
    document = undefined;
  }
  const parsed = z.object({ runs: z.array(perfRunSchema).length(1) }).safeParse(document);
  if (!parsed.success) {
    throw new StrataError({
      code: 'internal',
      message: `perf run for ${items} items printed an unexpected report`,
    });
  }
  return parsed.data.runs[0]!;
}

/**
 * The performance benchmark: for each corpus size, a fresh store loaded with a synthetic
 * multi-tenant corpus, then observe throughput, recall latency, fact lookups, graph walks,
 * storage per item and peak memory.
 */
export async function runPerf(
  options: PerfOptions,
  hooks: { progress: Progress; onRun?: (run: PerfRun) => void },
): Promise<PerfReport> {
  const runs: PerfRun[] = [];
  for (const items of options.items) {
    runs.push(
      options.isolate
        ? await runPerfSizeIsolated(options, items)
        : await runPerfSize(options, items, hooks.progress),
    );
    hooks.onRun?.(runs.at(-1)!);
  }
  return { benchmark: 'perf', store: options.store, embedder: options.embedder, runs };
}
