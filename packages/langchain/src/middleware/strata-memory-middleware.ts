import { SystemMessage } from '@langchain/core/messages';
import type { InteropZodObject } from '@langchain/core/utils/types';
import {
  type Layer,
  type Memory,
  type Principal,
  parseArgs,
  type RecallOptions,
  type Scope,
} from '@strata-memory/core';
import { type AgentMiddleware, createMiddleware } from 'langchain';
import { z } from 'zod/v4';
import { budgetSchema, layerSchema, memorySchema, principalSchema } from '../options/shared-schemas.ts';
import {
  parseScopeOption,
  type RunScopeSource,
  resolveRunScope,
  type ScopeOption,
} from '../scope/run-scope.ts';
import { latestHumanText, turnToObserve } from './agent-turn.ts';
import {
  type MemoryErrorReporter,
  type RecallErrorPolicy,
  report,
  warnOnMemoryError,
} from './memory-errors.ts';

/**
 * The context keys the middleware reads by default. LangChain hands a middleware's hooks only the
 * context keys its own `contextSchema` declares, so these are declared (all optional).
 */
export const scopeContextSchema = z.object({
  orgId: z.string().optional(),
  userId: z.string().optional(),
  agentId: z.string().optional(),
  threadId: z.string().optional(),
});

export interface StrataMemoryMiddlewareOptions<
  TContextSchema extends InteropZodObject = typeof scopeContextSchema,
> {
  /** The engine (`createMemory(...)`). */
  memory: Memory;
  /**
   * A bound scope, to which each run adds the levels its context (`orgId`, `userId`, `agentId`,
   * `threadId`) and `configurable.thread_id` name; or a function of `{ context, configurable }`
   * (give `contextSchema` too, so the keys it reads reach it). Without one, every run names its scope.
   */
  scope?: ScopeOption;
  /**
   * The middleware's context schema: the context keys its hooks receive. Default: optional
   * `orgId`, `userId`, `agentId` and `threadId` strings.
   */
  contextSchema?: TContextSchema;
  /** Passed to `memory.recall`. */
  recall?: {
    /** Token budget of the memory block. Default: the engine's `policy.defaultBudgetTokens`. */
    budget?: { tokens: number };
    /** Layers to recall (default all). Leave out `working` when a checkpointer already keeps the thread's messages. */
    layers?: Layer[];
    /** Most episodes to consider. */
    maxEpisodes?: number;
  };
  /** Who is asking: recall sees only items at or below its access level; writes record it. */
  principal?: Principal;
  /** When recall fails: `continue` (default) calls the model without memory and reports; `throw` fails the run. */
  onError?: RecallErrorPolicy;
  /** Receives recall failures (under `continue`) and observation failures. Default: `console.warn`. */
  reportError?: MemoryErrorReporter;
}

const optionsSchema = z
  .object({
    memory: memorySchema,
    scope: z.unknown().optional(),
    contextSchema: z.unknown().optional(),
    recall: z
      .object({
        budget: budgetSchema.optional(),
        layers: z.array(layerSchema).min(1).optional(),
        maxEpisodes: z.number().int().min(1).max(200).optional(),
      })
      .strict()
      .optional(),
    principal: principalSchema.optional(),
    onError: z.enum(['continue', 'throw']).optional(),
    reportError: z.custom<MemoryErrorReporter>((value) => typeof value === 'function').optional(),
  })
  .strict();

const WHERE = 'strataMemoryMiddleware';
export const STRATA_MIDDLEWARE_NAME = 'StrataMemoryMiddleware';

/** The model request with the memory block appended to its system message (changing only that). */
function withMemoryBlock<R extends { systemPrompt: string; systemMessage?: SystemMessage }>(
  request: R,
  rendered: string,
): R {
  const current = request.systemMessage;
  if (current && SystemMessage.isInstance(current)) {
    const empty = typeof current.content === 'string' && current.content.trim() === '';
    return {
      ...request,
      systemMessage: empty ? new SystemMessage(rendered) : current.concat(`\n\n${rendered}`),
    };
  }
  // langchain releases without `systemMessage` on the request: extend the prompt string instead.
  const prompt = request.systemPrompt?.trim() ? `${request.systemPrompt}\n\n${rendered}` : rendered;
  return { ...request, systemPrompt: prompt };
}

function runSource(runtime: { context?: unknown; configurable?: Record<string, unknown> }): RunScopeSource {
  return { context: runtime.context, configurable: runtime.configurable };
}

/**
 * Strata memory for `createAgent({ middleware })`.
 *
 * - `wrapModelCall`: recalls with the latest human message as the query and appends the engine's
 *   memory block to the system message (only `systemMessage` is changed). Runs before every model
 *   call, so a tool loop's later steps see what its tools just wrote.
 * - `afterAgent`: observes the turn once, when the agent has finished: the latest human message
 *   and every AI message after it (text and tool calls; tool results are not observed). One
 *   observation per run, however many tool steps it took.
 */
export function strataMemoryMiddleware<TContextSchema extends InteropZodObject = typeof scopeContextSchema>(
  options: StrataMemoryMiddlewareOptions<TContextSchema>,
): AgentMiddleware<undefined, TContextSchema> {
  const parsed = parseArgs(optionsSchema, options, WHERE);
  const memory = parsed.memory;
  const scopeOption = parseScopeOption(parsed.scope, WHERE);
  const policy: RecallErrorPolicy = parsed.onError ?? 'continue';
  const reporter: MemoryErrorReporter = parsed.reportError ?? warnOnMemoryError;
  const principal = parsed.principal;
  const contextSchema = (options.contextSchema ?? scopeContextSchema) as TContextSchema;

  const recallOptions = (query: string | undefined): RecallOptions => ({
    ...(query !== undefined ? { query } : {}),
    ...(parsed.recall?.budget ? { budget: parsed.recall.budget } : {}),
    ...(parsed.recall?.layers ? { layers: parsed.recall.layers } : {}),
    ...(parsed.recall?.maxEpisodes ? { maxEpisodes: parsed.recall.maxEpisodes } : {}),
    ...(principal ? { principal } : {}),
  });

  const middleware = createMiddleware({
    name: STRATA_MIDDLEWARE_NAME,
    contextSchema: contextSchema as InteropZodObject,

    async wrapModelCall(request, handler) {
      const scope = resolveRunScope(scopeOption, runSource(request.runtime), WHERE);
      let next = request;
      try {
        const context = await memory.recall(scope, recallOptions(latestHumanText(request.messages)));
        const rendered = context.render();
        if (rendered.trim()) next = withMemoryBlock(request, rendered);
      } catch (error) {
        if (policy === 'throw') throw error;
        report(reporter, { phase: 'recall', error, scope });
      }
      return handler(next);
    },

    async afterAgent(state, runtime) {
      let scope: Scope | undefined;
      try {
        scope = resolveRunScope(scopeOption, runSource(runtime), WHERE);
        const inputs = turnToObserve(state.messages);
        if (inputs.length > 0) await memory.observe(scope, inputs, principal ? { principal } : {});
      } catch (error) {
        // The answer is already there: a memory failure must not take it away.
        report(reporter, { phase: 'observe', error, ...(scope ? { scope } : {}) });
      }
      return undefined;
    },
  });
  return middleware as unknown as AgentMiddleware<undefined, TContextSchema>;
}
