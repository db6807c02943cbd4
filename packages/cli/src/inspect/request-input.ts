import { invalidInput, type Scope } from '@strata-memory/core';
import { z } from 'zod/v4';
import { parseScopeOption } from '../scope-option.ts';

/**
 * The shapes the inspector's JSON API accepts, checked with zod at the HTTP boundary. A scope is
 * written as on the command line (`org=acme,user=maria`); the engine validates it again.
 */

const scopeText = z.string().trim().min(1, 'is required (e.g. org=acme,user=maria)');
const text = z.string().trim().min(1).max(1024);
const id = z.string().min(1).max(256);

export const scopeQuery = z.object({ scope: scopeText }).loose();
/** `root` narrows the listing to a subtree; without it, every scope in the store. */
export const scopesQuery = z.object({ root: scopeText.optional() });
export const factsQuery = z.object({
  scope: scopeText,
  entity: text.optional(),
  entityType: text.optional(),
});
export const historyQuery = z.object({
  scope: scopeText,
  entity: text,
  entityType: text.optional(),
  key: text,
});
export const reviewQuery = z.object({
  scope: scopeText,
  status: z.enum(['pending', 'approved', 'rejected', 'all']).default('pending'),
});
export const impactQuery = z.object({
  scope: scopeText,
  node: id,
  maxHops: z.coerce.number().int().min(1).max(6).optional(),
});
export const auditQuery = z.object({
  scope: scopeText,
  action: z.string().trim().max(128).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(50),
  cursor: z.string().max(1024).optional(),
});
export const episodesQuery = z.object({
  scope: scopeText,
  q: z.string().max(10_000).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

export const correctBody = z
  .object({
    scope: scopeText,
    entity: text,
    entityType: text.optional(),
    key: text,
    value: z.json(),
  })
  .strict();
export const approveBody = z
  .object({
    scope: scopeText,
    id,
    note: z.string().max(10_000).optional(),
    fact: z.object({ entity: text, entityType: text.optional(), key: text }).strict().optional(),
  })
  .strict();
export const rejectBody = z
  .object({ scope: scopeText, id, note: z.string().max(10_000).optional() })
  .strict();
export const recallBody = z
  .object({
    scope: scopeText,
    query: z.string().trim().max(10_000).optional(),
    budgetTokens: z.number().int().min(50).max(200_000).optional(),
  })
  .strict();

/** Parses input with a schema; a mismatch is an `invalid_input` error naming each bad field. */
export function parseInput<T extends z.ZodType>(schema: T, input: unknown, what: string): z.output<T> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issues = result.error.issues.map((issue) => `${issue.path.join('.') || what} ${issue.message}`);
  throw invalidInput(`${what}: ${issues.join('; ')}`, { issues });
}

/** A scope from its command-line form (`org=acme,user=maria`). */
export function scopeOf(text: string): Scope {
  return parseScopeOption(text);
}
