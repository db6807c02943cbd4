import { z } from 'zod/v4';

/**
 * What a model passes to each memory tool, as zod schemas (the frameworks turn them into the JSON
 * Schema the model sees and validate the model's input with them). Descriptions are written for
 * the model.
 */

const scalarValue = z.union([z.string(), z.number(), z.boolean()]);

/** `remember`: a fact (`entity`, `key`, `value`) or a note (`text`). */
export const rememberInputSchema = z
  .object({
    kind: z
      .enum(['fact', 'note'])
      .describe('`fact`: a value of one attribute of one entity. `note`: anything else worth remembering.'),
    text: z
      .string()
      .min(1)
      .max(4000)
      .optional()
      .describe('For a note: what to remember, in a full sentence. For a fact: optional source sentence.'),
    entity: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .describe('For a fact: who or what it is about, e.g. "Supplier X".'),
    entityType: z
      .string()
      .min(1)
      .max(100)
      .optional()
      .describe('For a fact: the kind of entity, e.g. "supplier", "user", "project".'),
    key: z.string().min(1).max(200).optional().describe('For a fact: the attribute, e.g. "lead time".'),
    value: scalarValue.optional().describe('For a fact: the value, e.g. "30 days".'),
  })
  .superRefine((input, ctx) => {
    if (input.kind === 'note' && input.text === undefined) {
      ctx.addIssue({ code: 'custom', path: ['text'], message: 'a note needs text' });
    }
    if (input.kind === 'fact') {
      for (const field of ['entity', 'key', 'value'] as const) {
        if (input[field] === undefined) {
          ctx.addIssue({ code: 'custom', path: [field], message: `a fact needs ${field}` });
        }
      }
    }
  });

export const recallInputSchema = z.object({
  query: z.string().min(1).max(2000).describe('What to look for, in plain words.'),
  maxTokens: z.number().int().min(16).max(8000).optional().describe('Budget for the result. Default 800.'),
});

export const forgetInputSchema = z.object({
  id: z
    .string()
    .min(1)
    .max(256)
    .describe('The id of an item returned by `recall` (a fact, episode, node or edge).'),
});

export const correctInputSchema = z.object({
  entity: z.string().min(1).max(200).describe('Who or what the fact is about.'),
  entityType: z.string().min(1).max(100).optional().describe('The kind of entity. Default "entity".'),
  key: z.string().min(1).max(200).describe('The attribute being corrected.'),
  value: scalarValue.describe('The correct value.'),
});

export type RememberInput = z.output<typeof rememberInputSchema>;
export type RecallInput = z.output<typeof recallInputSchema>;
export type ForgetInput = z.output<typeof forgetInputSchema>;
export type CorrectInput = z.output<typeof correctInputSchema>;
