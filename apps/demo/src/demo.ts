import { rmSync } from 'node:fs';
import { createMemory, type Extractor, type Memory, rulesExtractor } from '@strata-memory/core';
import { type LocalEmbedder, localEmbedder } from '@strata-memory/embed-local';
import { sqliteStore } from '@strata-memory/store-sqlite';
import { type Checks, createChecks } from './checks.ts';
import type { DemoOptions } from './demo-options.ts';
import { type SimulatedClock, simulatedClock } from './simulated-clock.ts';

/**
 * Everything a scene needs: the memory engine (SQLite file, offline embedder, rules extractor,
 * simulated clock), the claim checker, and what each person has said so far in this run (what an
 * agent without memory would have to resend: the "full history" the token counts compare to).
 */
export interface Demo {
  memory: Memory;
  clock: SimulatedClock;
  embedder: LocalEmbedder;
  extractor: Extractor;
  checks: Checks;
  dbPath: string;
  /** Token budget of every recall in the demo. */
  budget: number;
  /** Per person id: every line they said this run, in order. */
  transcripts: Map<string, string[]>;
  /** Memory held a previous run's items when this run started (so it knows more than `transcripts`). */
  resumed: boolean;
  close(): Promise<void>;
}

/** Recall budget: a small system-prompt slice, so the long session in scene 5 overflows it. */
export const RECALL_BUDGET = 600;

/** The first simulated day: Monday 2 March 2026, 09:00 UTC. */
export const FIRST_DAY = Date.parse('2026-03-02T09:00:00Z');

export async function openDemo(options: DemoOptions): Promise<Demo> {
  if (options.reset) removeDatabase(options.dbPath);
  const store = sqliteStore({ path: options.dbPath, name: 'demo' });
  const embedder = localEmbedder();
  try {
    await embedder.warmup();
  } catch (error) {
    await store.close();
    throw error;
  }
  const clock = simulatedClock(FIRST_DAY);
  const extractor = rulesExtractor();
  const memory = createMemory({ store, embedder, extractor, clock });
  return {
    memory,
    clock,
    embedder,
    extractor,
    checks: createChecks(),
    dbPath: options.dbPath,
    budget: RECALL_BUDGET,
    transcripts: new Map(),
    resumed: false,
    close: () => memory.close(),
  };
}

/** The database file and SQLite's write-ahead log beside it. */
function removeDatabase(path: string): void {
  for (const file of [path, `${path}-wal`, `${path}-shm`]) rmSync(file, { force: true });
}
