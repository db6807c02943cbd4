import type { Memory, MemoryErrorReporter, Principal, RecallErrorPolicy } from '@strata-memory/core';
import {
  budgetSchema,
  failurePolicyOptionFields,
  idSchema,
  type MemoryFailurePolicy,
  memoryFailurePolicy,
  memoryInstanceSchema,
  parseArgs,
  principalSchema,
} from '@strata-memory/core/integration';
import { z } from 'zod/v4';
import { MEMORY_TOOL_NAMES, type MemoryToolName } from '../tools/memory-tools.ts';

/** Long-term layers the injected block may hold (the working window comes as history messages). */
export type BlockLayer = 'summary' | 'facts' | 'episodes' | 'graph';

export interface StrataMemoryOptions {
  /** The engine (`createMemory(...)`). */
  memory: Memory;
  /** Bound to every scope: all resources share this org's tenant (and can be listed together). */
  orgId?: string;
  /** Bound to every scope: long-term memory is kept per agent (and per resource). */
  agentId?: string;
  /** Mastra's memory id. Default `strata-memory`. */
  id?: string;
  /** The block injected before each run. */
  recall?: {
    /** Token budget of the block (and of the history window: its `policy.workingShare`). Default: the engine's. */
    budget?: { tokens: number };
    /** Layers in the block. Default `['summary', 'facts', 'episodes', 'graph']`. */
    layers?: BlockLayer[];
    /** Most episodes to consider. */
    maxEpisodes?: number;
  };
  /** Add the thread's recent messages (the engine's working window) as history. Default true. */
  history?: boolean;
  /** Memory tools given to the agent: all (true, default), none (false), or the ones named. */
  tools?: boolean | MemoryToolName[];
  /** Token budget of a `recall` tool result when the model gives none. Default 800. */
  toolRecallBudgetTokens?: number;
  /**
   * Markdown template `getWorkingMemory` fills with the resource's facts (`- **Name**:` lines get the
   * value of the fact `name`). A run's `memory.options.workingMemory.template` wins over it.
   */
  workingMemoryTemplate?: string;
  /** Who is asking: recall sees only items at or below its access level; writes record it as provenance. */
  principal?: Principal;
  /** When recall fails: `continue` (default) runs without memory and reports; `throw` fails the run. */
  onError?: RecallErrorPolicy;
  /** Receives recall failures (under `continue`) and observation failures. Default: `console.warn`. */
  reportError?: MemoryErrorReporter;
}

export interface ResolvedOptions {
  memory: Memory;
  namespace: { orgId?: string; agentId?: string };
  id: string;
  recall: { budget?: { tokens: number }; layers: BlockLayer[]; maxEpisodes?: number };
  history: boolean;
  tools: readonly MemoryToolName[];
  toolRecallBudgetTokens: number;
  workingMemoryTemplate?: string;
  principal?: Principal;
  /** What a failed recall or observation does (`onError`, `reportError`). */
  failures: MemoryFailurePolicy;
}

const optionsSchema = z
  .object({
    memory: memoryInstanceSchema,
    orgId: idSchema.optional(),
    agentId: idSchema.optional(),
    id: idSchema.optional(),
    recall: z
      .object({
        budget: budgetSchema.optional(),
        layers: z
          .array(z.enum(['summary', 'facts', 'episodes', 'graph']))
          .min(1)
          .optional(),
        maxEpisodes: z.number().int().positive().max(200).optional(),
      })
      .strict()
      .optional(),
    history: z.boolean().optional(),
    tools: z.union([z.boolean(), z.array(z.enum(['remember', 'recall', 'forget', 'correct']))]).optional(),
    toolRecallBudgetTokens: z.number().int().min(16).max(100_000).optional(),
    workingMemoryTemplate: z.string().max(100_000).optional(),
    principal: principalSchema.optional(),
    ...failurePolicyOptionFields,
  })
  .strict();

/** Where Mastra's own `Memory` options go in this adapter, for a user porting a config. */
const MASTRA_OPTION_HINTS = {
  options:
    "strataMemory has no `options`: the history window is the engine's working buffer (set `history`, and size it with `recall.budget`, not `lastMessages`); `semanticRecall` is `recall`; `workingMemory.template` is `workingMemoryTemplate`",
  lastMessages:
    "the history window is the engine's working buffer: set `history` (true/false) and size it with `recall.budget`",
  semanticRecall: 'semantic recall is `recall: { budget, layers, maxEpisodes }`',
  workingMemory: 'set the template as `workingMemoryTemplate`',
} as const;

/** Validates the options; a bad option fails here, before any agent runs. */
export function resolveOptions(options: StrataMemoryOptions): ResolvedOptions {
  const parsed = parseArgs(optionsSchema, options, 'strataMemory', MASTRA_OPTION_HINTS);
  const tools =
    parsed.tools === undefined || parsed.tools === true
      ? MEMORY_TOOL_NAMES
      : parsed.tools === false
        ? []
        : [...new Set(parsed.tools)];
  return {
    memory: parsed.memory,
    namespace: {
      ...(parsed.orgId !== undefined ? { orgId: parsed.orgId } : {}),
      ...(parsed.agentId !== undefined ? { agentId: parsed.agentId } : {}),
    },
    id: parsed.id ?? 'strata-memory',
    recall: {
      ...(parsed.recall?.budget ? { budget: parsed.recall.budget } : {}),
      layers: parsed.recall?.layers ?? ['summary', 'facts', 'episodes', 'graph'],
      ...(parsed.recall?.maxEpisodes ? { maxEpisodes: parsed.recall.maxEpisodes } : {}),
    },
    history: parsed.history ?? true,
    tools,
    toolRecallBudgetTokens: parsed.toolRecallBudgetTokens ?? 800,
    ...(parsed.workingMemoryTemplate ? { workingMemoryTemplate: parsed.workingMemoryTemplate } : {}),
    ...(parsed.principal ? { principal: parsed.principal } : {}),
    failures: memoryFailurePolicy(
      {
        ...(parsed.onError ? { onError: parsed.onError } : {}),
        ...(parsed.reportError ? { reportError: parsed.reportError } : {}),
      },
      'strataMemory',
    ),
  };
}
