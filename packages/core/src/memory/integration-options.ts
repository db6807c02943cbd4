import { z } from 'zod/v4';
import { principalSchema } from '../engine/input-schemas.ts';
import type { Layer, Memory, Principal, RecallOptions } from '../engine/types.ts';
import { failurePolicyOptionFields } from './failure-policy.ts';

/**
 * The options every integration (a middleware, an agent memory, a set of tools) shares, as zod
 * fields to spread into its own options schema, and how its recall settings become the engine's
 * `RecallOptions`.
 */

/** A `Memory` from `createMemory(...)`. */
export const memoryInstanceSchema = z.custom<Memory>(
  (value) =>
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Memory).recall === 'function' &&
    typeof (value as Memory).observe === 'function' &&
    typeof (value as Memory).store === 'object',
  'must be a Memory (createMemory(...))',
);

export { principalSchema };

export const layerSchema = z.enum(['working', 'summary', 'facts', 'episodes', 'graph']);

/** A recall's token budget: `{ tokens }`. */
export const budgetSchema = z.object({ tokens: z.number().int().positive() }).strict();

/** What an integration passes to each `memory.recall` it makes. */
export interface RecallSettings {
  /** Token budget of the memory block. Default: the engine's `policy.defaultBudgetTokens`. */
  budget?: { tokens: number };
  /** Layers to recall (default all). */
  layers?: Layer[];
  /** Most episodes to consider. */
  maxEpisodes?: number;
}

export const recallSettingsSchema = z
  .object({
    budget: budgetSchema.optional(),
    layers: z.array(layerSchema).min(1).optional(),
    maxEpisodes: z.number().int().min(1).max(200).optional(),
  })
  .strict();

/** `{ memory, principal?, recall?, onError?, reportError? }`: spread into an integration's options schema. */
export const integrationOptionFields = {
  memory: memoryInstanceSchema,
  principal: principalSchema.optional(),
  recall: recallSettingsSchema.optional(),
  ...failurePolicyOptionFields,
};

/** The `RecallOptions` of one recall: the integration's settings, the call's query and principal. */
export function recallOptionsFor(
  settings: RecallSettings | undefined,
  call: { query?: string | undefined; principal?: Principal | undefined },
): RecallOptions {
  return {
    ...(call.query !== undefined ? { query: call.query } : {}),
    ...(settings?.budget ? { budget: settings.budget } : {}),
    ...(settings?.layers ? { layers: settings.layers } : {}),
    ...(settings?.maxEpisodes ? { maxEpisodes: settings.maxEpisodes } : {}),
    ...(call.principal ? { principal: call.principal } : {}),
  };
}
