import { describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { runCli } from '../src/cli/cli.ts';
import { isStrata, PEER_NAMES, type PeerName, SERVER_PEERS } from '../src/peers/peer-memory.ts';
import { peerOutcomeSchema } from '../src/peers/peer-run.ts';
import { PG_URL_VARIABLE } from '../src/setup/stores.ts';
import { captureIo } from './capture-io.ts';
import { TINY_DIR } from './fixtures.ts';

const reportSchema = z.strictObject({
  benchmark: z.literal('peers'),
  machine: z.strictObject({ cpu: z.string(), cpus: z.number(), memoryGb: z.number(), node: z.string() }),
  embedder: z.string(),
  tokenizer: z.string(),
  ks: z.array(z.number()),
  budgetTokens: z.number(),
  perf: z.strictObject({ items: z.number(), users: z.number(), queries: z.number(), seed: z.number() }),
  skipped: z.array(z.strictObject({ peer: z.enum(PEER_NAMES), reason: z.string() })),
  runs: z.array(peerOutcomeSchema),
  ratios: z.array(
    z.strictObject({
      dataset: z.enum(['locomo', 'perf']),
      strata: z.enum(PEER_NAMES),
      figure: z.string(),
      better: z.enum(['higher', 'lower']),
      value: z.number(),
      bestPeer: z.enum(PEER_NAMES),
      bestValue: z.number(),
      ratio: z.number(),
    }),
  ),
});

// Every peer in its own process, each loading the embedding model: minutes on a loaded machine.
const PEERS_TIMEOUT_MS = 300_000;

describe('bench peers', () => {
  it(
    'runs every peer on a tiny LoCoMo conversation, with no failure',
    async () => {
      const io = captureIo();
      const code = await runCli(['peers', '--data', TINY_DIR, '--datasets', 'locomo', '--json'], io);
      expect(io.err()).not.toContain('error');
      expect(code).toBe(0);
      const report = reportSchema.parse(JSON.parse(io.out()));

      const withServer = process.env[PG_URL_VARIABLE] !== undefined;
      const expected = PEER_NAMES.filter((peer) => withServer || !SERVER_PEERS.includes(peer));
      expect(report.skipped.map((skip) => skip.peer)).toEqual(withServer ? [] : [...SERVER_PEERS]);
      // A broken peer set-up shows here with exactly what failed.
      expect(report.runs.filter((run) => !run.ok)).toEqual([]);
      expect(report.runs.map((run) => [run.peer, run.dataset])).toEqual(
        expected.map((peer) => [peer, 'locomo']),
      );
      for (const run of report.runs) {
        if (!run.ok) continue;
        expect(run.items, run.peer).toBe(8);
        expect(run.ingestPerSec, run.peer).toBeGreaterThan(0);
        expect(run.ingestNoEmbedPerSec, run.peer).toBeGreaterThanOrEqual(run.ingestPerSec);
        expect(run.searchWithEmbedMs.p50, run.peer).toBeGreaterThanOrEqual(run.searchMs.p50);
        expect(run.peakRssMb, run.peer).toBeGreaterThan(0);
        if (run.dataset === 'locomo') {
          // The tiny conversation's questions each name words of their evidence turn.
          expect(run.questions, run.peer).toBeGreaterThan(0);
          expect(run.recallAtK?.['10'], run.peer).toBeGreaterThan(0.5);
          expect(run.recallAtBudget, run.peer).toBeGreaterThan(0.5);
        }
      }
      const strataRuns = expected.filter(isStrata);
      for (const strata of strataRuns) {
        const ratio = report.ratios.find(
          (r) => r.strata === strata && r.dataset === 'locomo' && r.figure === 'recallAt10',
        );
        expect(ratio?.bestPeer, strata).toSatisfy((peer: PeerName) => !isStrata(peer));
        expect(ratio?.ratio).toBeCloseTo(ratio!.value / ratio!.bestValue);
      }
    },
    PEERS_TIMEOUT_MS,
  );

  it(
    'prints a peer that cannot run in its row, with what failed, beside the others on the perf corpus',
    async () => {
      const saved = process.env[PG_URL_VARIABLE];
      // Nothing listens on port 1: the PostgreSQL peers cannot connect.
      process.env[PG_URL_VARIABLE] = 'postgres://postgres@127.0.0.1:1/none';
      try {
        const io = captureIo();
        const code = await runCli(
          ['peers', '--items', '40', '--queries', '4', '--peers', 'langgraph-postgres,strata-memory'],
          io,
        );
        expect(code).toBe(0);
        expect(io.out()).toMatch(/Perf corpus: 40 messages of 100 users, 4 searches/);
        expect(io.out()).toMatch(/PostgresStore \| failed: .*ECONNREFUSED/);
        // Strata's row has every figure: ingest, latencies and peak RSS are numbers, bytes/item `—` in memory.
        expect(io.out()).toMatch(/\| Strata \(in-process\) +(\| +[\d,.]+ +){7}\| +— \|/);
        // Without a terminal, each peer's outcome is on stderr as soon as it is in.
        const lines = io
          .err()
          .split('\n')
          .filter((line) => line.startsWith('peers: '));
        const early = lines.map((line) => peerOutcomeSchema.parse(JSON.parse(line.slice('peers: '.length))));
        expect(early.map((outcome) => [outcome.peer, outcome.ok])).toEqual([
          ['langgraph-postgres', false],
          ['strata-memory', true],
        ]);
      } finally {
        if (saved === undefined) delete process.env[PG_URL_VARIABLE];
        else process.env[PG_URL_VARIABLE] = saved;
      }
    },
    PEERS_TIMEOUT_MS,
  );
});
