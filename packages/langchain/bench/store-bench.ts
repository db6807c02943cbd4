/**
 * StrataStore latency by store size: put, get, search (filter only, and with a query), delete and
 * listNamespaces, each timed over a sample of operations once the scope holds N items. Runs on the in-memory store
 * and on SQLite (a temp file), with the lexical hash embedder so model time does not count.
 *
 *   pnpm --filter @strata-memory/langchain bench [-- --sizes 100,1000 --samples 20 --drivers memory,sqlite]
 *
 * Prints a table and, last, one JSON line with every number.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createMemory, hashEmbedder, memoryStore, type Store } from '@strata-memory/core';
import { sqliteStore } from '@strata-memory/store-sqlite';
import { StrataStore } from '../src/store/strata-store.ts';

const { values } = parseArgs({
  // `pnpm bench -- --sizes …` passes the `--` through.
  args: process.argv.slice(2).filter((arg) => arg !== '--'),
  options: {
    sizes: { type: 'string', default: '100,1000' },
    samples: { type: 'string', default: '20' },
    drivers: { type: 'string', default: 'memory,sqlite' },
  },
});
const sizes = values.sizes.split(',').map(Number);
const samples = Number(values.samples);
const drivers = values.drivers
  .split(',')
  .filter((d): d is 'memory' | 'sqlite' => d === 'memory' || d === 'sqlite');

const words = [
  'invoice',
  'supplier',
  'warehouse',
  'porto',
  'lisbon',
  'budget',
  'meeting',
  'pasta',
  'python',
  'garden',
];
const text = (i: number) =>
  `note ${i}: ${words[i % 10]} ${words[(i * 7) % 10]} ${words[(i * 3) % 10]} item ${i}`;

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
const dir = mkdtempSync(join(tmpdir(), 'strata-langchain-bench-'));
try {
  for (const driver of drivers) {
    for (const size of sizes) {
      const store: Store =
        driver === 'memory' ? memoryStore() : sqliteStore({ path: join(dir, `${size}.db`) });
      const memory = createMemory({ store, embedder: hashEmbedder({ dimensions: 256 }) });
      const items = new StrataStore({ memory, scope: { orgId: 'bench' } });
      const fill = performance.now();
      for (let i = 0; i < size; i++) await items.put(['notes'], `k${i}`, { text: text(i), n: i });
      const fillMs = performance.now() - fill;
      const row = {
        driver,
        items: size,
        fillPerItemMs: +(fillMs / size).toFixed(2),
        put: await time(samples, (i) => items.put(['notes'], `new${i}`, { text: text(size + i), n: i })),
        update: await time(samples, (i) =>
          items.put(['notes'], `k${i}`, { text: `${text(i)} (edited)`, n: i }),
        ),
        get: await time(samples, (i) => items.get(['notes'], `k${i * 3}`)),
        filter: await time(samples, (i) =>
          items.search(['notes'], { filter: { n: { $lt: i + 5 } }, limit: 10 }),
        ),
        query: await time(samples, (i) =>
          items.search(['notes'], { query: `${words[i % 10]} warehouse`, limit: 10 }),
        ),
        delete: await time(samples, (i) => items.delete(['notes'], `new${i}`)),
        list: await time(samples, () => items.listNamespaces({ limit: 100 })),
      };
      results.push(row);
      await memory.close();
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const ops = ['put', 'update', 'get', 'filter', 'query', 'delete', 'list'] as const;
console.log(`StrataStore latency, ms (p50 / p95 over ${samples} operations)`);
console.log(['driver', 'items', 'fill/item', ...ops].map((h) => h.padEnd(17)).join(''));
for (const row of results) {
  const cells = ops.map((op) => {
    const t = row[op] as { p50: number; p95: number };
    return `${t.p50} / ${t.p95}`;
  });
  console.log([row.driver, row.items, row.fillPerItemMs, ...cells].map((c) => String(c).padEnd(17)).join(''));
}
console.log(JSON.stringify({ bench: 'strata-store', samples, results }));
