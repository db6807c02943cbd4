import { Agent } from '@mastra/core/agent';
import type { Memory } from '@strata-memory/core';
import { strataMemory } from '@strata-memory/mastra';
import type { AgentModel } from './chat-model.ts';

export interface ChatOptions {
  memory: Memory;
  model: AgentModel;
  /** Mastra's resource (Strata's user) and thread (one per session unless continued). */
  resource: string;
  thread: string;
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
 * The chat loop: a Mastra agent whose memory is Strata. Each line is sent alone; the thread's
 * history, earlier sessions and the user's facts reach the model through the memory's processors.
 */
export async function runChat(options: ChatOptions): Promise<void> {
  const { memory, write, resource, thread } = options;
  const agent = new Agent({
    id: 'examples-mastra',
    name: 'Strata chat',
    instructions: INSTRUCTIONS,
    model: options.model,
    memory: strataMemory({ memory }),
  });
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
      const facts = await memory.facts.list({ userId: resource });
      write(
        facts.length === 0
          ? '(no facts yet)\n'
          : `${facts.map((f) => `  ${f.entityId} · ${f.key}: ${JSON.stringify(f.value)}`).join('\n')}\n`,
      );
      continue;
    }
    if (line === '/forget-me') {
      const counts = await memory.forget({ userId: resource });
      write(`Forgot ${counts.facts} facts, ${counts.episodes} episodes and ${counts.messages} messages.\n`);
      continue;
    }
    const result = await agent.stream(line, { memory: { thread, resource } });
    write('assistant> ');
    for await (const delta of result.textStream) write(delta);
    write('\n');
  }
}
