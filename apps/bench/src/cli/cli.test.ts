import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { captureIo } from '../../test/capture-io.ts';
import { OFFICIAL_FILE, TINY_DIR } from '../../test/fixtures.ts';
import { STRATEGY_NAMES } from '../locomo/strategies/types.ts';
import { perfRunSchema } from '../perf/run-perf.ts';
import { runCli } from './cli.ts';

const fraction = z.number().min(0).max(1);
const byNumber = z.record(z.string().regex(/^\d+$/), fraction);
const latency = z.object({ p50: z.number().nonnegative(), p95: z.number().nonnegative() });

const locomoReportSchema = z.strictObject({
  benchmark: z.literal('locomo'),
  conversations: z.number().int().positive(),
  questions: z.number().int().nonnegative(),
  store: z.enum(['memory', 'sqlite', 'postgres']),
  embedder: z.enum(['local', 'hash', 'none']),
  strategies: z.partialRecord(
    z.enum(STRATEGY_NAMES),
    z.strictObject({
      recallAtK: byNumber,
      recallAtBudget: byNumber,
      byCategory: z.partialRecord(
        z.enum(['1', '2', '3', '4']),
        z.strictObject({
          questions: z.number().int().positive(),
          recallAtK: byNumber,
          recallAtBudget: byNumber,
        }),
      ),
      meanContextTokens: z.number().nonnegative(),
      recallLatencyMs: latency,
      observePerSec: z.number().positive(),
    }),
  ),
});

const perfReportSchema = z.strictObject({
  benchmark: z.literal('perf'),
  store: z.enum(['memory', 'sqlite', 'postgres']),
  embedder: z.enum(['local', 'hash', 'none']),
  runs: z.array(perfRunSchema.strict()).min(1),
});

describe('bench locomo', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bench-cli-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('prints exactly one JSON object of the documented shape with --json', async () => {
    const io = captureIo();
    const out = join(dir, 'questions.jsonl');
    const code = await runCli(
      ['locomo', '--data', TINY_DIR, '--store', 'memory', '--embedder', 'hash', '--json', '--out', out],
      io,
    );
    expect(io.err()).toContain('1 non-adversarial questions have no evidence ids');
    expect(code).toBe(0);
    const lines = io.out().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe('');
    const report = locomoReportSchema.parse(JSON.parse(lines[0]!));

    // 7 questions: one adversarial, one without evidence; 5 scored.
    expect(report).toMatchObject({ conversations: 1, questions: 5, store: 'memory', embedder: 'hash' });
    expect(Object.keys(report.strategies)).toEqual([...STRATEGY_NAMES]);
    const strata = report.strategies.strata!;
    expect(Object.keys(strata.recallAtK)).toEqual(['1', '5', '10', '20']);
    expect(Object.keys(strata.recallAtBudget)).toEqual(['500', '1000', '2000']);
    expect(Object.keys(strata.byCategory).sort()).toEqual(['1', '2', '3', '4']);
    expect(strata.byCategory['4']!.questions).toBe(2);

    // The whole tiny conversation fits in 500 tokens: the latest-turns window holds every turn,
    // so each question scores its resolvable share (Lisbon's second id is malformed: 1/2).
    const recent = report.strategies.recent!;
    expect(recent.recallAtBudget['500']).toBeCloseTo(4.5 / 5);
    expect(recent.recallAtK['20']).toBeCloseTo(4.5 / 5);
    expect(recent.recallAtK['1']).toBeCloseTo(0.5 / 5);

    const full = report.strategies['full-context']!;
    expect(full.recallAtK).toEqual({});
    // Every turn, as "Speaker: text" lines: what the latest-turns window holds when all fit.
    expect(full.meanContextTokens).toBe(recent.meanContextTokens);

    const records = (await readFile(out, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(records).toHaveLength(5);
    expect(records[3]).toMatchObject({
      conversation: 'conv-1',
      question: 'Where is Ben moving to?',
      category: 4,
      evidence: ['D2:4'],
      unresolvedEvidence: ['D:9:9'],
    });
    expect(Object.keys(records[3].strategies)).toEqual([...STRATEGY_NAMES]);
    expect(records[3].strategies.recent.ranked[0]).toEqual(['D2:4']);
    expect(records[3].strategies.recent.recallAtK).toEqual({ 1: 0.5, 5: 0.5, 10: 0.5, 20: 0.5 });
  });

  it('prints a readable table without --json', async () => {
    const io = captureIo();
    const code = await runCli(
      [
        'locomo',
        '--data',
        TINY_DIR,
        '--store',
        'memory',
        '--embedder',
        'none',
        '--k',
        '1,3',
        '--budget',
        '100',
      ],
      io,
    );
    expect(code).toBe(0);
    const text = io.out();
    expect(text).toContain('1 conversations, 5 questions, store memory, embedder none');
    expect(text).toMatch(/\| strategy +\| +R@1 \| +R@3 \| +≤100 tok \|/);
    expect(text).toMatch(/\| strata +\|/);
    expect(text).toMatch(/\| full-context +\| +— +\|/);
    expect(text).toContain('vector not run: no embedder (--embedder none).');
    expect(text).not.toMatch(/\| vector/);
  });

  it.each([
    [['locomo'], /required option '--data <path>'/],
    [['locomo', '--data', TINY_DIR, '--k', '0,5'], /--k <list>.*integers in 1\.\.200/],
    [['locomo', '--data', TINY_DIR, '--budget', '100,abc'], /"abc"/],
    [['locomo', '--data', TINY_DIR, '--store', 'redis'], /Allowed choices are memory, sqlite, postgres/],
    [['locomo', '--data', TINY_DIR, '--strategies', 'strata,magic'], /unknown magic/],
    [['nonsense'], /unknown command 'nonsense'/],
  ])('rejects %j as a usage error (exit 2)', async (argv, message) => {
    const io = captureIo();
    expect(await runCli(argv, io)).toBe(2);
    expect(io.err()).toMatch(message);
    expect(io.out()).toBe('');
  });

  it('resolves a relative --data against the directory the command was typed in', async () => {
    const io = { ...captureIo(), cwd: dirname(TINY_DIR) };
    const code = await runCli(
      ['locomo', '--data', basename(TINY_DIR), '--store', 'memory', '--embedder', 'none', '--json'],
      io,
    );
    expect(code).toBe(0);
    expect(JSON.parse(io.out())).toMatchObject({ conversations: 1, questions: 5 });
  });

  it("runs the LoCoMo repository's locomo10.json with --conversations, and rejects a conversation it does not hold", async () => {
    const io = captureIo();
    const argv = ['locomo', '--data', OFFICIAL_FILE, '--store', 'memory', '--embedder', 'none', '--json'];
    expect(await runCli([...argv, '--conversations', 'conv-7'], io)).toBe(0);
    // Two scored questions: the third is adversarial (category 5).
    expect(JSON.parse(io.out())).toMatchObject({ conversations: 1, questions: 2 });
    const missing = captureIo();
    expect(await runCli([...argv, '--conversations', 'conv-7,conv-26'], missing)).toBe(1);
    expect(missing.err()).toMatch(/^error \(invalid_input\): No conversation conv-26/);
    const folder = captureIo();
    const folderArgv = ['locomo', '--data', TINY_DIR, '--store', 'memory', '--embedder', 'none', '--json'];
    expect(await runCli([...folderArgv, '--conversations', 'conv-1'], folder)).toBe(0);
    expect(JSON.parse(folder.out())).toMatchObject({ conversations: 1, questions: 5 });
  });

  it('switches recall stages off with --ablate, sets tuning fields with --set, and rejects what it does not know', async () => {
    const argv = ['locomo', '--data', TINY_DIR, '--store', 'memory', '--embedder', 'hash', '--json'];
    const run = async (extra: string[]) => {
      const io = captureIo();
      expect(await runCli([...argv, '--strategies', 'strata', '--k', '5', ...extra], io)).toBe(0);
      return locomoReportSchema.parse(JSON.parse(io.out())).strategies.strata!.recallAtK['5']!;
    };
    const full = await run([]);
    expect(full).toBeGreaterThan(0);
    // Without its two searches no episode ranks: only the facts read from the turns (the puppy's name).
    const searchesOff = await run(['--ablate', 'keyword,vector']);
    expect(searchesOff).toBeLessThan(full);
    const bad = captureIo();
    expect(await runCli([...argv, '--ablate', 'keyword,telepathy'], bad)).toBe(2);
    expect(bad.err()).toContain('unknown telepathy');

    // --set changes one knob: no keyword or vector search ranks what --ablate left, as above.
    expect(await run(['--set', 'keyword=false,vector=false'])).toBe(searchesOff);
    expect(await run(['--set', 'candidatePool=60'])).toBeGreaterThan(0);
    for (const [setting, message] of [
      ['telepathy=1', 'unknown setting "telepathy=1"'],
      ['candidatePool=many', 'candidatePool takes a number like 120, got "many"'],
      ['mmr=yes', 'mmr takes a boolean like true, got "yes"'],
    ] as const) {
      const refused = captureIo();
      expect(await runCli([...argv, '--set', setting], refused)).toBe(2);
      expect(refused.err()).toContain(message);
    }
  });

  it('fails with exit 1 and the error code for a data directory it cannot read', async () => {
    const io = captureIo();
    expect(await runCli(['locomo', '--data', join(dir, 'missing'), '--store', 'memory'], io)).toBe(1);
    expect(io.err()).toMatch(/^error \(invalid_input\): Cannot read --data/);
    expect(io.out()).toBe('');
  });
});

describe('bench perf', () => {
  it('prints one JSON object with a run per corpus size', async () => {
    const io = captureIo();
    const code = await runCli(
      [
        'perf',
        '--store',
        'memory',
        '--items',
        '60,120',
        '--users',
        '6',
        '--queries',
        '5',
        '--no-isolate',
        '--json',
      ],
      io,
    );
    expect(io.err()).toBe('');
    expect(code).toBe(0);
    const report = perfReportSchema.parse(JSON.parse(io.out()));
    expect(report.runs.map((run) => run.items)).toEqual([60, 120]);
    expect(report).toMatchObject({ store: 'memory', embedder: 'hash' });
    for (const run of report.runs) {
      expect(run.recallLatencyMs.p95).toBeGreaterThan(0);
      expect(run.warmRecallLatencyMs.p95).toBeGreaterThan(0);
      expect(run.warmRecallCpuMs.p95).toBeGreaterThan(0);
      expect(run.recallExcludingEmbeddingMs.p95).toBeGreaterThan(0);
      expect(run.recallExcludingEmbeddingCpuMs.p95).toBeGreaterThan(0);
    }
  });

  it('times each recall stage with --stages, in the JSON and in the table', async () => {
    const args = [
      'perf',
      '--store',
      'memory',
      '--items',
      '60',
      '--users',
      '6',
      '--queries',
      '5',
      '--no-isolate',
    ];
    const json = captureIo();
    expect(await runCli([...args, '--stages', '--json'], json)).toBe(0);
    const run = perfReportSchema.parse(JSON.parse(json.out())).runs[0]!;
    for (const stage of ['facts', 'episodes', 'keyword', 'rank']) {
      expect(run.recallStagesMs?.[stage]?.p95).toBeGreaterThan(0);
    }
    const table = captureIo();
    expect(await runCli([...args, '--stages'], table)).toBe(0);
    expect(table.out()).toContain('Recall stages, run one after another');
    expect(table.out()).toContain('| warm recall p50 / p95 ms |');
    expect(table.out()).toContain('| recall excl. embedding p50 / p95 ms |');
    const plain = captureIo();
    expect(await runCli([...args, '--json'], plain)).toBe(0);
    expect(perfReportSchema.parse(JSON.parse(plain.out())).runs[0]!.recallStagesMs).toBeUndefined();
  });

  it('keeps the loaded SQLite store with --db and measures it again without loading it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'strata-bench-db-'));
    try {
      const args = ['perf', '--items', '60', '--users', '3', '--queries', '3', '--no-isolate', '--json'];
      const file = join(dir, 'perf.db');
      const first = captureIo();
      expect(await runCli([...args, '--db', file], first)).toBe(0);
      const loaded = perfReportSchema.parse(JSON.parse(first.out())).runs[0]!;
      expect(loaded.observePerSec).toBeGreaterThan(0);
      expect(loaded.observeNoEmbedPerSec).toBeGreaterThan(0);

      const again = captureIo();
      expect(await runCli([...args, '--db', file], again)).toBe(0);
      const reused = perfReportSchema.parse(JSON.parse(again.out())).runs[0]!;
      expect(reused.observePerSec).toBeNull();
      expect(reused.observeNoEmbedPerSec).toBeNull();
      expect(reused.recallExcludingEmbeddingMs.p95).toBeGreaterThan(0);
      expect(reused.bytesPerItem).toBeGreaterThan(0);

      // A load stopped part way (here: a smaller size) goes on from the first message it lacks.
      const more = captureIo();
      expect(await runCli([...args, '--items', '90', '--db', file], more)).toBe(0);
      expect(perfReportSchema.parse(JSON.parse(more.out())).runs[0]!.items).toBe(90);
      const { DatabaseSync } = await import('node:sqlite');
      const db = new DatabaseSync(file, { readOnly: true });
      expect(db.prepare('SELECT count(*) AS n FROM messages').get()).toEqual({ n: 90 });
      db.close();

      const postgres = captureIo();
      expect(await runCli([...args, '--store', 'postgres', '--db', file], postgres)).not.toBe(0);
      expect(postgres.err()).toContain('--db needs --store sqlite and a single --items size');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('bench extract', () => {
  const metricsSchema = z.strictObject({
    items: z.number().int().nonnegative(),
    tp: z.number().int().nonnegative(),
    fp: z.number().int().nonnegative(),
    fn: z.number().int().nonnegative(),
    precision: fraction.nullable(),
    recall: fraction.nullable(),
    f1: fraction.nullable(),
  });

  it('prints one JSON object with per-kind and overall figures for the chosen half', async () => {
    const io = captureIo();
    expect(await runCli(['extract', '--half', 'b', '--json'], io)).toBe(0);
    const report = JSON.parse(io.out());
    expect(report).toMatchObject({ benchmark: 'extract', extractor: expect.stringMatching(/^rules/) });
    expect(report.halves.map((h: { half: string }) => h.half)).toEqual(['b']);
    const half = report.halves[0];
    metricsSchema.parse(half.overall);
    for (const kind of Object.values(half.byKind)) metricsSchema.parse(kind);
    expect(half.overall.items).toBe(report.items.length);
  });

  it('rejects an unknown extractor as a usage error', async () => {
    const io = captureIo();
    expect(await runCli(['extract', '--extractor', 'regex'], io)).toBe(2);
    expect(io.err()).toContain('regex');
  });
});
