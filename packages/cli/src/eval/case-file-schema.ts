import { type Scope, StrataError } from '@strata-memory/core';
import { principalSchema } from '@strata-memory/core/integration';
import { z } from 'zod/v4';
import { parseScopeOption } from '../scope-option.ts';
import { parseDuration } from './duration.ts';

/**
 * The format of an eval case file (`strata eval cases.yaml`): defaults, then cases. Each case runs
 * on a fresh memory: setup turns observed at their times, optional actions, one recall, and the
 * expectations checked against what the recall and the memory return.
 */

const LEVELS = { org: 'orgId', user: 'userId', agent: 'agentId', thread: 'threadId' } as const;

/** `org=acme,user=maria` (as `--scope` takes it) or `{ org: acme, user: maria }`. */
export const scopeSchema = z
  .union([
    z.string(),
    z
      .object({
        org: z.string().optional(),
        user: z.string().optional(),
        agent: z.string().optional(),
        thread: z.string().optional(),
      })
      .strict(),
  ])
  .transform((value, ctx): Scope => {
    const spec =
      typeof value === 'string'
        ? value
        : Object.entries(LEVELS)
            .filter(([name]) => value[name as keyof typeof LEVELS] !== undefined)
            .map(([name]) => `${name}=${value[name as keyof typeof LEVELS]}`)
            .join(',');
    try {
      return parseScopeOption(spec);
    } catch (error) {
      ctx.addIssue({
        code: 'custom',
        message: StrataError.isInstance(error)
          ? error.message.replace(/^--scope: /, '')
          : `not a scope: ${String(error)}`,
      });
      return z.NEVER;
    }
  });

/** An ISO date or date-time (`2026-03-02`, `2026-03-02T09:00:00Z`), as epoch milliseconds. */
const instantSchema = z.union([z.string(), z.date()]).transform((value, ctx) => {
  const time = value instanceof Date ? value.getTime() : Date.parse(value);
  if (Number.isNaN(time)) {
    ctx.addIssue({
      code: 'custom',
      message: `"${String(value)}" is not an ISO date, e.g. 2026-03-02T09:00:00Z`,
    });
    return z.NEVER;
  }
  return time;
});

/** `90m`, `2h`, `3d`, `1w` (also combined: `1d12h`), as milliseconds. */
const durationSchema = z.union([z.string(), z.number()]).transform((value, ctx) => {
  const ms = parseDuration(String(value));
  if (ms === undefined) {
    ctx.addIssue({
      code: 'custom',
      message: `"${String(value)}" is not a duration; write e.g. 90m, 2h, 3d or 1w`,
    });
    return z.NEVER;
  }
  return ms;
});

const textSchema = z.string().trim().min(1, 'must not be empty');
const textListSchema = z
  .union([textSchema, z.array(textSchema)])
  .transform((v) => (Array.isArray(v) ? v : [v]));
const valueSchema = z.union([z.string(), z.number(), z.boolean()]);
const accessSchema = z.union([z.string(), z.number().int().min(0)]);

/** One message observed before the recall. */
export const turnSchema = z
  .object({
    content: textSchema,
    role: z.enum(['user', 'assistant', 'system', 'tool']).default('user'),
    /** Speaker name. */
    name: z.string().optional(),
    scope: scopeSchema.optional(),
    /** When it was said (absolute). */
    at: instantSchema.optional(),
    /** When it was said, after the previous turn (default: one minute). */
    after: durationSchema.optional(),
    principal: principalSchema.optional(),
    /** Minimum access level to see what is learned from it (a role name or a level). */
    access: accessSchema.optional(),
  })
  .strict()
  .refine((turn) => turn.at === undefined || turn.after === undefined, {
    message: 'give either at or after, not both',
    path: ['after'],
  });

const factWriteSchema = z
  .object({
    entity: textSchema,
    key: textSchema,
    value: valueSchema,
    entityType: z.string().optional(),
    scope: scopeSchema.optional(),
    principal: principalSchema.optional(),
  })
  .strict();

const rememberSchema = factWriteSchema.extend({
  confidence: z.number().min(0).max(1).optional(),
  access: accessSchema.optional(),
});

/** `approve: "90 days"` or `approve: { text: "90 days", scope: … }`: the pending item whose text contains it. */
const reviewDecisionSchema = z
  .union([
    textSchema,
    z
      .object({ text: textSchema, scope: scopeSchema.optional(), principal: principalSchema.optional() })
      .strict(),
  ])
  .transform((v) => (typeof v === 'string' ? { text: v } : v));

const consolidateSchema = z
  .union([z.literal(true), z.object({ scope: scopeSchema.optional() }).strict()])
  .transform((v) => (v === true ? {} : v));

export const ACTION_NAMES = [
  'correct',
  'remember',
  'approve',
  'reject',
  'consolidate',
  'forget',
  'advance',
] as const;

/** One step between the setup and the recall; exactly one key names what it does. */
export const actionSchema = z
  .object({
    correct: factWriteSchema.optional(),
    remember: rememberSchema.optional(),
    approve: reviewDecisionSchema.optional(),
    reject: reviewDecisionSchema.optional(),
    consolidate: consolidateSchema.optional(),
    forget: scopeSchema.optional(),
    advance: durationSchema.optional(),
  })
  .strict()
  .superRefine((action, ctx) => {
    const given = ACTION_NAMES.filter((name) => action[name] !== undefined);
    if (given.length !== 1) {
      ctx.addIssue({
        code: 'custom',
        message:
          given.length === 0
            ? `an action needs one of ${ACTION_NAMES.join(', ')}`
            : `one action per list item; this one has ${given.join(' and ')}`,
      });
    }
  });

const recallSchema = z
  .object({
    query: textSchema,
    scope: scopeSchema.optional(),
    budget: z.number().int().positive().optional(),
    principal: principalSchema.optional(),
  })
  .strict();

const factExpectationSchema = z
  .object({
    entity: textSchema,
    key: textSchema,
    entityType: z.string().optional(),
    /** The current value, compared as text ignoring case. */
    value: valueSchema.optional(),
    /** True: no current value for this key may be visible. */
    absent: z.literal(true).optional(),
    status: z.enum(['active', 'stale']).optional(),
    confidenceAtLeast: z.number().min(0).max(1).optional(),
    scope: scopeSchema.optional(),
  })
  .strict()
  .superRefine((fact, ctx) => {
    if (fact.absent && (fact.value !== undefined || fact.status || fact.confidenceAtLeast !== undefined)) {
      ctx.addIssue({ code: 'custom', message: 'absent: true takes no value, status or confidenceAtLeast' });
    }
    if (!fact.absent && fact.value === undefined) {
      ctx.addIssue({ code: 'custom', message: 'give the expected value (or absent: true)', path: ['value'] });
    }
  });

const expectSchema = z
  .object({
    /** Texts the rendered block must contain (ignoring case). */
    contains: textListSchema.optional(),
    /** Texts the rendered block must not contain (ignoring case). */
    notContains: textListSchema.optional(),
    facts: z.array(factExpectationSchema).optional(),
    /** Texts each of which some pending review item must contain. */
    review: textListSchema.optional(),
    tokensAtMost: z.number().int().positive().optional(),
  })
  .strict()
  .refine((e) => Object.values(e).some((v) => v !== undefined), {
    message: 'expect needs at least one of contains, notContains, facts, review, tokensAtMost',
  });

export const caseSchema = z
  .object({
    name: textSchema,
    /** Default scope of the case's turns, actions and recall. */
    scope: scopeSchema.optional(),
    /** The clock's start (default: the file's `defaults.start`). */
    start: instantSchema.optional(),
    setup: z.array(turnSchema).min(1, 'needs at least one turn'),
    actions: z.array(actionSchema).optional(),
    recall: recallSchema,
    expect: expectSchema,
  })
  .strict();

export const DEFAULT_START = '2026-01-05T09:00:00Z';

export const caseFileSchema = z
  .object({
    defaults: z
      .object({
        scope: scopeSchema.optional(),
        start: instantSchema.optional(),
        budget: z.number().int().positive().optional(),
        principal: principalSchema.optional(),
      })
      .strict()
      .optional(),
    cases: z.array(caseSchema).min(1, 'needs at least one case'),
  })
  .strict()
  .superRefine((file, ctx) => {
    const seen = new Set<string>();
    file.cases.forEach((c, i) => {
      if (seen.has(c.name)) {
        ctx.addIssue({
          code: 'custom',
          message: `two cases are named "${c.name}"`,
          path: ['cases', i, 'name'],
        });
      }
      seen.add(c.name);
      if (c.scope !== undefined || file.defaults?.scope !== undefined) return;
      const missing = 'needs a scope (here, in the case, or in defaults)';
      c.setup.forEach((turn, j) => {
        if (!turn.scope)
          ctx.addIssue({ code: 'custom', message: missing, path: ['cases', i, 'setup', j, 'scope'] });
      });
      if (!c.recall.scope)
        ctx.addIssue({ code: 'custom', message: missing, path: ['cases', i, 'recall', 'scope'] });
      (c.actions ?? []).forEach((action, j) => {
        for (const name of ['correct', 'remember', 'approve', 'reject', 'consolidate'] as const) {
          const step = action[name];
          if (step && !step.scope) {
            ctx.addIssue({
              code: 'custom',
              message: missing,
              path: ['cases', i, 'actions', j, name, 'scope'],
            });
          }
        }
      });
    });
  });

export type CaseFile = z.output<typeof caseFileSchema>;
export type EvalCase = z.output<typeof caseSchema>;
export type Turn = z.output<typeof turnSchema>;
export type Action = z.output<typeof actionSchema>;
export type FactExpectation = z.output<typeof factExpectationSchema>;
