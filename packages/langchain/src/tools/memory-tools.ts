import { type DynamicStructuredTool, type ToolRuntime, tool } from '@langchain/core/tools';
import type { Memory, Principal } from '@strata-memory/core';
import { memoryToolDefinitions } from '@strata-memory/core/integration';
import { parseScopeOption, resolveRunScope, type ScopeOption } from '../scope/run-scope.ts';

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

const WHERE = 'strataMemoryTools';

/** The four tools, in this order: remember, recall, forget, correct. */
export type StrataMemoryTools = [
  remember: DynamicStructuredTool,
  recall: DynamicStructuredTool,
  forget: DynamicStructuredTool,
  correct: DynamicStructuredTool,
];

/** The parts of a tool runtime (or a plain run config) that name the scope. */
function runSource(runtime: unknown) {
  const value = (runtime ?? {}) as Partial<ToolRuntime> & { configurable?: Record<string, unknown> };
  return {
    context: value.context,
    configurable: value.configurable ?? value.config?.configurable,
  };
}

/**
 * Memory as LangChain tools the model can call: core's `remember`, `recall`, `forget` and `correct`
 * (see `memoryToolDefinitions`), each built with `tool()` and run at the scope of its run: the bound
 * scope plus what the agent's `context` and `configurable.thread_id` add (see `scope`).
 */
export function strataMemoryTools(options: StrataMemoryToolsOptions): StrataMemoryTools {
  const { scope, ...engineOptions } = options ?? ({} as StrataMemoryToolsOptions);
  const definitions = memoryToolDefinitions(engineOptions, WHERE);
  const scopeOption = parseScopeOption(scope, WHERE);
  const scopeOf = (runtime: unknown) => resolveRunScope(scopeOption, runSource(runtime), WHERE);
  const { remember, recall, forget, correct } = definitions;
  return [
    tool((input, runtime) => remember.execute(input, scopeOf(runtime)), {
      name: remember.name,
      description: remember.description,
      schema: remember.inputSchema,
    }),
    tool((input, runtime) => recall.execute(input, scopeOf(runtime)), {
      name: recall.name,
      description: recall.description,
      schema: recall.inputSchema,
    }),
    tool((input, runtime) => forget.execute(input, scopeOf(runtime)), {
      name: forget.name,
      description: forget.description,
      schema: forget.inputSchema,
    }),
    tool((input, runtime) => correct.execute(input, scopeOf(runtime)), {
      name: correct.name,
      description: correct.description,
      schema: correct.inputSchema,
    }),
  ] as unknown as StrataMemoryTools;
}
