import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { StrataError } from '@strata-memory/core';
import { z } from 'zod/v4';

/**
 * The labelled extraction corpus (`apps/bench/data/extraction/half-*.json`, schema and matching
 * rule in that folder's README): sentences users say to agents, each item one or more turns with
 * the facts, graph edges, review items and fact histories a reader would expect memory to hold
 * once they have been observed.
 */

export const EXTRACTION_KINDS = [
  'identity',
  'attribute',
  'decision',
  'relation',
  'update',
  'chain',
  'hypothetical',
  'unowned',
  'none',
] as const;
export type ExtractionKind = (typeof EXTRACTION_KINDS)[number];

export const CORPUS_HALVES = ['a', 'b'] as const;
export type CorpusHalf = (typeof CORPUS_HALVES)[number];

/** One accepted spelling, or a list of them (any one matches). */
const alternativesSchema = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]);
export type Alternatives = z.output<typeof alternativesSchema>;

const factLabelSchema = z
  .object({ entity: alternativesSchema, key: alternativesSchema, value: alternativesSchema })
  .strict();
const edgeLabelSchema = z
  .object({ from: alternativesSchema, relation: alternativesSchema, to: alternativesSchema })
  .strict();
const reviewLabelSchema = z.object({ value: alternativesSchema }).strict();
const historyLabelSchema = z
  .object({
    entity: alternativesSchema,
    key: alternativesSchema,
    values: z.array(alternativesSchema).min(2),
  })
  .strict();

export const corpusItemSchema = z
  .object({
    id: z.string().min(1),
    kind: z.enum(EXTRACTION_KINDS),
    group: z.string().min(1),
    turns: z.array(z.string().min(1)).min(1),
    facts: z.array(factLabelSchema),
    edges: z.array(edgeLabelSchema),
    review: z.array(reviewLabelSchema),
    history: z.array(historyLabelSchema),
  })
  .strict();
export type CorpusItem = z.output<typeof corpusItemSchema>;
export type FactLabel = z.output<typeof factLabelSchema>;
export type EdgeLabel = z.output<typeof edgeLabelSchema>;
export type HistoryLabel = z.output<typeof historyLabelSchema>;

const corpusFileSchema = z.object({ half: z.enum(CORPUS_HALVES), items: z.array(corpusItemSchema) }).strict();
export type CorpusFile = z.output<typeof corpusFileSchema>;

export const CORPUS_DIR = fileURLToPath(new URL('../../data/extraction/', import.meta.url));

/** Reads and validates one half of the corpus; a file that does not fit the schema fails with `invalid_input`. */
export async function loadCorpusHalf(half: CorpusHalf, dir = CORPUS_DIR): Promise<CorpusFile> {
  const path = `${dir.replace(/\/$/, '')}/half-${half}.json`;
  const parsed = corpusFileSchema.safeParse(JSON.parse(await readFile(path, 'utf8')));
  if (!parsed.success) {
    throw new StrataError({
      code: 'invalid_input',
      message: `${path} is not an extraction corpus: ${parsed.error.issues
        .slice(0, 5)
        .map((i) => `${i.path.join('.') || '(root)'} ${i.message}`)
        .join('; ')}`,
    });
  }
  if (parsed.data.half !== half) {
    throw new StrataError({
      code: 'invalid_input',
      message: `${path} says it is half "${parsed.data.half}"`,
    });
  }
  return parsed.data;
}
