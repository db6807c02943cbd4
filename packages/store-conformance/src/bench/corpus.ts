/**
 * The synthetic corpus the stores' benchmarks share, so their numbers compare: a seeded PRNG, a
 * Zipf-distributed vocabulary, sentences, clustered unit vectors, the two corpus shapes, the
 * facts and messages a recall also reads, and percentile summaries.
 */
import type { Scope, Store } from '@strata-memory/core/store';
import { seededRandom as prng } from '@strata-memory/core/test';

/** A small seeded PRNG (core's Mulberry32), so every run builds the same corpus. */
export { prng };

const SYLLABLES = [
  'ka',
  'lo',
  'mi',
  'ner',
  'sta',
  'vo',
  'ul',
  'tri',
  'pen',
  'dor',
  'qua',
  'zel',
  'fin',
  'ro',
  'besh',
  'ty',
];
export const FUNCTION_WORDS = [
  'the',
  'a',
  'of',
  'to',
  'and',
  'in',
  'for',
  'we',
  'is',
  'on',
  'with',
  'that',
  'it',
  'was',
];

/** A 5,000-word vocabulary drawn from with a Zipf distribution, like natural text. */
export function vocabulary(random: () => number): { words: string[]; draw: () => string } {
  const words: string[] = [];
  const seen = new Set<string>();
  while (words.length < 5000) {
    let word = '';
    const parts = 2 + Math.floor(random() * 3);
    for (let i = 0; i < parts; i++) word += SYLLABLES[Math.floor(random() * SYLLABLES.length)];
    if (!seen.has(word)) {
      seen.add(word);
      words.push(word);
    }
  }
  const weights = words.map((_, i) => 1 / (i + 1));
  const cumulative: number[] = [];
  let sum = 0;
  for (const w of weights) {
    sum += w;
    cumulative.push(sum);
  }
  const draw = () => {
    const x = random() * sum;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return words[lo]!;
  };
  return { words, draw };
}

export function sentence(random: () => number, draw: () => string): string {
  const length = 8 + Math.floor(random() * 20);
  const out: string[] = [];
  for (let i = 0; i < length; i++) {
    out.push(random() < 0.35 ? FUNCTION_WORDS[Math.floor(random() * FUNCTION_WORDS.length)]! : draw());
  }
  if (random() < 0.3) out.push(`$${Math.floor(random() * 10_000)}`);
  return out.join(' ');
}

function gaussianish(random: () => number): number {
  // Sum of uniforms: close enough to Gaussian for direction sampling.
  return random() + random() + random() - 1.5;
}

/**
 * Unit vectors around 200 topic centres, so neighbours share topics as sentence embeddings do
 * (uniform random directions are nothing like real embeddings, and a worst case for any index).
 */
export function embeddingSpace(dimensions: number): (random: () => number) => number[] {
  const centreRandom = prng(11);
  const centres = Array.from({ length: 200 }, () =>
    Array.from({ length: dimensions }, () => gaussianish(centreRandom)),
  );
  return (random) => {
    const centre = centres[Math.floor(random() * centres.length)]!;
    const v = centre.map((x) => x + 0.8 * gaussianish(random));
    const norm = Math.hypot(...v);
    return v.map((x) => x / norm);
  };
}

export interface Shape {
  name: string;
  tenants: number;
  usersPerTenant: number;
}

export const SHAPES: Shape[] = [
  { name: '100 tenants', tenants: 100, usersPerTenant: 10 },
  { name: '1 tenant', tenants: 1, usersPerTenant: 10 },
];

export function scopeOf(shape: Shape, index: number): Scope {
  const tenant = index % shape.tenants;
  const user = Math.floor(index / shape.tenants) % shape.usersPerTenant;
  return { orgId: `org-${tenant}`, userId: `user-${tenant}-${user}` };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * (sorted.length - 1)))]!;
}

export function summarize(times: number[]): { p50: number; p95: number; mean: number } {
  const sorted = [...times].sort((a, b) => a - b);
  const round = (x: number) => Math.round(x * 100) / 100;
  return {
    p50: round(percentile(sorted, 0.5)),
    p95: round(percentile(sorted, 0.95)),
    mean: round(times.reduce((a, b) => a + b, 0) / times.length),
  };
}

export async function addRecallContext(store: Store, shape: Shape): Promise<void> {
  for (let tenant = 0; tenant < shape.tenants; tenant++) {
    const scope = scopeOf(shape, tenant);
    for (let f = 0; f < 20; f++) {
      await store.facts.insert({
        fact: {
          scope,
          entityType: 'project',
          entityId: `project-${f % 5}`,
          key: `attribute ${f}`,
          value: f,
          provenance: { source: 'api' },
        },
      });
    }
    await store.threads.appendMessages({
      scope: { ...scope, threadId: 'main' },
      messages: Array.from({ length: 50 }, (_, m) => ({ role: 'user' as const, content: `message ${m}` })),
    });
  }
}
