/**
 * Speed of the in-memory reference store at benchmark scale: writes, keyword and vector search,
 * listing and counting over N episodes spread over tenants and users. Prints a table and a JSON
 * line. Run from this package:
 *
 *   node --conditions=@strata-memory/source bench/memory-store-bench.ts --episodes 100000 --tenants 10
 */
import { parseArgs } from 'node:util';
import { memoryStore, type Scope } from '@strata-memory/core/store';
import { seededRandom } from '@strata-memory/core/test';

const { values } = parseArgs({
  options: {
    episodes: { type: 'string', default: '100000' },
    tenants: { type: 'string', default: '10' },
    users: { type: 'string', default: '10' },
    dimensions: { type: 'string', default: '384' },
    queries: { type: 'string', default: '50' },
  },
});
const total = Number(values.episodes);
const tenants = Number(values.tenants);
const usersPerTenant = Number(values.users);
const dimensions = Number(values.dimensions);
const queryCount = Number(values.queries);

// Deterministic pseudo-random numbers.
const random = seededRandom(42);

// A Zipf-like vocabulary: word i is drawn with weight 1 / (i + 1), like natural text.
const vocabulary = Array.from({ length: 5_000 }, (_, i) => `word${i.toString(36)}`);
const cumulative: number[] = [];
let sum = 0;
for (let i = 0; i < vocabulary.length; i++) {
  sum += 1 / (i + 1);
  cumulative.push(sum);
}
function word(): string {
  const target = random() * sum;
  let lo = 0;
  let hi = cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cumulative[mid]! < target) lo = mid + 1;
    else hi = mid;
  }
  return vocabulary[lo]!;
}
const sentence = (length: number) => Array.from({ length }, word).join(' ');
function vector(): number[] {
  const v = new Array<number>(dimensions);
  let squares = 0;
  for (let i = 0; i < dimensions; i++) {
    const x = random() - 0.5;
    v[i] = x;
    squares += x * x;
  }
  const norm = Math.sqrt(squares);
  for (let i = 0; i < dimensions; i++) v[i] = v[i]! / norm;
  return v;
}
const scopeOf = (n: number): Scope => ({
  orgId: `org-${n % tenants}`,
  userId: `user-${Math.floor(n / tenants) % usersPerTenant}`,
});

function percentiles(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
  return { p50: Number(at(0.5).toFixed(2)), p95: Number(at(0.95).toFixed(2)) };
}

const store = memoryStore();
const batch = 1_000;
const writeStart = performance.now();
for (let start = 0; start < total; start += batch) {
  const episodes = [];
  for (let n = start; n < Math.min(total, start + batch); n++) {
    episodes.push({
      scope: scopeOf(n),
      text: sentence(12 + Math.floor(random() * 20)),
      occurredAt: 1_700_000_000_000 + n * 1_000,
      embedding: vector(),
      provenance: { source: 'observation' as const },
    });
  }
  await store.episodes.put({ episodes });
}
const writeMs = performance.now() - writeStart;

async function measure(run: (scope: Scope) => Promise<unknown>) {
  const samples: number[] = [];
  for (let i = 0; i < queryCount; i++) {
    const scope = scopeOf(Math.floor(random() * total));
    const started = performance.now();
    await run(scope);
    samples.push(performance.now() - started);
  }
  return percentiles(samples);
}

const results = {
  store: 'memory',
  episodes: total,
  tenants,
  usersPerTenant,
  dimensions,
  writeEpisodesPerSecond: Math.round(total / (writeMs / 1000)),
  keywordSearchMs: await measure((scope) =>
    store.episodes.searchKeyword({ scope, query: `${word()} ${word()} ${word()} ${sentence(2)}`, limit: 20 }),
  ),
  vectorSearchMs: await measure((scope) =>
    store.episodes.searchVector({ scope, vector: vector(), limit: 20 }),
  ),
  listMs: await measure((scope) => store.episodes.list({ scope, limit: 50 })),
  countMs: await measure((scope) => store.episodes.count({ scope })),
  heapUsedMb: Math.round(process.memoryUsage().heapUsed / 1_048_576),
};

console.log(
  `memory store, ${total} episodes, ${tenants} tenants x ${usersPerTenant} users, ${dimensions} dims`,
);
console.log(
  `  writes            ${results.writeEpisodesPerSecond} episodes/s (batches of ${batch}, validation included)`,
);
for (const key of ['keywordSearchMs', 'vectorSearchMs', 'listMs', 'countMs'] as const) {
  console.log(`  ${key.padEnd(17)} p50 ${results[key].p50} ms  p95 ${results[key].p95} ms`);
}
console.log(`  heap used         ${results.heapUsedMb} MB`);
console.log(JSON.stringify(results));
