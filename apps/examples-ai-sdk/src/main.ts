/**
 * A terminal chat whose memory survives restarts.
 *
 *   pnpm --filter @strata-memory/examples-ai-sdk start [--db path] [--user id]
 *
 * Memory lives in one SQLite file (default `.strata/chat.db`); sentence embeddings are computed
 * offline. Each run is a new session (thread) of the same user, so what you said last time is
 * recalled this time. Without OPENAI_API_KEY a scripted offline model answers.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { createMemory } from '@strata-memory/core';
import { localEmbedder } from '@strata-memory/embed-local';
import { sqliteStore } from '@strata-memory/store-sqlite';
import { HELP, runChat } from './chat.ts';
import { chooseChatModel } from './chat-model.ts';
import { type ChatOptions, chatOptions } from './chat-options.ts';

const values = parsedOptions();

const path = resolve(values.db);
mkdirSync(dirname(path), { recursive: true });
const threadId =
  values.session ?? `session-${new Date().toISOString().slice(0, 19)}-${randomUUID().slice(0, 8)}`;
const scope = { userId: values.user, threadId };
const { model, description } = chooseChatModel();

const embedder = localEmbedder();
const memory = createMemory({ store: sqliteStore({ path }), embedder });
const interactive = process.stdin.isTTY === true;
const write = (text: string) => void process.stdout.write(text);

write(`Strata chat · ${description}\nmemory: ${path} · user ${scope.userId} · ${threadId}\n`);
write('Loading the offline sentence embedder… ');
await embedder.warmup();
write(`ready.\n${HELP}\n`);
const reader = createInterface({
  input: process.stdin,
  ...(interactive ? { output: process.stdout, prompt: 'you> ' } : {}),
});
async function* lines(): AsyncGenerator<string> {
  if (interactive) reader.prompt();
  for await (const line of reader) {
    yield line;
    if (interactive) reader.prompt();
  }
}
try {
  await runChat({ memory, model, scope, lines: lines(), write, echo: !interactive });
} finally {
  reader.close();
  await memory.close();
}

/** The command line, or the process exits: 0 after `--help`, 2 on a bad option (with the reason). */
function parsedOptions(): ChatOptions {
  try {
    return chatOptions(process.argv.slice(2)) ?? process.exit(0);
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  }
}
