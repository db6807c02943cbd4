import type { Prompt, PromptMessage } from './model-call.ts';

/** What one model call's prompt says about the conversation turn it belongs to. */
export interface PromptTurn {
  /** The latest user message's text: the recall query. Absent when there is none. */
  query?: string;
  /**
   * True on the first model call of a turn: the latest user message is not yet followed by an
   * assistant or tool message. Later steps of a tool loop carry the same user message followed by
   * the tool calls and results, and must not observe it again.
   */
  firstStep: boolean;
}

/** The text of a message's text parts, joined by newlines (files and other parts are skipped). */
export function messageText(message: PromptMessage): string {
  if (typeof message.content === 'string') return message.content;
  const texts: string[] = [];
  for (const part of message.content) {
    if (part.type === 'text') texts.push(part.text);
  }
  return texts.join('\n');
}

export function readPromptTurn(prompt: Prompt): PromptTurn {
  let lastUser = -1;
  for (let i = prompt.length - 1; i >= 0; i--) {
    if (prompt[i]!.role === 'user') {
      lastUser = i;
      break;
    }
  }
  if (lastUser < 0) return { firstStep: false };
  const text = messageText(prompt[lastUser]!).trim();
  const answered = prompt.slice(lastUser + 1).some((m) => m.role === 'assistant' || m.role === 'tool');
  return { ...(text ? { query: text } : {}), firstStep: !answered && text.length > 0 };
}

/** The prompt with `text` as a system message right after the caller's own leading system messages. */
export function insertSystemContext(prompt: Prompt, text: string): Prompt {
  let at = 0;
  while (at < prompt.length && prompt[at]!.role === 'system') at++;
  return [...prompt.slice(0, at), { role: 'system', content: text }, ...prompt.slice(at)];
}
