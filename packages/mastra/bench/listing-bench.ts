/**
 * Mastra listing latency on a large resource: `listThreads` (a page of 20 with a metadata filter)
 * over one resource's threads, and `recall` (a page of 40) of one long thread. The resource and the
 * thread are filled through `saveThread` and `saveMessages`, as an agent's runs fill them. Runs on
 * the in-memory store and on SQLite (a temp file), with the lexical hash embedder so model time
 * does not count.
 *
 *   pnpm --filter @strata-memory/mastra bench [-- --threads 5000 --messages 5000 --samples 20 --drivers memory,sqlite]
 *
 * Prints a table and, last, one JSON line with every number.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { MastraDBMessage } from '@mastra/core/memory';
import { createMemory, hashEmbedder, memoryStore, type Store } from '@strata-memory/core';
import { sqliteStore } from '@strata-memory/store-sqlite';
import { strataMemory } from '../src/index.ts';

const { values } = parseArgs({
  // `pnpm bench -- --threads …` passes the `--` through.
  args: process.argv.slice(2).filter((arg) => arg !== '--'),
  options: {
    threads: { type: 'string', default: '5000' },
    messages: { type: 'string', default: '5000' },
    samples: { type: 'string', default: '20' },
    drivers: { type: 'string', default: 'memory,sqlite' },
  },
});
const threadCount = Number(values.threads);
const messageCount = Number(values.messages);
const samples = Number(values.samples);
const drivers = values.drivers
  .split(',')
  .filter((d): d is 'memory' | 'sqlite' => d === 'memory' || d === 'sqlite');

const RESOURCE = 'ada';
const LONG_THREAD = 'long';
const T0 = Date.parse('2026-03-01T10:00:00Z');
const topics = ['travel', 'work', 'garden', 'cooking'];
const words = ['invoice', 'supplier', 'warehouse', 'porto', 'lisbon', 'budget', 'meeting', 'pasta'];

const message = (i: number): MastraDBMessage => ({
  id: `m${i}`,
  role: i % 2 === 0 ? 'user' : 'assistant',
  threadId: LONG_THREAD,
  resourceId: RESOURCE,
  createdAt: new Date(T0 + i * 1000),
  content: {
    format: 2,
    parts: [{ type: 'text', text: `turn ${i}: ${words[i % 8]} ${words[(i * 3) % 8]} item ${i}` }],
  },
});

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function time(n: number, fn: (i: number) => Promise<unknown>) {
  const ms: number[] = [];
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    await fn(i);
    ms.push(performance.now() - start);
  }
  ms.sort((a, b) => a - b);
  return { p50: +percentile(ms, 50).toFixed(2), p95: +percentile(ms, 95).toFixed(2) };
}

const results: Array<Record<string, unknown>> = [];
const dir = mkdtempSync(join(tmpdir(), 'strata-mastra-bench-'));
try {
  for (const driver of drivers) {
    const store: Store = driver === 'memory' ? memoryStore() : sqliteStore({ path: join(dir, 'listing.db') });
    const memory = createMemory({ store, embedder: hashEmbedder({ dimensions: 256 }) });
    const mastra = strataMemory({ memory });

    let start = performance.now();
    for (let i = 0; i < threadCount; i++) {
      const at = new Date(T0 + i * 60_000);
      await mastra.saveThread({
        thread: {
          id: `t${i}`,
          resourceId: RESOURCE,
          title: `thread ${i}`,
          metadata: { topic: topics[i % topics.length] },
          createdAt: at,
          updatedAt: at,
        },
      });
    }
    const threadFillMs = performance.now() - start;
    start = performance.now();
    for (let i = 0; i < messageCount; i += 100) {
      const batch = Array.from({ length: Math.min(100, messageCount - i) }, (_, j) => message(i + j));
      await mastra.saveMessages({ messages: batch });
    }
    const messageFillMs = performance.now() - start;

    const threadPages = Math.max(1, Math.floor(threadCount / topics.length / 20));
    const messagePages = Math.max(1, Math.floor(messageCount / 40));
    // What is timed reads what was filled: the filter's share of the threads, every message.
    const listed = await mastra.listThreads({
      filter: { resourceId: RESOURCE, metadata: { topic: 'work' } },
      perPage: 20,
    });
    const recalled = await mastra.recall({ threadId: LONG_THREAD, resourceId: RESOURCE, perPage: 40 });
    if (listed.total !== Math.ceil((threadCount - 1) / topics.length) || recalled.total !== messageCount) {
      throw new Error(
        `filled ${listed.total} "work" threads and ${recalled.total} messages: not what was saved`,
      );
    }
    results.push({
      driver,
      threads: threadCount,
      messages: messageCount,
      fillPerThreadMs: +(threadFillMs / Math.max(1, threadCount)).toFixed(2),
      fillPerMessageMs: +(messageFillMs / Math.max(1, messageCount)).toFixed(2),
      listThreads: await time(samples, (i) =>
        mastra.listThreads({
          filter: { resourceId: RESOURCE, metadata: { topic: 'work' } },
          orderBy: { field: 'createdAt', direction: 'DESC' },
          page: (i * 7) % threadPages,
          perPage: 20,
        }),
      ),
      recall: await time(samples, (i) =>
        mastra.recall({
          threadId: LONG_THREAD,
          resourceId: RESOURCE,
          page: (i * 7) % messagePages,
          perPage: 40,
        }),
      ),
      recallLatest: await time(samples, () =>
        mastra.recall({
          threadId: LONG_THREAD,
          resourceId: RESOURCE,
          orderBy: { field: 'createdAt', direction: 'DESC' },
          page: 0,
          perPage: 40,
        }),
      ),
    });
    await memory.close();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const ops = ['listThreads', 'recall', 'recallLatest'] as const;
console.log(`Mastra listing latency, ms (p50 / p95 over ${samples} operations)`);
console.log(
  ['driver', 'threads', 'messages', 'fill/thread', 'fill/message', ...ops].map((h) => h.padEnd(15)).join(''),
);
for (const row of results) {
  const cells = ops.map((op) => {
    const t = row[op] as { p50: number; p95: number };
    return `${t.p50} / ${t.p95}`;
  });
  console.log(
    [row.driver, row.threads, row.messages, row.fillPerThreadMs, row.fillPerMessageMs, ...cells]
      .map((c) => String(c).padEnd(15))
      .join(''),
  );
}
console.log(JSON.stringify({ bench: 'mastra-listing', samples, results }));
