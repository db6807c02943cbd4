import { z } from 'zod/v4';
import { invalidInput } from '../errors/strata-error.ts';
import { parseArgs } from '../store/define-store.ts';
import type { MemoryPolicy, Principal } from './types.ts';

export const defaultPolicy: Readonly<MemoryPolicy> = Object.freeze({
  reviewThreshold: 0.75,
  staleAfterDays: 90,
  recencyHalfLifeDays: 30,
  duplicateSimilarity: 0.95,
  longTermScope: 'shared',
  defaultBudgetTokens: 2000,
  workingShare: 0.4,
  extractionContextTurns: 4,
  roles: ['member', 'manager', 'admin'],
});

const policySchema = z
  .object({
    reviewThreshold: z.number().min(0).max(1),
    staleAfterDays: z.number().positive(),
    recencyHalfLifeDays: z.number().positive(),
    duplicateSimilarity: z.number().min(0).max(1),
    longTermScope: z.enum(['shared', 'thread']),
    defaultBudgetTokens: z.number().int().min(16).max(1_000_000),
    workingShare: z.number().min(0).max(1),
    extractionContextTurns: z.number().int().min(0).max(50),
    roles: z.array(z.string().min(1)).min(1),
  })
  .partial()
  .strict();

/** Merges overrides onto the defaults, rejecting unknown or out-of-range fields. */
export function resolvePolicy(overrides: Partial<MemoryPolicy> = {}): Readonly<MemoryPolicy> {
  const parsed = parseArgs(policySchema, overrides, 'createMemory: policy');
  return Object.freeze({ ...defaultPolicy, ...parsed });
}

/** A principal's access level: explicit `level`, else its role's index in `policy.roles`, else 0. */
export function accessLevelOf(principal: Principal | undefined, policy: Pick<MemoryPolicy, 'roles'>): number {
  if (!principal) return 0;
  if (principal.level !== undefined) return principal.level;
  if (principal.role === undefined) return 0;
  const index = policy.roles.indexOf(principal.role);
  if (index < 0) {
    throw invalidInput(`principal.role "${principal.role}" is not one of: ${policy.roles.join(', ')}`, {
      role: principal.role,
    });
  }
  return index;
}
