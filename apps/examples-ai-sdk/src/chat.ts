import { withMemory } from '@strata-memory/ai-sdk';
import type { Memory, Scope } from '@strata-memory/core';
import { type LanguageModel, streamText } from 'ai';

export interface ChatOptions {
  memory: Memory;
  model: Exclude<LanguageModel, string>;
  /** Who is chatting, in which session. Long-term memory is shared by all of a user's sessions. */
  scope: Scope & { userId: string; threadId: string };
  /** Lines typed by the user. */
  lines: AsyncIterable<string>;
  write: (text: string) => void;
  /** Echo each line after a `you>` prompt (for piped input, so the transcript reads like a chat). */
  echo: boolean;
}

const INSTRUCTIONS =
  'You are a friendly assistant with long-term memory. Use what the memory block says about the user; ' +
  'if it does not say, admit you do not know.';

export const HELP = 'Commands: /facts (what memory holds about you), /forget-me (erase it), /quit.';

/**
 * The chat loop. Each line is sent on its own: the conversation so far, earlier sessions and the
 * user's facts all reach the model through the Strata middleware, from the SQLite file.
 */
export async function runChat(options: ChatOptions): Promise<void> {
  const { memory, scope, write } = options;
  const model = withMemory(options.model, { memory, scope });
  for await (const raw of options.lines) {
    const line = raw.trim();
    if (line.length === 0) continue;
    if (options.echo) write(`you> ${line}\n`);
    if (line === '/quit') break;
    if (line === '/help') {
      write(`${HELP}\n`);
      continue;
    }
    if (line === '/facts') {
      const facts = await memory.facts.list({ userId: scope.userId });
      write(
        facts.length === 0
          ? '(no facts yet)\n'
          : `${facts.map((f) => `  ${f.entityId} · ${f.key}: ${JSON.stringify(f.value)}`).join('\n')}\n`,
      );
      continue;
    }
    if (line === '/forget-me') {
      const counts = await memory.forget({ userId: scope.userId });
      write(`Forgot ${counts.facts} facts, ${counts.episodes} episodes and ${counts.messages} messages.\n`);
      continue;
    }
    const result = streamText({ model, instructions: INSTRUCTIONS, prompt: line });
    write('assistant> ');
    for await (const delta of result.textStream) write(delta);
    write('\n');
  }
}
