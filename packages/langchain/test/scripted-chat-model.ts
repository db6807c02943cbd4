import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { AIMessage, BaseMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';

/**
 * A chat model with tool binding (so the base `withStructuredOutput` works on it) that answers from
 * a script of replies, in order (the last one repeats), or from a function of the call's messages,
 * and records the messages of every call. A reply that is an Error is thrown.
 */
export class ScriptedChatModel extends BaseChatModel {
  readonly calls: BaseMessage[][] = [];
  readonly boundTools: unknown[][] = [];
  readonly #replies: Array<AIMessage | Error> | ((messages: BaseMessage[]) => AIMessage | Error);

  constructor(replies: Array<AIMessage | Error> | ((messages: BaseMessage[]) => AIMessage | Error)) {
    super({});
    this.#replies = replies;
  }

  _llmType(): string {
    return 'scripted';
  }

  override bindTools(tools: unknown[]) {
    this.boundTools.push(tools);
    return this.withConfig({});
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    this.calls.push(messages);
    const replies = this.#replies;
    const reply =
      typeof replies === 'function'
        ? replies(messages)
        : replies[Math.min(this.calls.length - 1, replies.length - 1)];
    if (!reply) throw new Error('ScriptedChatModel: empty script');
    if (reply instanceof Error) throw reply;
    return { generations: [{ text: reply.text, message: reply }] };
  }
}
