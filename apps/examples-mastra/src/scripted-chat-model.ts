import { blockFacts } from '@strata-memory/core/test';
import { MockLanguageModelV4 } from 'ai/test';

/**
 * An offline stand-in for a chat model, so the example runs without an API key. It is not clever:
 * it answers "what is my <attribute>?" only from the memory block Strata put in its system prompt,
 * and "what did I say last?" only from the history messages Strata loaded, so a right answer after
 * a restart shows that memory survived it.
 */

type CallOptions = MockLanguageModelV4['doGenerateCalls'][number];
type Message = CallOptions['prompt'][number];

const QUESTION =
  /^(?:what(?:'s| is| was)|do you (?:know|remember)|tell me)\s+(?:my|our)\s+([\p{L}\p{N}' -]+?)\s*\??$/iu;
const RECALL_ALL = /^what do you (?:know|remember) about me\??$/i;
const LAST_SAID = /^what did i (?:just )?say(?: last)?\??$/i;
function textOf(message: Message): string {
  if (typeof message.content === 'string') return message.content;
  return message.content
    .flatMap((part) => (part.type === 'text' ? [part.text] : []))
    .join(' ')
    .trim();
}

function userTexts(call: CallOptions): string[] {
  return call.prompt.filter((m) => m.role === 'user').map(textOf);
}

/** The facts in the memory block, as `{ key, value }`. */
function rememberedFacts(call: CallOptions): Array<{ key: string; value: string }> {
  const facts: Array<{ key: string; value: string }> = [];
  for (const message of call.prompt) {
    if (message.role !== 'system') continue;
    facts.push(...blockFacts(message.content));
  }
  return facts;
}

/** The scripted reply to one call. */
export function scriptedReply(call: CallOptions): string {
  const said = userTexts(call);
  const text = said[said.length - 1] ?? '';
  const facts = rememberedFacts(call);
  if (LAST_SAID.test(text)) {
    const previous = said[said.length - 2];
    return previous ? `You said: "${previous}"` : 'You have not said anything in this session yet.';
  }
  if (RECALL_ALL.test(text)) {
    if (facts.length === 0) return 'I do not remember anything about you yet.';
    return `I remember: ${facts.map((f) => `your ${f.key} is ${f.value}`).join('; ')}.`;
  }
  const question = QUESTION.exec(text);
  if (question) {
    const key = question[1]!.toLowerCase();
    const fact = facts.find((f) => f.key.toLowerCase() === key);
    return fact ? `Your ${fact.key} is ${fact.value}.` : `I don't know your ${key} yet.`;
  }
  if (text.endsWith('?'))
    return 'I can only answer questions about what you told me, like "what is my name?".';
  return "Got it, I'll remember that.";
}

function usage() {
  return {
    inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: undefined, text: undefined, reasoning: undefined },
  };
}

/** A `LanguageModelV4` that streams `scriptedReply` word by word. */
export function scriptedChatModel(): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    provider: 'scripted',
    modelId: 'offline-chat',
    async doGenerate(call) {
      return {
        content: [{ type: 'text', text: scriptedReply(call) }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: usage(),
        warnings: [],
      };
    },
    async doStream(call) {
      const words = scriptedReply(call).split(/(?<= )/);
      return {
        stream: new ReadableStream({
          start(controller) {
            controller.enqueue({ type: 'stream-start', warnings: [] });
            controller.enqueue({ type: 'text-start', id: 'reply' });
            for (const delta of words) controller.enqueue({ type: 'text-delta', id: 'reply', delta });
            controller.enqueue({ type: 'text-end', id: 'reply' });
            controller.enqueue({
              type: 'finish',
              finishReason: { unified: 'stop', raw: 'stop' },
              usage: usage(),
            });
            controller.close();
          },
        }),
      };
    },
  });
}
