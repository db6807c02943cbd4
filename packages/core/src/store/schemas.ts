import { z } from 'zod/v4';
import { idSchema, normalizeScope, scopeSchema } from '../scope/scope.ts';
import { epochMsSchema } from '../validation/epoch-time.ts';
import { inputShapeIssue } from '../validation/input-shape.ts';
import { LIMITS } from './limits.ts';
import { contentHash, createId } from './normalize.ts';
import type { JsonValue } from './records.ts';
import { reviewDedupeKey } from './review-key.ts';
import { type ValueCondition, valueConditions } from './value-filter.ts';

/**
 * Zod schemas for every Store call's argument. `defineStore` parses each call with them, so a
 * driver only ever sees valid, complete arguments (ids, times and defaults filled in), and a bad
 * call fails with a clear error before anything is stored.
 */

const now = () => Date.now();

export const timestampSchema = epochMsSchema;
const textSchema = z.string().max(LIMITS.maxTextChars, `must be at most ${LIMITS.maxTextChars} characters`);
const nameSchema = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(LIMITS.maxNameChars, `must be at most ${LIMITS.maxNameChars} characters`);
/** Lower-case type/key/relation names: `lead time`, `depends_on`. */
const labelSchema = nameSchema.transform((s) => s.toLowerCase());
const limitSchema = z.number().int().min(1).max(LIMITS.maxLimit);
const cursorSchema = z.string().max(1024).optional();
const accessLevelSchema = z.number().int().min(0).max(1_000_000);
const readLevelSchema = accessLevelSchema.optional();
const unitSchema = z.number().min(0).max(1);
const idsSchema = z.array(idSchema).max(LIMITS.maxBatch);

/**
 * A JSON value of at most `maxBytes` bytes (as UTF-8 JSON) and `LIMITS.maxJsonDepth` levels, with
 * no cycle and only strings every store can hold (see `input-shape.ts`).
 */
export function jsonWithin<T extends z.ZodType>(schema: T, maxBytes: number) {
  const shaped = z.custom<z.input<T>>().superRefine((value, ctx) => {
    const shape = inputShapeIssue(value, { maxDepth: LIMITS.maxJsonDepth });
    if (shape)
      ctx.addIssue({
        code: 'custom',
        input: value,
        path: shape.path === '' ? [] : shape.path.split('.'),
        message: shape.message,
      });
  });
  // Only a value of sane shape reaches `schema`, whose recursion a deep or circular one overflowed.
  return shaped.pipe(schema as unknown as z.ZodType<z.output<T>, z.input<T>>).superRefine((value, ctx) => {
    const bytes = Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');
    if (bytes > maxBytes) {
      ctx.addIssue({
        code: 'too_big',
        origin: 'string',
        maximum: maxBytes,
        inclusive: true,
        input: value,
        message: `must be at most ${maxBytes} bytes of JSON (got ${bytes})`,
      });
    }
  });
}

/**
 * Conditions on a JSON object's top-level fields, `{ field: value }` or `{ field: { $op: operand } }`,
 * turned into a list of `{ field, op, value }`; an unknown operator or a bad operand is an issue.
 */
export const valueFilterSchema = jsonWithin(
  z.record(z.string().min(1).max(LIMITS.maxNameChars), z.json()),
  LIMITS.maxJsonBytes,
).transform((filter, ctx): ValueCondition[] => {
  const result = valueConditions(filter as Record<string, JsonValue>);
  if ('issue' in result) {
    ctx.addIssue({ code: 'custom', input: filter, path: result.issue.path, message: result.issue.message });
    return z.NEVER;
  }
  return result.conditions;
});

/** Any JSON value within the general limits (1 MB, `maxJsonDepth` levels, storable strings). */
export const jsonValueSchema = jsonWithin(z.json(), LIMITS.maxJsonBytes);
export const metadataSchema = jsonWithin(z.record(z.string(), z.json()), LIMITS.maxJsonBytes);
const factValueSchema = jsonWithin(z.json(), LIMITS.maxFactValueBytes);
const stateValueSchema = jsonWithin(z.json(), LIMITS.maxJsonBytes);

/**
 * An embedding: 1..`maxDimensions` finite numbers. Checked with one loop instead of a zod schema
 * per element (which cost about a third of an episode write's time at 384 dimensions), and copied,
 * so the stored vector shares nothing with the caller's array.
 */
export const vectorSchema = z.custom<number[]>().transform((value: unknown, ctx): number[] => {
  if (!Array.isArray(value)) {
    ctx.addIssue({
      code: 'invalid_type',
      expected: 'array',
      input: value,
      message: 'must be an array of numbers',
    });
    return z.NEVER;
  }
  if (value.length < 1) {
    ctx.addIssue({
      code: 'too_small',
      origin: 'array',
      minimum: 1,
      inclusive: true,
      input: value,
      message: 'must have at least 1 dimension',
    });
    return z.NEVER;
  }
  if (value.length > LIMITS.maxDimensions) {
    ctx.addIssue({
      code: 'too_big',
      origin: 'array',
      maximum: LIMITS.maxDimensions,
      inclusive: true,
      input: value,
      message: `must have at most ${LIMITS.maxDimensions} dimensions`,
    });
    return z.NEVER;
  }
  for (let i = 0; i < value.length; i++) {
    const x: unknown = value[i];
    if (typeof x !== 'number' || !Number.isFinite(x)) {
      ctx.addIssue({
        code: 'invalid_type',
        expected: 'number',
        input: x,
        path: [i],
        message: 'must be a finite number',
      });
      return z.NEVER;
    }
  }
  // A packed copy: reads of it stay on V8's fast path for arrays of doubles.
  return (value as number[]).slice();
});

export const roleSchema = z.enum(['system', 'user', 'assistant', 'tool']);

export const provenanceSchema = z
  .object({
    source: z.enum(['observation', 'extraction', 'human', 'api', 'consolidation']),
    messageId: idSchema.optional(),
    episodeId: idSchema.optional(),
    threadId: idSchema.optional(),
    principalId: idSchema.optional(),
    extractor: nameSchema.optional(),
    via: nameSchema.optional(),
    at: timestampSchema.default(now),
  })
  .strict();

/** Rows of a listing's order to skip (offset paging, instead of a cursor). */
const offsetSchema = z.number().int().min(0).max(1_000_000);
const cursorOrOffset = (args: { offset?: number | undefined; cursor?: string | undefined }) =>
  args.offset === undefined || args.cursor === undefined;
const cursorOrOffsetIssue = { message: 'give a cursor or an offset, not both', path: ['offset'] };

/**
 * Metadata equality, `{ key: value }`: each top-level key must hold an equal JSON value (deep,
 * object key order aside). Values are compared as given, never read as operators. Drivers receive
 * the `$eq` conditions of `value-filter.ts`, so they reuse its SQL.
 */
const metadataEqualsSchema = jsonWithin(
  z.record(z.string().min(1).max(LIMITS.maxNameChars), z.json()),
  LIMITS.maxJsonBytes,
).transform((filter): ValueCondition[] =>
  Object.entries(filter as Record<string, JsonValue>).map(([field, value]) => ({ field, op: '$eq', value })),
);

/** One key of a path into metadata: letters, digits, `_` and `-`. */
const metadataPathKeySchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1 to 64 letters, digits, "_" or "-"');

const threadScopeSchema = scopeSchema.refine((s) => s.threadId !== undefined, {
  message: 'a thread operation needs scope.threadId',
});

// ---------------------------------------------------------------- threads and messages

export const newMessageSchema = z
  .object({
    id: idSchema.default(() => createId('msg')),
    role: roleSchema,
    content: textSchema,
    name: nameSchema.optional(),
    toolCalls: z
      .array(
        z
          .object({ id: idSchema, name: nameSchema, input: jsonWithin(z.json(), LIMITS.maxJsonBytes) })
          .strict(),
      )
      .max(64)
      .optional(),
    toolCallId: idSchema.optional(),
    createdAt: timestampSchema.default(now),
    metadata: metadataSchema.default({}),
  })
  .strict();

/** Fails a list in which two items share `what` (a restore batch must not repeat a key). */
function uniqueBy<T>(what: string, keyOf: (item: T) => unknown) {
  return (items: T[], ctx: z.RefinementCtx) => {
    const seen = new Set<unknown>();
    for (const [index, item] of items.entries()) {
      const key = keyOf(item);
      if (seen.has(key)) {
        ctx.addIssue({
          code: 'custom',
          path: [index, what],
          input: item,
          message: `repeats ${what} ${String(key)}`,
        });
      }
      seen.add(key);
    }
  };
}

export const threadArgs = {
  upsert: z
    .object({
      scope: threadScopeSchema,
      title: nameSchema.optional(),
      metadata: metadataSchema.optional(),
      at: timestampSchema.default(now),
    })
    .strict(),
  get: z.object({ scope: threadScopeSchema }).strict(),
  lookup: z.object({ threadId: idSchema }).strict(),
  list: z
    .object({
      scope: scopeSchema,
      /** Which scope levels a listed thread has set (`true`) or unset (`false`); a level left out is either. */
      levels: z
        .object({
          orgId: z.boolean().optional(),
          userId: z.boolean().optional(),
          agentId: z.boolean().optional(),
        })
        .strict()
        .optional(),
      /** Top-level metadata keys each listed thread holds with an equal JSON value (all of them). */
      metadata: metadataEqualsSchema.optional(),
      /** By `createdAt` or `updatedAt` (default: most recently updated first); ties by scope, same direction. */
      order: z
        .object({ field: z.enum(['createdAt', 'updatedAt']), direction: z.enum(['asc', 'desc']) })
        .strict()
        .default({ field: 'updatedAt', direction: 'desc' }),
      limit: limitSchema.default(50),
      /** Skips this many threads of the order (instead of a cursor). */
      offset: offsetSchema.optional(),
      cursor: cursorSchema,
      /** Also count every matching thread (`total` on the page). */
      withTotal: z.boolean().default(false),
    })
    .strict()
    .refine(cursorOrOffset, cursorOrOffsetIssue),
  update: z
    .object({
      scope: threadScopeSchema,
      patch: z
        .object({
          title: nameSchema.optional(),
          metadata: metadataSchema.optional(),
          summary: textSchema.optional(),
          summarizedThroughSeq: z.number().int().nonnegative().optional(),
        })
        .strict(),
      at: timestampSchema.default(now),
    })
    .strict(),
  delete: z.object({ scope: threadScopeSchema }).strict(),
  appendMessages: z
    .object({ scope: threadScopeSchema, messages: z.array(newMessageSchema).min(1).max(LIMITS.maxBatch) })
    .strict(),
  listMessages: z
    .object({
      scope: threadScopeSchema,
      limit: limitSchema.default(100),
      order: z.enum(['asc', 'desc']).default('asc'),
      afterSeq: z.number().int().nonnegative().optional(),
      beforeSeq: z.number().int().nonnegative().optional(),
    })
    .strict(),
  findMessages: z
    .object({
      /** The threads to read (each at exactly its scope); at most 100. */
      threads: z.array(threadScopeSchema).min(1).max(100),
      /** Only messages created at or after this time. */
      since: timestampSchema.optional(),
      /** Only messages created at or before this time. */
      until: timestampSchema.optional(),
      /** Only messages with one of these roles. */
      roles: z.array(roleSchema).min(1).max(4).optional(),
      /** Keys of the message metadata object at `metadataAt` (default: the top level) with equal JSON values. */
      metadata: metadataEqualsSchema.optional(),
      /** Where in the message metadata `metadata` applies: a path of object keys. */
      metadataAt: z.array(metadataPathKeySchema).min(1).max(8).optional(),
      /** By `createdAt`, then thread scope and `seq`, in this direction. */
      order: z.enum(['asc', 'desc']).default('asc'),
      limit: limitSchema.default(100),
      offset: offsetSchema.optional(),
      /** Also count every matching message (`total` on the page). */
      withTotal: z.boolean().default(false),
    })
    .strict(),
  getMessages: z.object({ scope: threadScopeSchema, ids: idsSchema }).strict(),
  deleteMessages: z.object({ scope: threadScopeSchema, ids: idsSchema }).strict(),
  restore: z
    .object({
      thread: z
        .object({
          scope: threadScopeSchema,
          title: nameSchema.optional(),
          metadata: metadataSchema,
          summary: textSchema.optional(),
          summarizedThroughSeq: z.number().int().nonnegative().optional(),
          createdAt: timestampSchema,
          updatedAt: timestampSchema,
        })
        .strict(),
      messages: z
        .array(
          newMessageSchema.extend({ id: idSchema, seq: z.number().int().min(1), createdAt: timestampSchema }),
        )
        .max(LIMITS.maxBatch)
        .superRefine(uniqueBy('seq', (m) => m.seq))
        .superRefine(uniqueBy('id', (m) => m.id)),
    })
    .strict(),
};

// ---------------------------------------------------------------- episodes

export const newEpisodeSchema = z
  .object({
    id: idSchema.default(() => createId('ep')),
    scope: scopeSchema,
    text: textSchema.min(1, 'must not be empty'),
    role: roleSchema.optional(),
    speaker: nameSchema.optional(),
    occurredAt: timestampSchema,
    createdAt: timestampSchema.default(now),
    importance: unitSchema.default(0.5),
    accessCount: z.number().int().nonnegative().default(0),
    lastAccessedAt: timestampSchema.optional(),
    embedding: vectorSchema.optional(),
    contentHash: z.string().min(1).max(128).optional(),
    status: z.enum(['active', 'merged', 'archived']).default('active'),
    mergedInto: idSchema.optional(),
    accessLevel: accessLevelSchema.default(0),
    provenance: provenanceSchema,
    metadata: metadataSchema.default({}),
  })
  .strict()
  .transform((e) => ({ ...e, contentHash: e.contentHash ?? contentHash(e.text) }));

const episodeStatusesSchema = z
  .array(z.enum(['active', 'merged', 'archived']))
  .min(1)
  .default(['active']);

const episodeSearchFields = {
  scope: scopeSchema,
  accessLevel: readLevelSchema,
  limit: limitSchema.default(20),
  status: episodeStatusesSchema,
  since: timestampSchema.optional(),
  until: timestampSchema.optional(),
};

export const episodeArgs = {
  put: z.object({ episodes: z.array(newEpisodeSchema).min(1).max(LIMITS.maxBatch) }).strict(),
  get: z.object({ scope: scopeSchema, ids: idsSchema, accessLevel: readLevelSchema }).strict(),
  list: z
    .object({
      ...episodeSearchFields,
      limit: limitSchema.default(50),
      order: z.enum(['asc', 'desc']).default('desc'),
      cursor: cursorSchema,
    })
    .strict(),
  count: z.object({ scope: scopeSchema, status: episodeStatusesSchema }).strict(),
  searchKeyword: z.object({ ...episodeSearchFields, query: z.string().max(10_000) }).strict(),
  searchVector: z
    .object({ ...episodeSearchFields, vector: vectorSchema, minScore: z.number().min(-1).max(1).optional() })
    .strict(),
  findByHash: z
    .object({ scope: scopeSchema, contentHashes: z.array(z.string().min(1).max(128)).max(LIMITS.maxBatch) })
    .strict(),
  update: z
    .object({
      scope: scopeSchema,
      id: idSchema,
      patch: z
        .object({
          importance: unitSchema.optional(),
          status: z.enum(['active', 'merged', 'archived']).optional(),
          mergedInto: idSchema.optional(),
          accessCount: z.number().int().nonnegative().optional(),
          lastAccessedAt: timestampSchema.optional(),
          occurredAt: timestampSchema.optional(),
          metadata: metadataSchema.optional(),
        })
        .strict(),
    })
    .strict(),
  recordAccess: z.object({ scope: scopeSchema, ids: idsSchema, at: timestampSchema.default(now) }).strict(),
  delete: z.object({ scope: scopeSchema, ids: idsSchema }).strict(),
};

// ---------------------------------------------------------------- facts

const factKeyFields = {
  entityType: labelSchema,
  /** Kept as given (ids can be case-sensitive); the engine passes names through `normalizeName`. */
  entityId: nameSchema,
  key: labelSchema,
};

export const newFactSchema = z
  .object({
    id: idSchema.default(() => createId('fact')),
    scope: scopeSchema,
    ...factKeyFields,
    value: factValueSchema,
    confidence: unitSchema.default(1),
    validFrom: timestampSchema.default(now),
    lastConfirmedAt: timestampSchema.optional(),
    accessLevel: accessLevelSchema.default(0),
    provenance: provenanceSchema,
    metadata: metadataSchema.default({}),
    createdAt: timestampSchema.default(now),
  })
  .strict()
  .transform((f) => ({ ...f, lastConfirmedAt: f.lastConfirmedAt ?? f.validFrom }));

const factStatusSchema = z.enum(['active', 'pending_review', 'superseded', 'stale']);

/** A fact version exactly as a store keeps it (what `facts.restore` writes back). */
export const storedFactSchema = z
  .object({
    id: idSchema,
    scope: scopeSchema,
    ...factKeyFields,
    value: factValueSchema,
    confidence: unitSchema,
    status: factStatusSchema,
    validFrom: timestampSchema,
    validTo: timestampSchema.optional(),
    version: z.number().int().min(1),
    supersedes: idSchema.optional(),
    supersededBy: idSchema.optional(),
    lastConfirmedAt: timestampSchema,
    accessLevel: accessLevelSchema,
    provenance: provenanceSchema,
    createdAt: timestampSchema,
    metadata: metadataSchema,
  })
  .strict();

export const factArgs = {
  insert: z.object({ fact: newFactSchema }).strict(),
  supersede: z
    .object({
      scope: scopeSchema,
      id: idSchema,
      /** When set, the call fails with `conflict` unless the current version still has this number. */
      expectedVersion: z.number().int().min(1).optional(),
      next: z
        .object({
          id: idSchema.default(() => createId('fact')),
          value: factValueSchema,
          confidence: unitSchema.default(1),
          accessLevel: accessLevelSchema.optional(),
          provenance: provenanceSchema,
          metadata: metadataSchema.default({}),
        })
        .strict(),
      at: timestampSchema.default(now),
    })
    .strict(),
  get: z.object({ scope: scopeSchema, ids: idsSchema, accessLevel: readLevelSchema }).strict(),
  find: z
    .object({
      scope: scopeSchema,
      /** Which facts `scope` reads: its own and its ancestors' (default), its own only, or its subtree's. */
      within: z.enum(['visible', 'exact', 'subtree']).default('visible'),
      accessLevel: readLevelSchema,
      entityType: labelSchema.optional(),
      entityId: nameSchema.optional(),
      /** Only these entity ids. */
      entityIds: z.array(nameSchema).max(LIMITS.maxBatch).optional(),
      /** Only entity ids that start with this (compared as stored, byte for byte). */
      entityIdPrefix: z.string().min(1).max(LIMITS.maxNameChars).optional(),
      key: labelSchema.optional(),
      /** Conditions on the value's top-level fields (see `value-filter.ts`). */
      where: valueFilterSchema.optional(),
      /** Leaves these fact ids out. */
      excludeIds: idsSchema.optional(),
      status: z.array(factStatusSchema).min(1).default(['active', 'stale']),
      /** `created`: newest first, then id descending. `confirmed`: last confirmed first, then entity id, then id. */
      order: z.enum(['created', 'confirmed']).default('created'),
      limit: limitSchema.default(100),
      /** Skips this many facts of the order (instead of a cursor). */
      offset: offsetSchema.optional(),
      cursor: cursorSchema,
    })
    .strict()
    .refine(cursorOrOffset, cursorOrOffsetIssue),
  entityPrefixes: z
    .object({
      scope: scopeSchema,
      within: z.enum(['visible', 'exact', 'subtree']).default('exact'),
      accessLevel: readLevelSchema,
      entityType: labelSchema.optional(),
      key: labelSchema.optional(),
      status: z.array(factStatusSchema).min(1).default(['active', 'stale']),
      /** Cuts each entity id at its last occurrence of this character. */
      separator: z.string().length(1, 'must be one character'),
      limit: limitSchema.default(100),
      cursor: cursorSchema,
    })
    .strict(),
  history: z.object({ scope: scopeSchema, accessLevel: readLevelSchema, ...factKeyFields }).strict(),
  update: z
    .object({
      scope: scopeSchema,
      id: idSchema,
      patch: z
        .object({
          status: z.enum(['active', 'stale']).optional(),
          lastConfirmedAt: timestampSchema.optional(),
          confidence: unitSchema.optional(),
          metadata: metadataSchema.optional(),
        })
        .strict(),
    })
    .strict(),
  delete: z.object({ scope: scopeSchema, ids: idsSchema }).strict(),
  restore: z
    .object({
      facts: z
        .array(storedFactSchema)
        .min(1)
        .max(LIMITS.maxBatch)
        .superRefine(uniqueBy('id', (f) => f.id)),
    })
    .strict(),
};

// ---------------------------------------------------------------- graph

const graphStatusSchema = z
  .array(z.enum(['active', 'superseded']))
  .min(1)
  .default(['active']);

export const newNodeSchema = z
  .object({
    id: idSchema.default(() => createId('node')),
    scope: scopeSchema,
    type: labelSchema,
    name: nameSchema,
    aliases: z.array(nameSchema).max(64).default([]),
    properties: metadataSchema.default({}),
    accessLevel: accessLevelSchema.default(0),
    provenance: provenanceSchema,
    at: timestampSchema.default(now),
  })
  .strict();

export const newEdgeSchema = z
  .object({
    id: idSchema.default(() => createId('edge')),
    scope: scopeSchema,
    from: idSchema,
    to: idSchema,
    relation: labelSchema,
    properties: metadataSchema.default({}),
    confidence: unitSchema.default(1),
    validFrom: timestampSchema.default(now),
    accessLevel: accessLevelSchema.default(0),
    provenance: provenanceSchema,
    createdAt: timestampSchema.default(now),
  })
  .strict();

const directionSchema = z.enum(['out', 'in', 'both']);

export const graphArgs = {
  upsertNode: z.object({ node: newNodeSchema }).strict(),
  getNodes: z.object({ scope: scopeSchema, ids: idsSchema, accessLevel: readLevelSchema }).strict(),
  findNodes: z
    .object({
      scope: scopeSchema,
      accessLevel: readLevelSchema,
      names: z.array(nameSchema).max(LIMITS.maxBatch),
      types: z.array(labelSchema).optional(),
      status: graphStatusSchema,
    })
    .strict(),
  listNodes: z
    .object({
      scope: scopeSchema,
      accessLevel: readLevelSchema,
      types: z.array(labelSchema).optional(),
      status: graphStatusSchema,
      limit: limitSchema.default(100),
      cursor: cursorSchema,
    })
    .strict(),
  updateNode: z
    .object({
      scope: scopeSchema,
      id: idSchema,
      patch: z
        .object({
          status: z.enum(['active', 'superseded']).optional(),
          aliases: z.array(nameSchema).max(64).optional(),
          properties: metadataSchema.optional(),
        })
        .strict(),
      at: timestampSchema.default(now),
    })
    .strict(),
  deleteNodes: z.object({ scope: scopeSchema, ids: idsSchema }).strict(),
  addEdge: z.object({ edge: newEdgeSchema }).strict(),
  listEdges: z
    .object({
      scope: scopeSchema,
      accessLevel: readLevelSchema,
      nodeIds: idsSchema.optional(),
      direction: directionSchema.default('both'),
      relations: z.array(labelSchema).optional(),
      status: graphStatusSchema,
      limit: limitSchema.default(100),
      cursor: cursorSchema,
    })
    .strict(),
  updateEdge: z
    .object({
      scope: scopeSchema,
      id: idSchema,
      patch: z
        .object({
          status: z.enum(['active', 'superseded']).optional(),
          validTo: timestampSchema.optional(),
          confidence: unitSchema.optional(),
          properties: metadataSchema.optional(),
        })
        .strict(),
    })
    .strict(),
  deleteEdges: z.object({ scope: scopeSchema, ids: idsSchema }).strict(),
  traverse: z
    .object({
      scope: scopeSchema,
      accessLevel: readLevelSchema,
      start: z.array(idSchema).min(1).max(100),
      direction: directionSchema.default('out'),
      relations: z.array(labelSchema).optional(),
      maxHops: z.number().int().min(1).max(LIMITS.maxHops).default(2),
      limit: limitSchema.default(100),
    })
    .strict(),
};

// ---------------------------------------------------------------- state and ledger

const stateKeySchema = z.string().min(1).max(LIMITS.maxNameChars);

export const stateArgs = {
  get: z.object({ scope: scopeSchema, key: stateKeySchema }).strict(),
  set: z
    .object({
      scope: scopeSchema,
      key: stateKeySchema,
      value: stateValueSchema,
      /** Fails with `conflict` unless the stored version equals this (0 = must not exist yet). */
      expectedVersion: z.number().int().min(0).optional(),
      at: timestampSchema.default(now),
    })
    .strict(),
  delete: z
    .object({ scope: scopeSchema, key: stateKeySchema, expectedVersion: z.number().int().min(1).optional() })
    .strict(),
  list: z
    .object({
      scope: scopeSchema,
      prefix: z.string().max(LIMITS.maxNameChars).optional(),
      limit: limitSchema.default(100),
      cursor: cursorSchema,
    })
    .strict(),
  restore: z
    .object({
      entries: z
        .array(
          z
            .object({
              scope: scopeSchema,
              key: stateKeySchema,
              value: stateValueSchema,
              version: z.number().int().min(1),
              updatedAt: timestampSchema,
            })
            .strict(),
        )
        .min(1)
        .max(LIMITS.maxBatch)
        .superRefine(uniqueBy('key', (e) => `${JSON.stringify(normalizeScope(e.scope))} ${e.key}`)),
    })
    .strict(),
};

export const ledgerArgs = {
  claim: z
    .object({
      scope: scopeSchema,
      key: stateKeySchema,
      owner: idSchema,
      at: timestampSchema.default(now),
      leaseMs: z
        .number()
        .int()
        .min(1)
        .max(30 * 24 * 3_600_000)
        .default(300_000),
    })
    .strict(),
  complete: z
    .object({
      scope: scopeSchema,
      key: stateKeySchema,
      owner: idSchema,
      at: timestampSchema.default(now),
      result: stateValueSchema.optional(),
    })
    .strict(),
  release: z.object({ scope: scopeSchema, key: stateKeySchema, owner: idSchema }).strict(),
  get: z.object({ scope: scopeSchema, key: stateKeySchema }).strict(),
  list: z
    .object({
      scope: scopeSchema,
      status: z.enum(['claimed', 'done']).optional(),
      limit: limitSchema.default(100),
      cursor: cursorSchema,
    })
    .strict(),
};

// ---------------------------------------------------------------- review queue

export const newReviewItemSchema = z
  .object({
    id: idSchema.default(() => createId('rev')),
    scope: scopeSchema,
    kind: z.enum(['fact', 'edge']),
    reason: z.enum(['low_confidence', 'hypothetical', 'conflict', 'manual']),
    proposal: metadataSchema,
    confidence: unitSchema,
    accessLevel: accessLevelSchema.default(0),
    provenance: provenanceSchema,
    createdAt: timestampSchema.default(now),
  })
  .strict()
  .transform((item) => ({ ...item, dedupeKey: reviewDedupeKey(item.kind, item.proposal) }));

/** A review item's `dedupeKey` (see `reviewDedupeKey`); null: items stored without one, by an earlier version. */
const dedupeKeySchema = z
  .string()
  .regex(/^[0-9a-f]{64}$/, 'a dedupe key is 64 lowercase hex digits')
  .nullable();

export const reviewArgs = {
  add: z.object({ item: newReviewItemSchema }).strict(),
  get: z.object({ scope: scopeSchema, ids: idsSchema, accessLevel: readLevelSchema }).strict(),
  list: z
    .object({
      scope: scopeSchema,
      accessLevel: readLevelSchema,
      status: z
        .array(z.enum(['pending', 'approved', 'rejected']))
        .min(1)
        .default(['pending']),
      dedupeKey: dedupeKeySchema.optional(),
      limit: limitSchema.default(100),
      cursor: cursorSchema,
    })
    .strict(),
  decide: z
    .object({
      scope: scopeSchema,
      id: idSchema,
      status: z.enum(['approved', 'rejected']),
      by: idSchema,
      at: timestampSchema.default(now),
      note: z.string().max(10_000).optional(),
    })
    .strict(),
};

// ---------------------------------------------------------------- audit log

export const newAuditEntrySchema = z
  .object({
    id: idSchema.default(() => createId('aud')),
    scope: scopeSchema,
    at: timestampSchema.default(now),
    action: z
      .string()
      .min(1)
      .max(128)
      .regex(/^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$/, 'must be a dotted lower-case verb like fact.supersede'),
    actor: idSchema.default('system'),
    subjectType: nameSchema.optional(),
    subjectId: idSchema.optional(),
    details: metadataSchema.default({}),
  })
  .strict();

export const auditArgs = {
  append: z.object({ entries: z.array(newAuditEntrySchema).min(1).max(LIMITS.maxBatch) }).strict(),
  list: z
    .object({
      scope: scopeSchema,
      actions: z.array(z.string().min(1).max(128)).optional(),
      subjectId: idSchema.optional(),
      since: timestampSchema.optional(),
      until: timestampSchema.optional(),
      order: z.enum(['asc', 'desc']).default('asc'),
      limit: limitSchema.default(100),
      cursor: cursorSchema,
    })
    .strict(),
};

export const scopeArgs = {
  list: z
    .object({ scope: scopeSchema.optional(), limit: limitSchema.default(100), cursor: cursorSchema })
    .strict(),
};

export const storeArgs = {
  forget: z.object({ scope: scopeSchema }).strict(),
};
