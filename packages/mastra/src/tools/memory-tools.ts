import { createTool, type ToolExecutionContext } from '@mastra/core/tools';
import type { Memory, Principal, Scope } from '@strata-memory/core';
import {
  MEMORY_TOOL_NAMES,
  type MemoryToolName,
  memoryToolDefinitions,
} from '@strata-memory/core/integration';

export type {
  CorrectOutput,
  FactView,
  ForgetOutput,
  MemoryToolName,
  RecalledItemView,
  RecallOutput,
  RememberOutput,
} from '@strata-memory/core/integration';
export { MEMORY_TOOL_NAMES };

export interface MemoryToolsDeps {
  memory: Memory;
  /** Resolves (and ownership-checks) the thread scope of the run a tool call belongs to. */
  scopeOf: (context: ToolExecutionContext) => Promise<Scope>;
  principal?: Principal;
  /** Token budget of a `recall` result when the model gives none. */
  recallBudgetTokens: number;
  /** Which tools to expose. */
  names: readonly MemoryToolName[];
}

/**
 * Strata's memory tools for a Mastra agent: core's `remember`, `recall`, `forget` and `correct`
 * (see `memoryToolDefinitions`), built with `createTool` (ids `strata-<name>`). Each acts at the
 * run's thread scope; the engine decides where that reaches (a note and a `forget` reach the
 * resource's long-term memory, never another resource's).
 */
export function memoryTools(deps: MemoryToolsDeps) {
  const { remember, recall, forget, correct } = memoryToolDefinitions(
    {
      memory: deps.memory,
      recallBudgetTokens: deps.recallBudgetTokens,
      ...(deps.principal ? { principal: deps.principal } : {}),
    },
    'strataMemory: tools',
  );
  const all = {
    remember: createTool({
      id: 'strata-remember',
      description: remember.description,
      inputSchema: remember.inputSchema,
      execute: async (input, context) => remember.execute(input, await deps.scopeOf(context)),
    }),
    recall: createTool({
      id: 'strata-recall',
      description: recall.description,
      inputSchema: recall.inputSchema,
      execute: async (input, context) => recall.execute(input, await deps.scopeOf(context)),
    }),
    forget: createTool({
      id: 'strata-forget',
      description: forget.description,
      inputSchema: forget.inputSchema,
      execute: async (input, context) => forget.execute(input, await deps.scopeOf(context)),
    }),
    correct: createTool({
      id: 'strata-correct',
      description: correct.description,
      inputSchema: correct.inputSchema,
      execute: async (input, context) => correct.execute(input, await deps.scopeOf(context)),
    }),
  };
  return Object.fromEntries(deps.names.map((name) => [name, all[name]])) as Partial<typeof all>;
}
