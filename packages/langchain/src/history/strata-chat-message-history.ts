import { BaseListChatMessageHistory } from '@langchain/core/chat_history';
import type { BaseMessage } from '@langchain/core/messages';
import {
  LIMITS,
  type Memory,
  type Principal,
  parseScope,
  type Scope,
  StrataError,
} from '@strata-memory/core';
import { memoryInstanceSchema, parseArgs, principalSchema } from '@strata-memory/core/integration';
import { z } from 'zod/v4';
import { fromMessageRecord, toObserveInput } from '../messages/message-conversion.ts';

export interface StrataChatMessageHistoryOptions {
  /** The engine (`createMemory(...)`). */
  memory: Memory;
  /** The conversation: a scope with `threadId`, e.g. `{ userId, threadId: sessionId }`. */
  scope: Scope;
  /** Who is speaking: recorded as the provenance of what is learned from the messages. */
  principal?: Principal;
}

const optionsSchema = z
  .object({ memory: memoryInstanceSchema, scope: z.unknown(), principal: principalSchema.optional() })
  .strict();

/** Messages per page when reading a thread back. */
const PAGE = 1000;

const WHERE = 'StrataChatMessageHistory';

/**
 * A LangChain chat message history kept by Strata. Adding messages observes them (the thread's
 * working buffer, episodes and extracted facts, one extraction per call); `getMessages` reads the
 * whole thread back in order; `clear` deletes the thread's messages. What the thread taught long-term
 * memory (episodes, facts) stays: use `memory.forget(scope)` to erase that too.
 *
 * A drop-in for `InMemoryChatMessageHistory` and friends in `RunnableWithMessageHistory`:
 * `getMessageHistory: (sessionId) => new StrataChatMessageHistory({ memory, scope: { userId, threadId: sessionId } })`.
 */
export class StrataChatMessageHistory extends BaseListChatMessageHistory {
  override lc_namespace = ['langchain', 'stores', 'message', 'strata'];

  readonly scope: Scope;
  readonly #memory: Memory;
  readonly #principal: Principal | undefined;

  constructor(options: StrataChatMessageHistoryOptions) {
    super();
    const parsed = parseArgs(optionsSchema, options, WHERE);
    const scope = parseScope(parsed.scope, `${WHERE}: scope`);
    if (scope.threadId === undefined) {
      throw new StrataError({
        code: 'invalid_scope',
        message: `${WHERE}: the scope needs a threadId (one history per conversation), e.g. { userId, threadId: sessionId }.`,
      });
    }
    this.scope = scope;
    this.#memory = parsed.memory;
    this.#principal = parsed.principal;
  }

  async getMessages(): Promise<BaseMessage[]> {
    const out: BaseMessage[] = [];
    let afterSeq: number | undefined;
    for (;;) {
      const page = await this.#memory.store.threads.listMessages({
        scope: this.scope,
        limit: PAGE,
        ...(afterSeq !== undefined ? { afterSeq } : {}),
      });
      out.push(...page.map(fromMessageRecord));
      if (page.length < PAGE) return out;
      afterSeq = page[page.length - 1]!.seq;
    }
  }

  async addMessage(message: BaseMessage): Promise<void> {
    await this.addMessages([message]);
  }

  /**
   * Observes the messages in one call (per 1,000), so a turn (input and answer) is extracted from
   * once. Every message is converted first: one that cannot be stored stores nothing.
   */
  override async addMessages(messages: BaseMessage[]): Promise<void> {
    const inputs = messages.map((message) => toObserveInput(message));
    const options = this.#principal ? { principal: this.#principal } : {};
    for (let i = 0; i < inputs.length; i += LIMITS.maxBatch) {
      await this.#memory.observe(this.scope, inputs.slice(i, i + LIMITS.maxBatch), options);
    }
  }

  /** Deletes the thread's messages (its working buffer and rolling summary). */
  override async clear(): Promise<void> {
    await this.#memory.store.threads.delete({ scope: this.scope });
  }
}
