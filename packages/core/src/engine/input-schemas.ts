import { z } from 'zod/v4';
import { idSchema } from '../scope/scope.ts';
import { LIMITS } from '../store/limits.ts';
import { jsonValueSchema, metadataSchema, roleSchema } from '../store/schemas.ts';
import { epochMsSchema } from '../validation/epoch-time.ts';
import { FACT_INDEX_KEY, MAX_INDEX_TEXTS, MESSAGE_ACCESS_KEY, SOURCE_EPISODES_KEY } from './metadata-keys.ts';

/**
 * Schemas for the arguments of the public `Memory` API. Every call parses its input with one of
 * these before touching the store, so bad input fails with `invalid_input` (or
 * `payload_too_large`) and stores nothing. Scopes are parsed separately with `parseScope`.
 */

const nameSchema = z.string().trim().min(1, 'must not be empty').max(LIMITS.maxNameChars);
const unitSchema = z.number().min(0).max(1);

export const principalSchema = z
  .object({
    id: idSchema,
    role: z.string().min(1).max(LIMITS.maxNameChars).optional(),
    level: z.number().int().min(0).max(1_000_000).optional(),
  })
  .strict();

/** A role name from `policy.roles` or a numeric level. */
export const accessSchema = z.union([
  z.string().min(1).max(LIMITS.maxNameChars),
  z.number().int().min(0).max(1_000_000),
]);

const principalOption = { principal: principalSchema.optional() };
export const principalOptionsSchema = z.object(principalOption).strict().optional();

export const observeInputSchema = z
  .object({
    id: idSchema.optional(),
    role: roleSchema,
    content: z.string().max(LIMITS.maxTextChars, `must be at most ${LIMITS.maxTextChars} characters`),
    name: nameSchema.optional(),
    at: z.union([z.date(), z.number(), z.string().min(1).max(64)]).optional(),
    toolCalls: z
      .array(z.object({ id: idSchema, name: nameSchema, input: jsonValueSchema }).strict())
      .max(64)
      .optional(),
    toolCallId: idSchema.optional(),
    metadata: metadataSchema
      .refine((metadata) => !Object.hasOwn(metadata, MESSAGE_ACCESS_KEY), {
        message: `must not set the engine's own key ${MESSAGE_ACCESS_KEY} (use access)`,
      })
      .optional(),
    importance: unitSchema.optional(),
    access: accessSchema.optional(),
  })
  .strict();

export const observeBatchSchema = z
  .array(observeInputSchema)
  .min(1, 'observe needs at least one message')
  .max(LIMITS.maxBatch, `observe takes at most ${LIMITS.maxBatch} messages per call`);

export const observeOptionsSchema = z
  .object({
    ...principalOption,
    extract: z.boolean().optional(),
    signal: z.instanceof(AbortSignal).optional(),
  })
  .strict()
  .optional();

export const factKeySchema = z
  .object({
    entityType: nameSchema.optional(),
    entity: nameSchema,
    key: nameSchema,
  })
  .strict();

/** Fact metadata keys the engine sets itself; a caller's `metadata` may not. */
const ENGINE_FACT_METADATA = ['correction', 'previousValue', SOURCE_EPISODES_KEY, FACT_INDEX_KEY];

export const rememberSchema = factKeySchema
  .extend({
    value: jsonValueSchema,
    confidence: unitSchema.optional(),
    ...principalOption,
    access: accessSchema.optional(),
    metadata: metadataSchema
      .refine((metadata) => !ENGINE_FACT_METADATA.some((key) => Object.hasOwn(metadata, key)), {
        message: `must not set the engine's own keys (${ENGINE_FACT_METADATA.join(', ')})`,
      })
      .optional(),
    index: z
      .object({
        texts: z
          .array(
            z
              .string()
              .max(LIMITS.maxTextChars, `must be at most ${LIMITS.maxTextChars} characters`)
              .refine((text) => text.trim().length > 0, 'must not be blank'),
          )
          .max(MAX_INDEX_TEXTS, `takes at most ${MAX_INDEX_TEXTS} texts`),
        speaker: nameSchema.optional(),
      })
      .strict()
      .optional(),
  })
  .strict();

export const correctSchema = factKeySchema
  .extend({ value: jsonValueSchema, via: nameSchema.optional(), ...principalOption })
  .strict();

export const factFilterSchema = z
  .object({ entityType: nameSchema.optional(), entity: nameSchema.optional() })
  .strict()
  .optional();

/** What `facts.find` and `facts.search` select: the store's `facts.find` filters, engine-side names. */
const factQueryFields = {
  entityType: nameSchema.optional(),
  entity: nameSchema.optional(),
  /** Entity ids that start with this, as stored (not normalised). */
  entityPrefix: z.string().min(1).max(LIMITS.maxNameChars).optional(),
  key: nameSchema.optional(),
  where: z.record(z.string(), z.unknown()).optional(),
  within: z.enum(['visible', 'exact', 'subtree']).optional(),
};

export const factFindSchema = z
  .object({
    ...factQueryFields,
    order: z.enum(['created', 'confirmed']).optional(),
    exclude: z.array(idSchema).max(LIMITS.maxBatch).optional(),
    limit: z.number().int().min(1).max(LIMITS.maxLimit).optional(),
    offset: z.number().int().min(0).optional(),
    cursor: z.string().max(1024).optional(),
  })
  .strict()
  .optional();

export const factSearchSchema = z
  .object({
    ...factQueryFields,
    query: z.string().max(10_000),
    /** Index episodes ranked per scope searched (the most facts found per scope). */
    candidates: z.number().int().min(1).max(200).optional(),
  })
  .strict();

export const nodeRefSchema = z
  .object({ id: idSchema.optional(), name: nameSchema.optional(), type: nameSchema.optional() })
  .strict()
  .refine((ref) => ref.id !== undefined || ref.name !== undefined, {
    message: 'a node reference needs an id or a name',
  });

export const upsertNodeSchema = z
  .object({
    type: nameSchema.optional(),
    name: nameSchema,
    aliases: z.array(nameSchema).max(64).optional(),
    properties: metadataSchema.optional(),
    ...principalOption,
    access: accessSchema.optional(),
  })
  .strict();

const relationSchema = nameSchema.regex(
  /^[A-Za-z][A-Za-z0-9_ ]*$/,
  'must be a relation name like depends_on',
);

export const relateSchema = z
  .object({
    from: nodeRefSchema,
    relation: relationSchema,
    to: nodeRefSchema,
    properties: metadataSchema.optional(),
    confidence: unitSchema.optional(),
    ...principalOption,
    access: accessSchema.optional(),
  })
  .strict();

export const traverseSchema = z
  .object({
    from: z.union([nodeRefSchema, z.array(nodeRefSchema).min(1).max(100)]),
    relations: z.array(relationSchema).max(64).optional(),
    direction: z.enum(['out', 'in', 'both']).optional(),
    maxHops: z.number().int().min(1).max(LIMITS.maxHops).optional(),
    ...principalOption,
  })
  .strict();

export const impactSchema = z
  .object({
    node: nodeRefSchema,
    maxHops: z.number().int().min(1).max(LIMITS.maxHops).optional(),
    ...principalOption,
  })
  .strict();

export const supersedeSchema = z
  .object({ id: idSchema, reason: z.string().max(2_000).optional(), ...principalOption })
  .strict();

export const stateKeySchema = z.string().min(1, 'must not be empty').max(LIMITS.maxNameChars);

export const stateSetOptionsSchema = z
  .object({ expectedVersion: z.number().int().min(0).optional() })
  .strict()
  .optional();

export const claimOptionsSchema = z
  .object({
    owner: idSchema.optional(),
    leaseMs: z
      .number()
      .int()
      .min(1)
      .max(30 * 24 * 3_600_000)
      .optional(),
  })
  .strict()
  .optional();

export const completeOptionsSchema = z
  .object({ owner: idSchema, result: jsonValueSchema.optional() })
  .strict();
export const releaseOptionsSchema = z.object({ owner: idSchema }).strict();

export const reviewListOptionsSchema = z
  .object({
    status: z
      .array(z.enum(['pending', 'approved', 'rejected']))
      .min(1)
      .optional(),
    ...principalOption,
  })
  .strict()
  .optional();

export const reviewDecisionOptionsSchema = z
  .object({ ...principalOption, note: z.string().max(10_000).optional() })
  .strict()
  .optional();

export const reviewApproveOptionsSchema = z
  .object({ ...principalOption, note: z.string().max(10_000).optional(), fact: factKeySchema.optional() })
  .strict()
  .optional();

export const auditListOptionsSchema = z
  .object({
    actions: z.array(z.string().min(1).max(128)).max(64).optional(),
    since: epochMsSchema.optional(),
    limit: z.number().int().min(1).max(LIMITS.maxLimit).optional(),
    cursor: z.string().max(1024).optional(),
  })
  .strict()
  .optional();

export const consolidateOptionsSchema = z
  .object({
    dryRun: z.boolean().optional(),
    scope: z.unknown(),
    archiveBelow: z.number().min(0).max(1).optional(),
  })
  .strict();

export const idArgumentSchema = idSchema;
