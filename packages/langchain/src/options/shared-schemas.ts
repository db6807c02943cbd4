import type { Memory } from '@strata-memory/core';
import { z } from 'zod/v4';

/** Schemas for the options every adapter surface shares, validated at construction. */

export const memorySchema = z.custom<Memory>(
  (value) =>
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Memory).recall === 'function' &&
    typeof (value as Memory).observe === 'function',
  'must be a Memory (createMemory(...))',
);

export const principalSchema = z
  .object({ id: z.string().min(1), role: z.string().optional(), level: z.number().int().min(0).optional() })
  .strict();

export const layerSchema = z.enum(['working', 'summary', 'facts', 'episodes', 'graph']);

/** `{ tokens }` budget of a recall. */
export const budgetSchema = z.object({ tokens: z.number().int().positive() }).strict();
