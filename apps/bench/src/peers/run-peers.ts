import { fork } from 'node:child_process';
import { cpus, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { invalidInput } from '@strata-memory/core';
import type { Progress } from '../cli/progress.ts';
import { loadConversations, selectConversations } from '../locomo/dataset.ts';
import { PG_URL_VARIABLE } from '../setup/stores.ts';
import { CONTEXT_BUDGET_TOKENS, PEER_KS, PERF_USERS } from './measure-peer.ts';
import { PEER_LABELS } from './open-peer.ts';
import { type PeerName, SERVER_PEERS } from './peer-memory.ts';
import { type PeerDataset, type PeerOutcome, workerMessageSchema } from './peer-run.ts';
import type { WorkerOptions } from './peer-worker.ts';
import { type PeerRatio, peerRatios } from './ratios.ts';

export interface PeersOptions {
  /** LoCoMo folder (absolute); without it only the perf corpus runs. */
  data?: string;
  /** Perf corpus size. */
  items: number;
  /** Timed searches on the perf corpus. */
  queries: number;
  seed: number;
  peers: PeerName[];
  /** LoCoMo conversations to run (ids such as `conv-26`); all of `data` when absent. */
  conversations?: string[];
  /** Default: both when `data` is given, else `perf`. */
  datasets?: PeerDataset[];
}

export interface PeersReport {
  benchmark: 'peers';
  machine: { cpu: string; cpus: number; memoryGb: number; node: string };
  embedder: string;
  tokenizer: string;
  ks: number[];
  budgetTokens: number;
  perf: { items: number; users: number; queries: number; seed: number };
  /** Peers not run, and why. */
  skipped: Array<{ peer: PeerName; reason: string }>;
  runs: PeerOutcome[];
  ratios: PeerRatio[];
}

/** Flags every peer process needs: TypeScript sources and the workspace's source condition. */
const WORKER_EXEC_ARGV = [
  '--experimental-strip-types',
  '--disable-warning=ExperimentalWarning',
  '--conditions=@strata-memory/source',
];

/** How much of a failed process's output a failure keeps. */
const OUTPUT_TAIL_CHARS = 600;

/** Runs one peer on one dataset in a child process and returns what it measured or what failed. */
export async function runPeerProcess(options: WorkerOptions, progress: Progress): Promise<PeerOutcome> {
  const worker = fileURLToPath(new URL('./peer-worker.ts', import.meta.url));
  const child = fork(worker, [JSON.stringify(options)], {
    execArgv: WORKER_EXEC_ARGV,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    env: { ...process.env, MEM0_TELEMETRY: 'false' },
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-OUTPUT_TAIL_CHARS * 4);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let outcome: PeerOutcome | undefined;
  const phase = `${options.peer} on ${options.dataset}`;
  child.on('message', (raw) => {
    const message = workerMessageSchema.safeParse(raw);
    if (!message.success) return;
    if (message.data.type === 'start') progress.start(message.data.total, phase);
    else if (message.data.type === 'advance') progress.advance();
    else outcome = message.data.outcome;
  });
  const code = await new Promise<number | null>((resolve) => {
    child.on('error', (error) => {
      output += `\n${error.message}`;
      resolve(null);
    });
    child.on('exit', (exitCode) => resolve(exitCode));
  });
  progress.stop();
  if (outcome) return outcome;
  const tail = output.trim().split('\n').slice(-6).join(' ').slice(-OUTPUT_TAIL_CHARS);
  return {
    ok: false,
    peer: options.peer,
    dataset: options.dataset,
    label: PEER_LABELS[options.peer],
    error: `the peer's process exited with code ${code} before reporting${tail ? `: ${tail}` : ''}`,
  };
}

/**
 * Strata and its peers side by side: each peer, on each dataset (LoCoMo when `data` is given, then
 * the perf corpus), in a process of its own with the same embedder and tokenizer; then Strata's
 * ratio against the best other peer for each figure.
 */
export async function runPeers(
  options: PeersOptions,
  hooks: { progress: Progress; onOutcome?: (outcome: PeerOutcome) => void },
): Promise<PeersReport> {
  const skipped: PeersReport['skipped'] = [];
  const peers = options.peers.filter((peer) => {
    if (SERVER_PEERS.includes(peer) && !process.env[PG_URL_VARIABLE]) {
      skipped.push({ peer, reason: `needs a PostgreSQL server: set ${PG_URL_VARIABLE}` });
      return false;
    }
    return true;
  });
  const datasets: PeerDataset[] = options.datasets ?? (options.data ? ['locomo', 'perf'] : ['perf']);
  if (datasets.includes('locomo')) {
    if (!options.data) throw invalidInput('The locomo dataset needs --data <dir>.');
    // Bad data or an unknown conversation fails here, once, before any peer's process starts.
    selectConversations(await loadConversations(options.data), options.conversations);
  }
  const runs: PeerOutcome[] = [];
  for (const dataset of datasets) {
    for (const peer of peers) {
      const outcome = await runPeerProcess(
        {
          peer,
          dataset,
          ...(options.data ? { data: options.data } : {}),
          ...(options.conversations ? { conversations: options.conversations } : {}),
          items: options.items,
          queries: options.queries,
          seed: options.seed,
        },
        hooks.progress,
      );
      runs.push(outcome);
      hooks.onOutcome?.(outcome);
    }
  }
  const cpu = cpus();
  return {
    benchmark: 'peers',
    machine: {
      cpu: cpu[0]?.model ?? 'unknown',
      cpus: cpu.length,
      memoryGb: Math.round(totalmem() / 2 ** 30),
      node: process.version,
    },
    embedder: 'use-lite-512 (@strata-memory/embed-local)',
    tokenizer: 'o200k_base (core defaultTokenizer)',
    ks: [...PEER_KS],
    budgetTokens: CONTEXT_BUDGET_TOKENS,
    perf: { items: options.items, users: PERF_USERS, queries: options.queries, seed: options.seed },
    skipped,
    runs,
    ratios: peerRatios(runs),
  };
}
