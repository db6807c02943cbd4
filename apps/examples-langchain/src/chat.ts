import type { Memory } from '@strata-memory/core';
import { ITEM_ENTITY_TYPE, type StrataStore } from '@strata-memory/langchain/store';
import type { createMemoryAgent } from './agent.ts';
import { NOTES } from './note-tools.ts';

export interface ChatOptions {
  memory: Memory;
  agent: ReturnType<typeof createMemoryAgent>['agent'];
  store: StrataStore;
  /** Who is chatting, in which session. Long-term memory is shared by all of a user's sessions. */
  userId: string;
  threadId: string;
  /** Lines typed by the user. */
  lines: AsyncIterable<string>;
  write: (text: string) => void;
  /** Echo each line after a `you>` prompt (for piped input, so the transcript reads like a chat). */
  echo: boolean;
}

export const HELP =
  'Try: "My name is Ada.", "What is my name?", "Remember that …", "What do you remember about …?", ' +
  '"note: …", "find notes about …". Commands: /facts, /notes, /forget-me, /quit.';

/**
 * The chat loop. Each line is one agent run: the middleware recalls what the user said before (in
 * this session and earlier ones) into the system prompt and observes the turn; tools read and write
 * memory; everything lives in the SQLite file.
 */
export async function runChat(options: ChatOptions): Promise<void> {
  const { memory, agent, store, userId, threadId, write } = options;
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
      const facts = (await memory.facts.list({ userId })).filter((f) => f.entityType !== ITEM_ENTITY_TYPE);
      write(
        facts.length === 0
          ? '(no facts yet)\n'
          : `${facts.map((f) => `  ${f.entityId} · ${f.key}: ${JSON.stringify(f.value)}`).join('\n')}\n`,
      );
      continue;
    }
    if (line === '/notes') {
      const notes = await store.search([userId, NOTES], { limit: 100 });
      write(
        notes.length === 0 ? '(no notes yet)\n' : `${notes.map((n) => `  - ${n.value.text}`).join('\n')}\n`,
      );
      continue;
    }
    if (line === '/forget-me') {
      const counts = await memory.forget({ userId });
      write(`Forgot ${counts.facts} facts, ${counts.episodes} episodes and ${counts.messages} messages.\n`);
      continue;
    }
    const result = await agent.invoke(
      { messages: [{ role: 'user', content: line }] },
      { context: { userId }, configurable: { thread_id: threadId } },
    );
    write(`assistant> ${result.messages.at(-1)?.text ?? ''}\n`);
  }
}
