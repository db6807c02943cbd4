import { SystemMessage } from '@langchain/core/messages';
import type { InteropZodObject } from '@langchain/core/utils/types';
import type { Memory, MemoryErrorReporter, Principal, RecallErrorPolicy, Scope } from '@strata-memory/core';
import {
  integrationOptionFields,
  memoryFailurePolicy,
  parseArgs,
  type RecallSettings,
  recallOptionsFor,
} from '@strata-memory/core/integration';
import { type AgentMiddleware, createMiddleware } from 'langchain';
import { z } from 'zod/v4';
import {
  parseScopeOption,
  type RunScopeSource,
  resolveRunScope,
  type ScopeOption,
} from '../scope/run-scope.ts';
import { latestHumanText, turnToObserve } from './agent-turn.ts';

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
  /**
   * Passed to `memory.recall`: `budget` (default the engine's `policy.defaultBudgetTokens`),
   * `layers` (default all; leave out `working` when a checkpointer already keeps the thread's
   * messages), `maxEpisodes`.
   */
  recall?: RecallSettings;
  /** Who is asking: recall sees only items at or below its access level; writes record it. */
  principal?: Principal;
  /** When recall fails: `continue` (default) calls the model without memory and reports; `throw` fails the run. */
  onError?: RecallErrorPolicy;
  /** Receives recall failures (under `continue`) and observation failures. Default: `console.warn`. */
  reportError?: MemoryErrorReporter;
}

const optionsSchema = z
  .object({
    ...integrationOptionFields,
    scope: z.unknown().optional(),
    contextSchema: z.unknown().optional(),
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
  const failures = memoryFailurePolicy(
    {
      ...(parsed.onError ? { onError: parsed.onError } : {}),
      ...(parsed.reportError ? { reportError: parsed.reportError } : {}),
    },
    WHERE,
  );
  const principal = parsed.principal;
  const contextSchema = (options.contextSchema ?? scopeContextSchema) as TContextSchema;

  const middleware = createMiddleware({
    name: STRATA_MIDDLEWARE_NAME,
    contextSchema: contextSchema as InteropZodObject,

    async wrapModelCall(request, handler) {
      const scope = resolveRunScope(scopeOption, runSource(request.runtime), WHERE);
      const query = latestHumanText(request.messages);
      const context = await failures.recall(scope, () =>
        memory.recall(scope, recallOptionsFor(parsed.recall, { query, principal })),
      );
      const rendered = context?.render() ?? '';
      return handler(rendered.trim() ? withMemoryBlock(request, rendered) : request);
    },
    async afterAgent(state, runtime) {
      // The answer is already there: a memory failure (even a missing scope) must not take it away.
      let scope: Scope;
      try {
        scope = resolveRunScope(scopeOption, runSource(runtime), WHERE);
      } catch (error) {
        failures.report({ phase: 'observe', error });
        return undefined;
      }
      const inputs = turnToObserve(state.messages);
      if (inputs.length > 0) {
        await failures.observe(scope, () => memory.observe(scope, inputs, principal ? { principal } : {}));
      }
      return undefined;
    },
  });

  return middleware as unknown as AgentMiddleware<undefined, TContextSchema>;
}
