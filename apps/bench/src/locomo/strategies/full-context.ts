import type { Scope, Store, Tokenizer } from '@strata-memory/core';
import { type ContextLine, contextLine } from './context-lines.ts';
import { threadMessages, threadsNewestFirst } from './thread-messages.ts';
import type { Strategy } from './types.ts';

/**
 * `full-context`: every turn of the conversation in the prompt, read back from the store's
 * threads in order. It holds all evidence by construction, so only its tokens (and the time to
 * read it all) are reported.
 */
export function fullContextStrategy(args: {
  store: Store;
  conversationScope: Scope;
  tokenizer: Tokenizer;
}): Strategy {
  // The transcript does not depend on the question: count it once per distinct text.
  let counted: { text: string; tokens: number } | undefined;
  const tokensOf = (lines: ContextLine[]) => {
    const text = lines.map((line) => line.text).join('\n');
    if (counted?.text !== text) counted = { text, tokens: args.tokenizer.count(text) };
    return counted.tokens;
  };
  return {
    name: 'full-context',
    scored: false,
    async retrieve() {
      const start = performance.now();
      const lines: ContextLine[] = [];
      const threads = (await threadsNewestFirst(args.store, args.conversationScope)).reverse();
      for (const thread of threads) {
        for await (const message of threadMessages(args.store, thread, 'asc')) {
          lines.push(contextLine({ turns: [message.id], speaker: message.name, text: message.content }));
        }
      }
      const latencyMs = performance.now() - start;
      return {
        ranked: [],
        budgets: new Map(),
        contextTokens: tokensOf(lines),
        latenciesMs: [latencyMs],
      };
    },
  };
}
