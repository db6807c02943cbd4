import { resolve } from 'node:path';
import { StrataError } from '@strata-memory/core';
import type { RecallTuning } from '@strata-memory/core/internals';
import { Command, CommanderError, Option } from 'commander';
import { CORPUS_HALVES, type CorpusHalf } from '../extract/corpus.ts';
import { extractTable } from '../extract/extract-table.ts';
import { EXTRACTOR_KINDS, type ExtractorKind, runExtractBench } from '../extract/run-extract.ts';
import { ABLATION_NAMES, type AblationName, ablatedTuning, tuningSettings } from '../locomo/ablation.ts';
import { locomoNotes, locomoTable } from '../locomo/locomo-table.ts';
import { runLocomo } from '../locomo/run-locomo.ts';
import { MAX_RANKED_ITEMS } from '../locomo/strategies/strata.ts';
import { STRATEGY_NAMES, type StrategyName } from '../locomo/strategies/types.ts';
import { PEER_NAMES, type PeerName } from '../peers/peer-memory.ts';
import { PEER_DATASETS, type PeerDataset } from '../peers/peer-run.ts';
import { peersTable } from '../peers/peers-table.ts';
import { runPeers } from '../peers/run-peers.ts';
import { perfTable } from '../perf/perf-table.ts';
import { runPerf } from '../perf/run-perf.ts';
import { EMBEDDER_KINDS, type EmbedderKind } from '../setup/embedders.ts';
import { STORE_KINDS, type StoreKind } from '../setup/stores.ts';
import { integer, integerList, nameList } from './list-options.ts';
import { progressBar } from './progress.ts';

export interface CliIo {
  /** Directory that relative `--data` and `--out` paths are resolved against. Default: the process's. */
  cwd?: string;
  stdout: NodeJS.WritableStream;
  /** Progress, warnings and errors. */
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
}

interface PerfFlags {
  store: StoreKind;
  embedder: EmbedderKind;
  items: number[];
  users: number;
  queries: number;
  seed: number;
  isolate: boolean;
  stages?: boolean;
  db?: string;
  json?: boolean;
}

interface LocomoFlags {
  data: string;
  store: StoreKind;
  embedder: EmbedderKind;
  k: number[];
  budget: number[];
  strategies: StrategyName[];
  conversations?: string[];
  ablate?: AblationName[];
  set?: Partial<RecallTuning>;
  out?: string;
  json?: boolean;
}

interface ExtractFlags {
  half: CorpusHalf | 'both';
  extractor: ExtractorKind;
  recorded?: string;
  json?: boolean;
}

interface PeersFlags {
  data?: string;
  items: number;
  queries: number;
  seed: number;
  peers: PeerName[];
  datasets?: PeerDataset[];
  conversations?: string[];
  json?: boolean;
}

function conversationList(value: string): string[] {
  return value.split(',').map((part) => part.trim());
}

function buildProgram(io: CliIo): Command {
  const program = new Command('bench')
    .description('Strata benchmarks: LoCoMo retrieval against baselines, and store performance.')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
    })
    .showHelpAfterError('(run with --help for usage)');

  program
    .command('locomo')
    .description('Turn recall of the LoCoMo evidence, per strategy, at k items and within token budgets.')
    .requiredOption(
      '--data <path>',
      "a folder of conv-*.json files, or the LoCoMo repository's locomo10.json",
    )
    .addOption(new Option('--store <kind>', 'store driver').choices(STORE_KINDS).default('sqlite'))
    .addOption(new Option('--embedder <kind>', 'embedder').choices(EMBEDDER_KINDS).default('local'))
    .option(
      '--k <list>',
      'item counts for recall@k',
      integerList({ min: 1, max: MAX_RANKED_ITEMS }),
      [1, 5, 10, 20],
    )
    .option(
      '--budget <list>',
      'token budgets for recall within a budget',
      integerList({ min: 16, max: 1_000_000 }),
      [500, 1000, 2000],
    )
    .option(
      '--strategies <list>',
      `strategies to compare (${STRATEGY_NAMES.join(', ')})`,
      nameList(STRATEGY_NAMES),
      [...STRATEGY_NAMES],
    )
    .option(
      '--conversations <list>',
      'only these conversations, e.g. conv-26,conv-30 (default: all)',
      conversationList,
    )
    .option(
      '--ablate <list>',
      `switch these recall stages off for strata (${ABLATION_NAMES.join(', ')})`,
      nameList(ABLATION_NAMES),
    )
    .option(
      '--set <settings>',
      'set recall tuning fields for strata, e.g. contextTurns=3,vectorWeight=1 (after --ablate)',
      tuningSettings,
    )
    .option('--out <file>', 'write per-question results as JSON lines')
    .option('--json', 'print one JSON object on stdout instead of the table')
    .action(async (flags: LocomoFlags) => {
      const { report, notes } = await runLocomo(
        {
          data: resolve(io.cwd ?? process.cwd(), flags.data),
          store: flags.store,
          embedder: flags.embedder,
          ks: flags.k,
          budgets: flags.budget,
          strategies: flags.strategies,
          ...(flags.conversations === undefined ? {} : { conversations: flags.conversations }),
          ...(flags.ablate === undefined && flags.set === undefined
            ? {}
            : { tuning: { ...ablatedTuning(flags.ablate ?? []), ...flags.set } }),
          ...(flags.out === undefined ? {} : { out: resolve(io.cwd ?? process.cwd(), flags.out) }),
        },
        { progress: progressBar(io.stderr) },
      );
      const noteLines = locomoNotes(notes).map((line) => `- ${line}\n`);
      if (flags.json) {
        io.stdout.write(`${JSON.stringify(report)}\n`);
        for (const line of noteLines) io.stderr.write(line);
      } else {
        io.stdout.write(locomoTable({ report, ks: flags.k, budgets: flags.budget }));
        if (noteLines.length > 0) io.stdout.write(`\n${noteLines.join('')}`);
      }
    });

  program
    .command('perf')
    .description('Throughput, latency, storage and memory of the engine on a synthetic multi-tenant corpus.')
    .addOption(new Option('--store <kind>', 'store driver').choices(STORE_KINDS).default('sqlite'))
    .addOption(
      new Option(
        '--embedder <kind>',
        'embedder for the main load (recall latency excludes a slow model when hash)',
      )
        .choices(EMBEDDER_KINDS)
        .default('hash'),
    )
    .option('--items <list>', 'corpus sizes', integerList({ min: 10, max: 10_000_000 }), [10_000, 100_000])
    .option('--users <n>', 'users (10 per organisation)', integer({ min: 1, max: 1_000_000 }), 100)
    .option(
      '--queries <n>',
      'timed traversals and recalls per size (recalls in each of two rounds)',
      integer({ min: 1, max: 100_000 }),
      200,
    )
    .option('--seed <n>', 'corpus seed', integer({ min: 0, max: 2 ** 31 }), 1)
    .option('--no-isolate', 'run every size in this process (peak RSS then accumulates)')
    .option('--stages', 'also time each recall stage, the stages run one after another')
    .option(
      '--db <file>',
      'sqlite, one size: keep the loaded store in this file; when it exists, measure it without loading again',
    )
    .option('--json', 'print one JSON object on stdout instead of the table')
    .action(async (flags: PerfFlags) => {
      if (flags.db !== undefined && (flags.store !== 'sqlite' || flags.items.length !== 1)) {
        throw new StrataError({
          code: 'invalid_input',
          message: '--db needs --store sqlite and a single --items size',
        });
      }
      const report = await runPerf(
        {
          store: flags.store,
          embedder: flags.embedder,
          items: flags.items,
          users: flags.users,
          queries: flags.queries,
          seed: flags.seed,
          isolate: flags.isolate,
          stages: flags.stages ?? false,
          ...(flags.db !== undefined ? { db: resolve(io.cwd ?? process.cwd(), flags.db) } : {}),
        },
        {
          progress: progressBar(io.stderr),
          // Each size can take long: say what it measured as soon as it is done.
          onRun: (run) => {
            if (flags.isolate && flags.items.length > 1) io.stderr.write(`perf: ${JSON.stringify(run)}\n`);
          },
        },
      );
      io.stdout.write(flags.json ? `${JSON.stringify(report)}\n` : perfTable(report));
    });

  program
    .command('extract')
    .description(
      'Precision, recall and F1 of extraction on the labelled corpus, per kind and per half, through the engine on SQLite.',
    )
    .addOption(new Option('--half <half>', 'corpus half').choices([...CORPUS_HALVES, 'both']).default('both'))
    .addOption(new Option('--extractor <kind>', 'extractor').choices(EXTRACTOR_KINDS).default('rules'))
    .option(
      '--recorded <file>',
      'recorded model replies for --extractor model or ai-sdk (default: the corpus recording)',
    )
    .option('--json', 'print one JSON object on stdout instead of the tables')
    .action(async (flags: ExtractFlags) => {
      const report = await runExtractBench({
        halves: flags.half === 'both' ? [...CORPUS_HALVES] : [flags.half],
        extractor: flags.extractor,
        ...(flags.recorded === undefined
          ? {}
          : { recorded: resolve(io.cwd ?? process.cwd(), flags.recorded) }),
      });
      io.stdout.write(flags.json ? `${JSON.stringify(report)}\n` : extractTable(report));
    });

  program
    .command('peers')
    .description(
      'Strata beside mem0, Mastra Memory and LangGraph stores, each in its own process, on LoCoMo and the perf corpus.',
    )
    .option('--data <dir>', 'directory of LoCoMo conv-*.json files (without it, only the perf corpus runs)')
    .option('--items <n>', 'perf corpus size', integer({ min: 10, max: 1_000_000 }), 5_000)
    .option('--queries <n>', 'timed searches on the perf corpus', integer({ min: 1, max: 100_000 }), 200)
    .option('--seed <n>', 'perf corpus seed', integer({ min: 0, max: 2 ** 31 }), 1)
    .option('--peers <list>', `peers to run (${PEER_NAMES.join(', ')})`, nameList(PEER_NAMES), [
      ...PEER_NAMES,
    ])
    .option(
      '--conversations <list>',
      'only these LoCoMo conversations, e.g. conv-26,conv-30 (default: all)',
      conversationList,
    )
    .option(
      '--datasets <list>',
      `datasets to run (${PEER_DATASETS.join(', ')}; default: both with --data, else perf)`,
      nameList(PEER_DATASETS),
    )
    .option('--json', 'print one JSON object on stdout instead of the tables')
    .action(async (flags: PeersFlags) => {
      const report = await runPeers(
        {
          ...(flags.data === undefined ? {} : { data: resolve(io.cwd ?? process.cwd(), flags.data) }),
          items: flags.items,
          queries: flags.queries,
          seed: flags.seed,
          peers: flags.peers,
          ...(flags.datasets === undefined ? {} : { datasets: flags.datasets }),
          ...(flags.conversations === undefined ? {} : { conversations: flags.conversations }),
        },
        {
          progress: progressBar(io.stderr),
          // A full run takes long: without a progress bar, give each peer's figures as soon as they are in.
          onOutcome: (outcome) => {
            if (!io.stderr.isTTY) io.stderr.write(`peers: ${JSON.stringify(outcome)}\n`);
          },
        },
      );
      io.stdout.write(flags.json ? `${JSON.stringify(report)}\n` : peersTable(report));
    });

  return program;
}

/**
 * Runs the `bench` command line with `argv` (the arguments after the script name) and returns
 * the exit code: 0 on success, 1 when a run fails, 2 for a usage error.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const args = argv[0] === '--' ? argv.slice(1) : argv;
  const program = buildProgram(io);
  try {
    await program.parseAsync(args, { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version exit with 0; bad arguments were already reported by commander.
      return error.exitCode === 0 ? 0 : 2;
    }
    if (StrataError.isInstance(error)) {
      io.stderr.write(`error (${error.code}): ${error.message}\n`);
      return 1;
    }
    io.stderr.write(`error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return 1;
  }
}
