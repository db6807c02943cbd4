import type { Memory, Principal, Scope } from '@strata-memory/core';
import {
  type CorrectInput,
  type CorrectOutput,
  type ForgetInput,
  type ForgetOutput,
  type MemoryToolName,
  memoryToolDefinitions,
  parseBoundScope,
  type RecallInput,
  type RecallOutput,
  type RememberInput,
  type RememberOutput,
  resolveRequestScope,
} from '@strata-memory/core/integration';
import { type Tool, tool } from 'ai';
import { z } from 'zod/v4';
import { STRATA_OPTIONS_KEY } from '../scope/request-scope.ts';

export type {
  CorrectInput,
  CorrectOutput,
  FactView,
  ForgetInput,
  ForgetOutput,
  MemoryToolName,
  RecalledItemView,
  RecallInput,
  RecallOutput,
  RememberInput,
  RememberOutput,
} from '@strata-memory/core/integration';

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

/**
 * The context each memory tool accepts: `{ strata: { orgId?, userId?, agentId?, threadId? } }`, or
 * none at all when the tools have a bound scope (the AI SDK validates a tool's context even when
 * the call passes none, so a missing context reads as `{}`).
 */
const contextSchema = z.preprocess(
  (value) => value ?? {},
  z.object({
    [STRATA_OPTIONS_KEY]: z
      .object({
        orgId: z.string().optional(),
        userId: z.string().optional(),
        agentId: z.string().optional(),
        threadId: z.string().optional(),
      })
      .optional(),
  }),
);

/** What a memory tool reads from its context: the request's scope under `strata`. */
export type MemoryToolContext = {
  [STRATA_OPTIONS_KEY]?: Scope;
};

/**
 * The context to pass so every memory tool acts at `scope`: `toolsContext: memoryToolsContext(scope)`
 * (ai 7). With ai 6 pass `experimental_context: { strata: scope }` instead.
 */
export function memoryToolsContext(scope: Scope): Record<MemoryToolName, MemoryToolContext> {
  const context = { [STRATA_OPTIONS_KEY]: scope };
  return { remember: context, recall: context, forget: context, correct: context };
}

type MemoryTool<INPUT, OUTPUT> = Tool<INPUT, OUTPUT, MemoryToolContext | undefined>;

/** The tools; their context is optional, so a call may leave `toolsContext` out when a scope is bound. */
export type MemoryTools = {
  remember: MemoryTool<RememberInput, RememberOutput>;
  recall: MemoryTool<RecallInput, RecallOutput>;
  forget: MemoryTool<ForgetInput, ForgetOutput>;
  correct: MemoryTool<CorrectInput, CorrectOutput>;
};

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
 * Memory as tools the model can call: core's `remember`, `recall`, `forget` and `correct` (see
 * `memoryToolDefinitions`), each built with the AI SDK's `tool()` and run at the bound scope plus
 * what the call's tool context adds.
 */
export function memoryTools(options: MemoryToolsOptions): MemoryTools {
  const { scope, ...engineOptions } = options ?? ({} as MemoryToolsOptions);
  const { remember, recall, forget, correct } = memoryToolDefinitions(engineOptions, WHERE);
  const bound = parseBoundScope(scope, WHERE);
  const scopeOf = (executionOptions: unknown): Scope =>
    resolveRequestScope({
      bound,
      request: requestScope(executionOptions),
      where: WHERE,
      requestArgument: REQUEST_ARGUMENT,
    });
  const shared = { contextSchema } as const;
  return withOptionalContext({
    remember: tool<RememberInput, RememberOutput, MemoryToolContext>({
      ...shared,
      description: remember.description,
      inputSchema: remember.inputSchema,
      execute: (input, call) => remember.execute(input, scopeOf(call)),
    }),
    recall: tool<RecallInput, RecallOutput, MemoryToolContext>({
      ...shared,
      description: recall.description,
      inputSchema: recall.inputSchema,
      execute: (input, call) => recall.execute(input, scopeOf(call)),
    }),
    forget: tool<ForgetInput, ForgetOutput, MemoryToolContext>({
      ...shared,
      description: forget.description,
      inputSchema: forget.inputSchema,
      execute: (input, call) => forget.execute(input, scopeOf(call)),
    }),
    correct: tool<CorrectInput, CorrectOutput, MemoryToolContext>({
      ...shared,
      description: correct.description,
      inputSchema: correct.inputSchema,
      execute: (input, call) => correct.execute(input, scopeOf(call)),
    }),
  });
}

/**
 * `tool()` only accepts an object context type, but the AI SDK's `Tool` type allows one that may be
 * undefined, which is what makes `toolsContext` optional for callers. The context schema turns a
 * missing context into `{}` at run time, so widening the declared type is safe.
 */
function withOptionalContext(tools: {
  remember: Tool<RememberInput, RememberOutput, MemoryToolContext>;
  recall: Tool<RecallInput, RecallOutput, MemoryToolContext>;
  forget: Tool<ForgetInput, ForgetOutput, MemoryToolContext>;
  correct: Tool<CorrectInput, CorrectOutput, MemoryToolContext>;
}): MemoryTools {
  return tools as unknown as MemoryTools;
}
