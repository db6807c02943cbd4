import { z } from 'zod/v4';
import { idSchema } from '../scope/scope.ts';
import { LIMITS } from '../store/limits.ts';

/**
 * The shape every extractor's output must have before the engine writes anything from it. The
 * engine validates output from any `Extractor` (built-in or custom) with `extractionSchema`; a
 * mismatch is an extraction failure (audited, never a crash of `observe`).
 */

const kindSchema = z.enum(['statement', 'correction', 'hypothetical']);
const labelSchema = z.string().trim().min(1).max(LIMITS.maxNameChars);
const confidenceSchema = z.number().min(0).max(1);
const evidenceSchema = z.string().max(4_000).optional();

export const extractedFactSchema = z.object({
  entityType: labelSchema,
  /** '' when the owner is not named (see `entity-references.ts`). */
  entity: z.string().trim().max(LIMITS.maxNameChars),
  key: labelSchema,
  value: z
    .json()
    .refine((v) => Buffer.byteLength(JSON.stringify(v) ?? '', 'utf8') <= LIMITS.maxFactValueBytes, {
      message: `must be at most ${LIMITS.maxFactValueBytes} bytes of JSON`,
    }),
  confidence: confidenceSchema,
  kind: kindSchema,
  messageId: idSchema,
  evidence: evidenceSchema,
});

const nodeRefSchema = z.object({ name: labelSchema, type: labelSchema });

export const extractedRelationSchema = z.object({
  from: nodeRefSchema,
  to: nodeRefSchema,
  relation: labelSchema.regex(/^[A-Za-z][A-Za-z0-9_ ]*$/, 'must be a relation name like depends_on'),
  confidence: confidenceSchema,
  kind: kindSchema,
  messageId: idSchema,
  evidence: evidenceSchema,
});

export const extractedEntitySchema = z.object({
  name: labelSchema,
  type: labelSchema,
  aliases: z.array(labelSchema).max(32).optional(),
  messageId: idSchema,
});

export const extractionSchema = z.object({
  facts: z.array(extractedFactSchema).max(LIMITS.maxBatch),
  entities: z.array(extractedEntitySchema).max(LIMITS.maxBatch),
  relations: z.array(extractedRelationSchema).max(LIMITS.maxBatch),
});

/**
 * What the LLM extractor asks a model for. Messages are referred to by their number in the
 * prompt (`message`), which models copy more reliably than opaque ids; values are strings so
 * "$4,200" and "net 60" survive as written.
 */
export const modelOutputSchema = z.object({
  facts: z
    .array(
      z.object({
        message: z.number().int().min(1).describe('The number of the message the fact is stated in.'),
        entityType: z
          .string()
          .min(1)
          .describe('Lower-case type: supplier, customer, project, user, organization, …'),
        entity: z
          .string()
          .describe(
            'The entity name as written. "speaker" for the person speaking, "we" for their team, "" if unnamed.',
          ),
        key: z.string().min(1).describe('The attribute, lower-case: "lead time", "payment terms", "email".'),
        value: z
          .string()
          .min(1)
          .describe('The value exactly as written, e.g. "$4,200", "45 days", "net 60".'),
        confidence: z.number().min(0).max(1),
        kind: kindSchema.describe(
          'statement: asserted; correction: replaces an earlier value; hypothetical: a question or what-if.',
        ),
        evidence: z.string().describe('The words the fact was read from.'),
      }),
    )
    .default([]),
  entities: z
    .array(
      z.object({
        message: z.number().int().min(1),
        name: z.string().min(1),
        type: z.string().min(1).describe('person, organization, supplier, component, decision, …'),
        aliases: z.array(z.string().min(1)).optional(),
      }),
    )
    .default([]),
  relations: z
    .array(
      z.object({
        message: z.number().int().min(1),
        from: z.object({ name: z.string().min(1), type: z.string().min(1) }),
        relation: z
          .string()
          .min(1)
          .describe('lower snake case: depends_on, uses, affects, replaces, decided_by'),
        to: z.object({ name: z.string().min(1), type: z.string().min(1) }),
        confidence: z.number().min(0).max(1),
        kind: kindSchema,
        evidence: z.string(),
      }),
    )
    .default([]),
});

export type ModelOutput = z.output<typeof modelOutputSchema>;
