import { createTool, type ToolExecutionContext } from '@mastra/core/tools';
import type {
  FactRecord,
  JsonValue,
  Layer,
  Memory,
  Principal,
  RecalledItem,
  Scope,
} from '@strata-memory/core';
import { z } from 'zod/v4';

/**
 * Strata's memory tools for a Mastra agent: `remember`, `recall`, `forget` and `correct`, with the
 * same inputs and outputs as the AI SDK adapter's. Each acts for the run's resource and thread
 * (the scope is resolved and ownership-checked by the memory before the engine is called).
 */

export type MemoryToolName = 'remember' | 'recall' | 'forget' | 'correct';
export const MEMORY_TOOL_NAMES: readonly MemoryToolName[] = ['remember', 'recall', 'forget', 'correct'];

/** Where a tool call acts: the run's thread, and its resource's long-term scope. */
export interface ToolScope {
  thread: Scope;
  resource: Scope;
}

export interface MemoryToolsDeps {
  memory: Memory;
  /** Resolves (and checks) the scope of the run a tool call belongs to. */
  scopeOf: (context: ToolExecutionContext) => Promise<ToolScope>;
  principal?: Principal;
  /** Token budget of a `recall` result when the model gives none. */
  recallBudgetTokens: number;
  /** Which tools to expose. */
  names: readonly MemoryToolName[];
}

/** A fact as the model sees it in a tool result. */
export interface FactView {
  id: string;
  entityType: string;
  entity: string;
  key: string;
  value: JsonValue;
  version: number;
  confidence: number;
  status: FactRecord['status'];
}

/** A recalled item as the model sees it: what it is, why it matched, and its id for `forget`. */
export interface RecalledItemView {
  id: string;
  layer: RecalledItem['layer'];
  text: string;
  reason: string;
  score: number;
}

export type RememberOutput =
  | {
      stored: 'fact' | 'review' | 'nothing';
      confirmed: boolean;
      fact?: FactView;
      previous?: FactView;
      reviewId?: string;
    }
  | { stored: 'note'; episodeIds: string[]; duplicates: number; facts: FactView[] };

export interface RecallOutput {
  context: string;
  items: RecalledItemView[];
}

export interface ForgetOutput {
  deleted: boolean;
  layer?: Layer;
}

export interface CorrectOutput {
  fact: FactView;
  previous?: FactView;
}

const scalarValue = z.union([z.string(), z.number(), z.boolean()]);

const rememberInput = z
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

const recallInput = z.object({
  query: z.string().min(1).max(2000).describe('What to look for, in plain words.'),
  maxTokens: z.number().int().min(16).max(8000).optional().describe('Budget for the result. Default 800.'),
});

const forgetInput = z.object({
  id: z
    .string()
    .min(1)
    .max(256)
    .describe('The id of an item returned by `recall` (a fact, episode, node or edge).'),
});

const correctInput = z.object({
  entity: z.string().min(1).max(200).describe('Who or what the fact is about.'),
  entityType: z.string().min(1).max(100).optional().describe('The kind of entity. Default "entity".'),
  key: z.string().min(1).max(200).describe('The attribute being corrected.'),
  value: scalarValue.describe('The correct value.'),
});

function factView(fact: FactRecord): FactView {
  return {
    id: fact.id,
    entityType: fact.entityType,
    entity: fact.entityId,
    key: fact.key,
    value: fact.value,
    version: fact.version,
    confidence: fact.confidence,
    status: fact.status,
  };
}

function itemView(item: RecalledItem): RecalledItemView {
  return { id: item.id, layer: item.layer, text: item.text, reason: item.reason, score: item.scores.final };
}

export function memoryTools(deps: MemoryToolsDeps) {
  const { memory, principal, scopeOf } = deps;
  const withPrincipal = principal ? { principal } : {};

  const remember = createTool({
    id: 'strata-remember',
    description:
      'Remember something for later conversations: a fact (entity, key, value: replaces an older value of the ' +
      'same key) or a note (free text).',
    inputSchema: rememberInput,
    async execute(input, context): Promise<RememberOutput> {
      const scope = await scopeOf(context);
      if (input.kind === 'fact') {
        const result = await memory.facts.remember(scope.thread, {
          entity: input.entity!,
          key: input.key!,
          value: input.value!,
          ...(input.entityType ? { entityType: input.entityType } : {}),
          ...withPrincipal,
        });
        return {
          stored: result.fact ? 'fact' : result.review ? 'review' : 'nothing',
          confirmed: result.confirmed,
          ...(result.fact ? { fact: factView(result.fact) } : {}),
          ...(result.previous ? { previous: factView(result.previous) } : {}),
          ...(result.review ? { reviewId: result.review.id } : {}),
        };
      }
      // Observed at the resource's scope: a note is long-term memory, not a turn of the thread's history.
      const observed = await memory.observe(
        scope.resource,
        { role: 'assistant', content: input.text!, metadata: { source: 'memory-tool' } },
        withPrincipal,
      );
      return {
        stored: 'note',
        episodeIds: observed.episodes.map((e) => e.id),
        duplicates: observed.duplicates,
        facts: observed.facts.written.map(factView),
      };
    },
  });

  const recall = createTool({
    id: 'strata-recall',
    description:
      'Search memory (facts, past conversations, related entities). Returns a context block and each item ' +
      'with its id and the reason it matched.',
    inputSchema: recallInput,
    async execute(input, context): Promise<RecallOutput> {
      const scope = await scopeOf(context);
      const recalled = await memory.recall(scope.thread, {
        query: input.query,
        budget: { tokens: input.maxTokens ?? deps.recallBudgetTokens },
        layers: ['facts', 'episodes', 'graph'],
        ...withPrincipal,
      });
      return { context: recalled.render(), items: recalled.items.map(itemView) };
    },
  });

  const forget = createTool({
    id: 'strata-forget',
    description:
      'Delete one remembered item by its id (from `recall`). Only items visible to this conversation.',
    inputSchema: forgetInput,
    async execute(input, context): Promise<ForgetOutput> {
      const scope = await scopeOf(context);
      // Long-term items live at the resource's scope; the thread's subtree holds only the thread's own.
      const result = await memory.forgetItem(scope.resource, input.id, withPrincipal);
      return { deleted: result.deleted, ...(result.layer ? { layer: result.layer } : {}) };
    },
  });

  const correct = createTool({
    id: 'strata-correct',
    description:
      'Correct a fact the user says is wrong ("no, the lead time is 30 days"). The new value replaces the old ' +
      'one for every later recall; the old one is kept as history.',
    inputSchema: correctInput,
    async execute(input, context): Promise<CorrectOutput> {
      const scope = await scopeOf(context);
      const result = await memory.facts.correct(scope.thread, {
        entity: input.entity,
        key: input.key,
        value: input.value,
        ...(input.entityType ? { entityType: input.entityType } : {}),
        ...withPrincipal,
      });
      return {
        fact: factView(result.fact),
        ...(result.previous ? { previous: factView(result.previous) } : {}),
      };
    },
  });

  const all = { remember, recall, forget, correct };
  return Object.fromEntries(deps.names.map((name) => [name, all[name]])) as Partial<typeof all>;
}
