import type { MastraDBMessage } from '@mastra/core/memory';
import type { ProcessInputArgs, Processor } from '@mastra/core/processors';
import type { Layer, Memory, Scope } from '@strata-memory/core';
import { recallOptionsFor } from '@strata-memory/core/integration';
import type { ResolvedOptions } from '../memory/options.ts';
import { messageText } from '../messages/mastra-to-observe.ts';
import { toMastraMessages } from '../messages/record-to-mastra.ts';
import { type AgentRun, agentRunOf } from './agent-run.ts';

/** The tag of the system message holding the rendered memory block. */
export const MEMORY_BLOCK_TAG = 'strata-memory';

export interface RecallProcessorDeps {
  memory: Memory;
  options: ResolvedOptions;
  /** The run's thread scope, ownership-checked. */
  scopeOf: (run: AgentRun) => Promise<Scope>;
}

/** The latest user message of the run's input: the recall query. */
function queryOf(input: readonly MastraDBMessage[]): string | undefined {
  for (let i = input.length - 1; i >= 0; i--) {
    const message = input[i]!;
    if (message.role !== 'user') continue;
    const text = messageText(message).trim();
    if (text.length > 0) return text.slice(0, 10_000);
  }
  return undefined;
}

/**
 * The input processor: before the model is called, recall once for the run's thread with the
 * latest user message as the query, add the thread's recent messages (the engine's working window)
 * as history, and put the rest of the block (facts, summary, relevant episodes, graph paths;
 * `render({ omit: ['working'] })`) in a tagged system message. Runs once per `generate` / `stream`.
 */
export class StrataRecallProcessor implements Processor<'strata-memory-recall'> {
  readonly id = 'strata-memory-recall';
  readonly name = 'Strata memory: recall';
  readonly #deps: RecallProcessorDeps;

  constructor(deps: RecallProcessorDeps) {
    this.#deps = deps;
  }

  async processInput({ messageList, requestContext }: ProcessInputArgs) {
    const run = agentRunOf(requestContext);
    if (!run) return messageList;
    const { memory, options } = this.#deps;
    // A missing or foreign thread is the caller's bug: it fails the run whatever the policy.
    const scope = await this.#deps.scopeOf(run);
    const call = { query: queryOf(messageList.get.input.db()), principal: options.principal };
    // One recall: the working window comes back as messages, the rest as the block without it.
    const layers: Layer[] = options.history ? [...options.recall.layers, 'working'] : options.recall.layers;
    const context = await options.failures.recall(scope, () =>
      memory.recall(scope, recallOptionsFor({ ...options.recall, layers }, call)),
    );
    if (!context) return messageList;
    const history = options.history ? toMastraMessages(context.sections.working) : [];
    if (history.length > 0) messageList.add(history, 'memory');
    const rendered = context.render({ omit: ['working'] });
    if (rendered.trim().length > 0) messageList.addSystem(rendered, MEMORY_BLOCK_TAG);
    return messageList;
  }
}
