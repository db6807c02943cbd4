import { z } from 'zod/v4';
import { longTermScopeOf } from '../engine/engine.ts';
import { principalSchema } from '../engine/input-schemas.ts';
import type { Memory, Principal } from '../engine/types.ts';
import { memoryInstanceSchema } from '../memory/integration-options.ts';
import { parseScope, type Scope } from '../scope/scope.ts';
import { parseArgs } from '../store/define-store.ts';
import {
  correctInputSchema,
  forgetInputSchema,
  recallInputSchema,
  rememberInputSchema,
} from './tool-inputs.ts';
import {
  type CorrectOutput,
  type ForgetOutput,
  factView,
  type RecallOutput,
  type RememberOutput,
  recalledItemView,
} from './tool-outputs.ts';

/**
 * The four memory tools, defined once for every framework: `remember` (a fact or a note),
 * `recall` (search, with why each item matched), `forget` (one item by id, only within the
 * caller's scope) and `correct` (a human correction that supersedes a fact). Each definition has
 * the tool's name, its description for the model, its zod input schema, and `execute(input, scope)`
 * against the engine. An integration wraps each with its framework's tool constructor and resolves
 * the scope of the call; nothing else.
 */

export type MemoryToolName = 'remember' | 'recall' | 'forget' | 'correct';
export const MEMORY_TOOL_NAMES: readonly MemoryToolName[] = ['remember', 'recall', 'forget', 'correct'];

export interface MemoryToolDefinition<Name extends MemoryToolName, Schema extends z.ZodType, Output> {
  readonly name: Name;
  /** What the tool does, written for the model. */
  readonly description: string;
  /** The model's input (the framework validates it; `execute` validates it again). */
  readonly inputSchema: Schema;
  /** Runs the tool at `scope` (the caller's: bound plus per-request levels, already resolved). */
  execute(input: z.output<Schema>, scope: Scope): Promise<Output>;
}

export interface MemoryToolDefinitions {
  remember: MemoryToolDefinition<'remember', typeof rememberInputSchema, RememberOutput>;
  recall: MemoryToolDefinition<'recall', typeof recallInputSchema, RecallOutput>;
  forget: MemoryToolDefinition<'forget', typeof forgetInputSchema, ForgetOutput>;
  correct: MemoryToolDefinition<'correct', typeof correctInputSchema, CorrectOutput>;
}

export interface MemoryToolOptions {
  /** The engine (`createMemory(...)`). */
  memory: Memory;
  /** Who the tools act for: recall sees only items at or below its access level; writes record it. */
  principal?: Principal;
  /** Token budget of a `recall` result when the model gives none. Default 800. */
  recallBudgetTokens?: number;
}

const optionsSchema = z
  .object({
    memory: memoryInstanceSchema,
    principal: principalSchema.optional(),
    recallBudgetTokens: z.number().int().min(16).max(100_000).optional(),
  })
  .strict();

export const DEFAULT_TOOL_RECALL_BUDGET = 800;

/** The four memory tools over `memory` (see the module comment). Options are validated here. */
export function memoryToolDefinitions(
  options: MemoryToolOptions,
  where = 'memoryTools',
): MemoryToolDefinitions {
  const parsed = parseArgs(optionsSchema, options, where);
  const memory = parsed.memory;
  const withPrincipal = parsed.principal ? { principal: parsed.principal } : {};
  const defaultBudget = parsed.recallBudgetTokens ?? DEFAULT_TOOL_RECALL_BUDGET;
  const inputOf = <S extends z.ZodType>(schema: S, input: unknown, tool: MemoryToolName): z.output<S> =>
    parseArgs(schema, input, `${where}: ${tool} input`);

  return {
    remember: {
      name: 'remember',
      description:
        'Remember something for later conversations: a fact (entity, key, value: replaces an older value of the ' +
        'same key) or a note (free text).',
      inputSchema: rememberInputSchema,
      async execute(raw, scopeInput): Promise<RememberOutput> {
        const input = inputOf(rememberInputSchema, raw, 'remember');
        const scope = parseScope(scopeInput);
        if (input.kind === 'fact') {
          const result = await memory.facts.remember(scope, {
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
        // A note is long-term memory, not a turn of the conversation: it goes where the caller's
        // long-term items go (the user's scope under `longTermScope: 'shared'`), not into the thread.
        const observed = await memory.observe(
          longTermScopeOf(scope, memory.policy),
          { role: 'assistant', content: input.text!, metadata: { source: 'memory-tool' } },
          withPrincipal,
        );
        return {
          stored: 'note',
          episodeIds: [...observed.episodes.map((e) => e.id), ...observed.folded.map((f) => f.episodeId)],
          duplicates: observed.duplicates,
          facts: observed.facts.written.map(factView),
        };
      },
    },

    recall: {
      name: 'recall',
      description:
        'Search memory (facts, past conversations, related entities). Returns a context block and each item ' +
        'with its id and the reason it matched.',
      inputSchema: recallInputSchema,
      async execute(raw, scope): Promise<RecallOutput> {
        const input = inputOf(recallInputSchema, raw, 'recall');
        const context = await memory.recall(scope, {
          query: input.query,
          budget: { tokens: input.maxTokens ?? defaultBudget },
          layers: ['facts', 'episodes', 'graph'],
          ...withPrincipal,
        });
        return { context: context.render(), items: context.items.map(recalledItemView) };
      },
    },

    forget: {
      name: 'forget',
      description:
        "Delete one remembered item by its id (from `recall`). Only the user's own items: never another " +
        "user's, nor what the whole organisation shares.",
      inputSchema: forgetInputSchema,
      async execute(raw, scope): Promise<ForgetOutput> {
        const input = inputOf(forgetInputSchema, raw, 'forget');
        const result = await memory.forgetItem(scope, input.id, withPrincipal);
        return { deleted: result.deleted, ...(result.layer ? { layer: result.layer } : {}) };
      },
    },

    correct: {
      name: 'correct',
      description:
        'Correct a fact the user says is wrong ("no, the lead time is 30 days"). The new value replaces the old ' +
        'one for every later recall; the old one is kept as history.',
      inputSchema: correctInputSchema,
      async execute(raw, scope): Promise<CorrectOutput> {
        const input = inputOf(correctInputSchema, raw, 'correct');
        const result = await memory.facts.correct(scope, {
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
    },
  };
}
