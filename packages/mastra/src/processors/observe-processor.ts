import type { MessageList } from '@mastra/core/agent/message-list';
import type { OutputResult, Processor } from '@mastra/core/processors';
import type { RequestContext } from '@mastra/core/request-context';
import type { Memory, ObserveInput, Scope } from '@strata-memory/core';
import type { ResolvedOptions } from '../memory/options.ts';
import { toObserveInput } from '../messages/mastra-to-observe.ts';
import { type AgentRun, agentRunOf } from './agent-run.ts';

export interface ObserveProcessorDeps {
  memory: Memory;
  options: ResolvedOptions;
  scopeOf: (run: AgentRun) => Promise<Scope>;
}

/**
 * The output processor: when the run has finished (after every step of a tool loop, once the
 * stream is read), observe the turn in one call: the run's new input messages and the response
 * messages, under Mastra's message ids. The engine's observe is idempotent per id, so a message
 * Mastra also saved through `saveMessages` is not written twice. A failure is reported, never
 * thrown: the answer has already been produced.
 */
export class StrataObserveProcessor implements Processor<'strata-memory-observe'> {
  readonly id = 'strata-memory-observe';
  readonly name = 'Strata memory: observe';
  readonly #deps: ObserveProcessorDeps;

  constructor(deps: ObserveProcessorDeps) {
    this.#deps = deps;
  }

  async processOutputResult({
    messageList,
    requestContext,
    result,
  }: {
    messageList: MessageList;
    requestContext?: RequestContext;
    result?: OutputResult;
  }) {
    const run = agentRunOf(requestContext);
    if (!run || run.readOnly) return messageList;
    const response = messageList.get.response.db();
    if (result?.finishReason === 'error' && response.length === 0) return messageList;
    const turn: ObserveInput[] = [];
    for (const message of [...messageList.get.input.db(), ...response]) {
      const input = toObserveInput(message);
      if (input) turn.push(input);
    }
    if (turn.length === 0) return messageList;
    const { memory, options } = this.#deps;
    let scope: Scope;
    try {
      scope = await this.#deps.scopeOf(run);
    } catch (error) {
      options.failures.report({ phase: 'observe', error });
      return messageList;
    }
    await options.failures.observe(scope, () =>
      memory.observe(scope, turn, options.principal ? { principal: options.principal } : {}),
    );
    return messageList;
  }
}
