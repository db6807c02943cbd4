import { type DynamicStructuredTool, type ToolRuntime, tool } from '@langchain/core/tools';
import {
  type FactRecord,
  type JsonValue,
  type Layer,
  type Memory,
  type Principal,
  parseArgs,
  type RecalledItem,
} from '@strata-memory/core';
import { z } from 'zod/v4';
import { memorySchema, principalSchema } from '../options/shared-schemas.ts';
import { parseScopeOption, resolveRunScope, type ScopeOption } from '../scope/run-scope.ts';

export interface StrataMemoryToolsOptions {
  /** The engine (`createMemory(...)`). */
  memory: Memory;
  /**
   * A bound scope, to which each run adds the levels its `context` (`orgId`, `userId`, `agentId`,
   * `threadId`) and `configurable.thread_id` name; or a function of `{ context, configurable }`.
   * Without one, every run must name its scope in its context.
   */
  scope?: ScopeOption;
  /** Who the tools act for: recall sees only items at or below its access level; writes record it. */
  principal?: Principal;
  /** Token budget of a `recall` result when the model gives none. Default 800. */
  recallBudgetTokens?: number;
}

const optionsSchema = z
  .object({
    memory: memorySchema,
    scope: z.unknown().optional(),
    principal: principalSchema.optional(),
    recallBudgetTokens: z.number().int().min(16).max(100_000).optional(),
  })
  .strict();

const WHERE = 'strataMemoryTools';

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

export type RememberInput = z.input<typeof rememberInput>;
export type RecallInput = z.input<typeof recallInput>;
export type ForgetInput = z.input<typeof forgetInput>;
export type CorrectInput = z.input<typeof correctInput>;

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
      /** True when the value was already current (confirmed, not duplicated). */
      confirmed: boolean;
      fact?: FactView;
      previous?: FactView;
      /** Set when the fact went to the review queue instead of the fact store. */
      reviewId?: string;
    }
  | { stored: 'note'; episodeIds: string[]; duplicates: number; facts: FactView[] };

export interface RecallOutput {
  /** The rendered context block. */
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

export type MemoryToolName = 'remember' | 'recall' | 'forget' | 'correct';

/** The four tools, in this order: remember, recall, forget, correct. */
export type StrataMemoryTools = [
  remember: DynamicStructuredTool,
  recall: DynamicStructuredTool,
  forget: DynamicStructuredTool,
  correct: DynamicStructuredTool,
];

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

/** The parts of a tool runtime (or a plain run config) that name the scope. */
function runSource(runtime: unknown) {
  const value = (runtime ?? {}) as Partial<ToolRuntime> & { configurable?: Record<string, unknown> };
  return {
    context: value.context,
    configurable: value.configurable ?? value.config?.configurable,
  };
}

/**
 * Memory as LangChain tools the model can call: `remember` (a fact or a note), `recall` (search,
 * with why each item matched), `forget` (one item by id, only within the caller's scope) and
 * `correct` (a human correction that supersedes a fact). Each acts at the scope of its run: the
 * bound scope plus what the agent's `context` and `configurable.thread_id` add (see `scope`).
 */
export function strataMemoryTools(options: StrataMemoryToolsOptions): StrataMemoryTools {
  const parsed = parseArgs(optionsSchema, options, WHERE);
  const memory = parsed.memory;
  const scopeOption = parseScopeOption(parsed.scope, WHERE);
  const principal = parsed.principal;
  const principalOption = principal ? { principal } : {};
  const defaultBudget = parsed.recallBudgetTokens ?? 800;
  const scopeOf = (runtime: unknown) => resolveRunScope(scopeOption, runSource(runtime), WHERE);

  const remember = tool(
    async (input, runtime): Promise<RememberOutput> => {
      const scope = scopeOf(runtime);
      if (input.kind === 'fact') {
        const result = await memory.facts.remember(scope, {
          entity: input.entity!,
          key: input.key!,
          value: input.value!,
          ...(input.entityType ? { entityType: input.entityType } : {}),
          ...principalOption,
        });
        return {
          stored: result.fact ? 'fact' : result.review ? 'review' : 'nothing',
          confirmed: result.confirmed,
          ...(result.fact ? { fact: factView(result.fact) } : {}),
          ...(result.previous ? { previous: factView(result.previous) } : {}),
          ...(result.review ? { reviewId: result.review.id } : {}),
        };
      }
      const observed = await memory.observe(
        scope,
        { role: 'assistant', content: input.text!, metadata: { source: 'memory-tool' } },
        principalOption,
      );
      return {
        stored: 'note',
        episodeIds: observed.episodes.map((e) => e.id),
        duplicates: observed.duplicates,
        facts: observed.facts.written.map(factView),
      };
    },
    {
      name: 'remember',
      description:
        'Remember something for later conversations: a fact (entity, key, value: replaces an older value of the ' +
        'same key) or a note (free text).',
      schema: rememberInput,
    },
  );

  const recall = tool(
    async (input, runtime): Promise<RecallOutput> => {
      const context = await memory.recall(scopeOf(runtime), {
        query: input.query,
        budget: { tokens: input.maxTokens ?? defaultBudget },
        layers: ['facts', 'episodes', 'graph'],
        ...principalOption,
      });
      return { context: context.render(), items: context.items.map(itemView) };
    },
    {
      name: 'recall',
      description:
        'Search memory (facts, past conversations, related entities). Returns a context block and each item ' +
        'with its id and the reason it matched.',
      schema: recallInput,
    },
  );

  const forget = tool(
    async (input, runtime): Promise<ForgetOutput> => {
      const result = await memory.forgetItem(scopeOf(runtime), input.id, principalOption);
      return { deleted: result.deleted, ...(result.layer ? { layer: result.layer } : {}) };
    },
    {
      name: 'forget',
      description:
        'Delete one remembered item by its id (from `recall`). Only items visible to this conversation.',
      schema: forgetInput,
    },
  );

  const correct = tool(
    async (input, runtime): Promise<CorrectOutput> => {
      const result = await memory.facts.correct(scopeOf(runtime), {
        entity: input.entity,
        key: input.key,
        value: input.value,
        ...(input.entityType ? { entityType: input.entityType } : {}),
        ...principalOption,
      });
      return {
        fact: factView(result.fact),
        ...(result.previous ? { previous: factView(result.previous) } : {}),
      };
    },
    {
      name: 'correct',
      description:
        'Correct a fact the user says is wrong ("no, the lead time is 30 days"). The new value replaces the old ' +
        'one for every later recall; the old one is kept as history.',
      schema: correctInput,
    },
  );

  return [remember, recall, forget, correct] as unknown as StrataMemoryTools;
}
