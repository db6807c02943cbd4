import {
  type FactRecord,
  type JsonValue,
  type Layer,
  type Memory,
  type Principal,
  parseArgs,
  type RecalledItem,
  type Scope,
} from '@strata-memory/core';
import { type Tool, tool } from 'ai';
import { z } from 'zod/v4';
import { parseBoundScope, resolveScope, STRATA_OPTIONS_KEY } from '../scope/request-scope.ts';

export interface MemoryToolsOptions {
  /** The engine (`createMemory(...)`). */
  memory: Memory;
  /**
   * Scope bound to every tool call. A call may add levels through the tools' context
   * (`{ strata: { userId, threadId } }`) but never change bound ones. Without a bound scope every
   * call must pass one through the context.
   */
  scope?: Scope;
  /** Who the tools act for: recall sees only items at or below its access level; writes record it. */
  principal?: Principal;
  /** Token budget of a `recall` tool result when the model gives none. Default 800. */
  recallBudgetTokens?: number;
}

const WHERE = 'memoryTools';
const REQUEST_ARGUMENT = `tool context ${STRATA_OPTIONS_KEY}`;

const optionsSchema = z.object({
  memory: z.custom<Memory>(
    (value) => typeof value === 'object' && value !== null && typeof (value as Memory).recall === 'function',
    'must be a Memory (createMemory(...))',
  ),
  scope: z.unknown().optional(),
  principal: z
    .object({ id: z.string().min(1), role: z.string().optional(), level: z.number().int().min(0).optional() })
    .strict()
    .optional(),
  recallBudgetTokens: z.number().int().min(16).max(100_000).optional(),
});

/**
 * The context each memory tool accepts: `{ strata: { orgId?, userId?, agentId?, threadId? } }`, or
 * none at all when the tools have a bound scope (the AI SDK validates a tool's context even when
 * the call passes none, so a missing context reads as `{}`).
 */
const contextObjectSchema = z.object({
  [STRATA_OPTIONS_KEY]: z
    .object({
      orgId: z.string().optional(),
      userId: z.string().optional(),
      agentId: z.string().optional(),
      threadId: z.string().optional(),
    })
    .optional(),
});
const contextSchema = z.preprocess((value) => value ?? {}, contextObjectSchema);

/** What a memory tool reads from its context: the request's scope under `strata`. */
export type MemoryToolContext = {
  [STRATA_OPTIONS_KEY]?: Scope;
};

/**
 * The context to pass so every memory tool acts at `scope`: spread it into `toolsContext` (ai 7),
 * e.g. `toolsContext: { ...memoryToolsContext({ userId }) }`. With ai 6 pass
 * `experimental_context: { strata: scope }` instead.
 */
export function memoryToolsContext(scope: Scope): Record<MemoryToolName, MemoryToolContext> {
  const context = { [STRATA_OPTIONS_KEY]: scope };
  return { remember: context, recall: context, forget: context, correct: context };
}

export type MemoryToolName = 'remember' | 'recall' | 'forget' | 'correct';

const scalarValue = z.union([z.string(), z.number(), z.boolean()]);

/** `remember`: a fact (`entity`, `key`, `value`) or a note (`text`). */
export interface RememberInput {
  kind: 'fact' | 'note';
  text?: string;
  entity?: string;
  entityType?: string;
  key?: string;
  value?: string | number | boolean;
}

export interface RecallInput {
  query: string;
  maxTokens?: number;
}

export interface ForgetInput {
  id: string;
}

export interface CorrectInput {
  entity: string;
  entityType?: string;
  key: string;
  value: string | number | boolean;
}

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

type MemoryTool<INPUT, OUTPUT> = Tool<INPUT, OUTPUT, MemoryToolContext | undefined>;

/** The tools; their context is optional, so a call may leave `toolsContext` out when a scope is bound. */
export type MemoryTools = {
  remember: MemoryTool<RememberInput, RememberOutput>;
  recall: MemoryTool<RecallInput, RecallOutput>;
  forget: MemoryTool<ForgetInput, ForgetOutput>;
  correct: MemoryTool<CorrectInput, CorrectOutput>;
};

/**
 * `tool()` only accepts an object context type, but the AI SDK's `Tool` type allows one that may be
 * undefined, which is what makes `toolsContext` optional for callers. The schema above already
 * turns a missing context into `{}` at run time, so widening the declared type is safe.
 */
function withOptionalContext<INPUT, OUTPUT>(
  built: Tool<INPUT, OUTPUT, MemoryToolContext>,
): MemoryTool<INPUT, OUTPUT> {
  return built as unknown as MemoryTool<INPUT, OUTPUT>;
}

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

/** Reads `context.strata` (ai 7 tool context) or `experimental_context.strata` (ai 6). */
function requestScope(executionOptions: unknown): unknown {
  if (typeof executionOptions !== 'object' || executionOptions === null) return undefined;
  const options = executionOptions as { context?: unknown; experimental_context?: unknown };
  for (const context of [options.context, options.experimental_context]) {
    if (typeof context === 'object' && context !== null && STRATA_OPTIONS_KEY in context) {
      return (context as Record<string, unknown>)[STRATA_OPTIONS_KEY];
    }
  }
  return undefined;
}

/**
 * Memory as tools the model can call: `remember` (a fact or a note), `recall` (search, with why
 * each item matched), `forget` (one item by id, only within the caller's scope) and `correct`
 * (a human correction that supersedes a fact). Each acts at the bound scope plus what the call's
 * tool context adds.
 */
export function memoryTools(options: MemoryToolsOptions): MemoryTools {
  const parsed = parseArgs(optionsSchema, options, WHERE);
  const memory = parsed.memory;
  const bound = parseBoundScope(parsed.scope, WHERE);
  const principal = parsed.principal;
  const defaultBudget = parsed.recallBudgetTokens ?? 800;
  const scopeOf = (executionOptions: unknown): Scope =>
    resolveScope({
      bound,
      request: requestScope(executionOptions),
      where: WHERE,
      requestArgument: REQUEST_ARGUMENT,
    });

  const remember = tool<RememberInput, RememberOutput, MemoryToolContext>({
    description:
      'Remember something for later conversations: a fact (entity, key, value: replaces an older value of the ' +
      'same key) or a note (free text).',
    inputSchema: rememberInput,
    contextSchema,
    async execute(input, executionOptions) {
      const scope = scopeOf(executionOptions);
      if (input.kind === 'fact') {
        const result = await memory.facts.remember(scope, {
          entity: input.entity!,
          key: input.key!,
          value: input.value!,
          ...(input.entityType ? { entityType: input.entityType } : {}),
          ...(principal ? { principal } : {}),
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
        principal ? { principal } : {},
      );
      return {
        stored: 'note',
        episodeIds: observed.episodes.map((e) => e.id),
        duplicates: observed.duplicates,
        facts: observed.facts.written.map(factView),
      };
    },
  });

  const recall = tool<RecallInput, RecallOutput, MemoryToolContext>({
    description:
      'Search memory (facts, past conversations, related entities). Returns a context block and each item ' +
      'with its id and the reason it matched.',
    inputSchema: recallInput,
    contextSchema,
    async execute(input, executionOptions) {
      const scope = scopeOf(executionOptions);
      const context = await memory.recall(scope, {
        query: input.query,
        budget: { tokens: input.maxTokens ?? defaultBudget },
        layers: ['facts', 'episodes', 'graph'],
        ...(principal ? { principal } : {}),
      });
      return { context: context.render(), items: context.items.map(itemView) };
    },
  });

  const forget = tool<ForgetInput, ForgetOutput, MemoryToolContext>({
    description:
      'Delete one remembered item by its id (from `recall`). Only items visible to this conversation.',
    inputSchema: forgetInput,
    contextSchema,
    async execute(input, executionOptions) {
      const scope = scopeOf(executionOptions);
      const result = await memory.forgetItem(scope, input.id, principal ? { principal } : {});
      return { deleted: result.deleted, ...(result.layer ? { layer: result.layer } : {}) };
    },
  });

  const correct = tool<CorrectInput, CorrectOutput, MemoryToolContext>({
    description:
      'Correct a fact the user says is wrong ("no, the lead time is 30 days"). The new value replaces the old ' +
      'one for every later recall; the old one is kept as history.',
    inputSchema: correctInput,
    contextSchema,
    async execute(input, executionOptions) {
      const scope = scopeOf(executionOptions);
      const result = await memory.facts.correct(scope, {
        entity: input.entity,
        key: input.key,
        value: input.value,
        ...(input.entityType ? { entityType: input.entityType } : {}),
        ...(principal ? { principal } : {}),
      });
      return {
        fact: factView(result.fact),
        ...(result.previous ? { previous: factView(result.previous) } : {}),
      };
    },
  });

  return {
    remember: withOptionalContext(remember),
    recall: withOptionalContext(recall),
    forget: withOptionalContext(forget),
    correct: withOptionalContext(correct),
  };
}
