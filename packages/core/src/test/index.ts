/**
 * Test helpers for code built on Strata: a deterministic embedder, a manual clock, a seeded random
 * generator, a scripted completion model and a reader of the facts in a rendered block. Import
 * from `@strata-memory/core/test`.
 */
import { hashEmbedder } from '../embed/hash-embedder.ts';
import type { CompletionModel, Embedder } from '../ports/ports.ts';
import { PORT_SPECIFICATION_VERSION } from '../ports/ports.ts';

export { type BlockFact, blockFacts } from './block-facts.ts';
export { type ManualClock, manualClock } from './manual-clock.ts';
export { hashEmbedder };

/** A deterministic lexical embedder (64 dimensions unless told otherwise). */
export function testEmbedder(dimensions = 64): Embedder {
  return hashEmbedder({ dimensions });
}

/**
 * A small seeded generator (Mulberry32) of numbers in [0, 1): the same sequence for the same seed,
 * for tests and benchmarks that need varied but repeatable data.
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export interface ScriptedModel extends CompletionModel {
  /** Every call made, in order. */
  readonly calls: Array<{ system: string; prompt: string }>;
}

/**
 * A completion model that answers from a script: a list of replies used in order (the last one
 * repeats), or a function of the prompt. A reply that is an Error is thrown.
 */
export function scriptedModel(
  script: Array<string | Error> | ((args: { system: string; prompt: string }) => string | Error),
): ScriptedModel {
  const calls: Array<{ system: string; prompt: string }> = [];
  return {
    specificationVersion: PORT_SPECIFICATION_VERSION,
    id: 'scripted',
    calls,
    async complete({ system, prompt }) {
      calls.push({ system, prompt });
      const reply =
        typeof script === 'function'
          ? script({ system, prompt })
          : script[Math.min(calls.length - 1, script.length - 1)];
      if (reply === undefined) throw new Error('scriptedModel: empty script');
      if (reply instanceof Error) throw reply;
      return reply;
    },
  };
}
export { AISLE_SEAT_CONTROLS, AISLE_SEAT_PARAPHRASES } from './paraphrases.ts';
export { SAMPLE_SCOPES, seedSampleMemory } from './sample-memory.ts';
