import type { MessageRecord } from '../store/records.ts';

/**
 * The working window: the most recent messages of a thread that fit a token budget. The system
 * prompt (the system messages before the first other message) and the latest user turn are pinned:
 * never evicted, whatever the budget. Everything else is a contiguous run of the newest messages;
 * what falls before it is evicted (and folded into the rolling summary by the caller).
 */

export type PinReason = 'system_prompt' | 'latest_user_turn';

export interface WindowResult {
  /** Pinned and fitting messages, by seq. */
  kept: MessageRecord[];
  /** Messages that fell out of the window, by seq. */
  evicted: MessageRecord[];
  pinned: Map<string, PinReason>;
  /** Tokens of every kept message. */
  tokens: Map<string, number>;
  used: number;
}

export function selectWorkingWindow(args: {
  /** The thread's messages not yet covered by the summary, by seq (the system prompt included). */
  messages: MessageRecord[];
  maxTokens: number;
  countTokens: (message: MessageRecord) => number;
}): WindowResult {
  const messages = [...args.messages].sort((a, b) => a.seq - b.seq);
  const pinned = new Map<string, PinReason>();
  for (const m of messages) {
    if (m.role !== 'system') break;
    pinned.set(m.id, 'system_prompt');
  }
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role === 'user') {
      if (!pinned.has(m.id)) pinned.set(m.id, 'latest_user_turn');
      break;
    }
  }
  const tokens = new Map<string, number>();
  let used = 0;
  for (const m of messages) {
    if (!pinned.has(m.id)) continue;
    const t = args.countTokens(m);
    tokens.set(m.id, t);
    used += t;
  }
  // The newest unpinned messages, newest first, while they fit; the first that does not ends the run.
  let cut = messages.length;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (pinned.has(m.id)) continue;
    const t = args.countTokens(m);
    if (used + t > args.maxTokens) break;
    tokens.set(m.id, t);
    used += t;
    cut = i;
  }
  const kept: MessageRecord[] = [];
  const evicted: MessageRecord[] = [];
  messages.forEach((m, i) => {
    if (pinned.has(m.id) || i >= cut) kept.push(m);
    else evicted.push(m);
  });
  return { kept, evicted, pinned, tokens, used };
}
