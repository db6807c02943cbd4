import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Embedder, Tokenizer } from '@strata-memory/core';
import { directoryBytes } from '../../setup/stores.ts';
import { strataEmbeddingModel } from '../embedder-bridges.ts';
import { CONTEXT_TOP_K, hitsContext, turnText } from '../hit-context.ts';
import type { PeerHit, PeerMemory, PeerSearchArgs } from '../peer-memory.ts';

/** The versions pinned in the bench's package.json. */
export const MASTRA_MEMORY_VERSION = '1.31.0';
export const MASTRA_LIBSQL_VERSION = '1.23.1';

/**
 * Mastra Memory (`@mastra/memory`) on `@mastra/libsql` (storage and vectors in one file database),
 * the offline embedder as an AI SDK embedding model. Turns are saved with `saveMessages`, one
 * thread per session, the conversation as the resource; a question is a `recall` from a new thread
 * with semantic recall only (`lastMessages: false`, `topK`, `messageRange: 0` so each result is one
 * turn, `scope: 'resource'`). Recall returns its messages in conversation order, not by rank.
 */
export async function openMastraPeer(args: {
  embedder: Embedder;
  tokenizer: Tokenizer;
}): Promise<PeerMemory> {
  const [{ Memory }, { LibSQLStore, LibSQLVector }] = await Promise.all([
    import('@mastra/memory'),
    import('@mastra/libsql'),
  ]);
  const dir = await mkdtemp(join(tmpdir(), 'strata-bench-mastra-'));
  const url = `file:${join(dir, 'mastra.db')}`;
  const storage = new LibSQLStore({ id: 'bench-storage', url });
  const vector = new LibSQLVector({ id: 'bench-vector', url });
  const memory = new Memory({
    storage,
    vector,
    embedder: strataEmbeddingModel(args.embedder),
    options: {
      lastMessages: false,
      semanticRecall: { topK: CONTEXT_TOP_K, messageRange: 0, scope: 'resource' },
    },
  });
  const threads = new Set<string>();

  const ensureThread = async (threadId: string, resourceId: string, at: number) => {
    if (threads.has(threadId)) return;
    threads.add(threadId);
    const date = new Date(at);
    await memory.saveThread({
      thread: { id: threadId, resourceId, title: threadId, createdAt: date, updatedAt: date, metadata: {} },
    });
  };

  const search = async ({ userId, threadId, query }: PeerSearchArgs, k: number): Promise<PeerHit[]> => {
    const thread = `${userId}/${threadId}`;
    await ensureThread(thread, userId, Date.now());
    const { messages } = await memory.recall({
      threadId: thread,
      resourceId: userId,
      vectorSearchString: query,
      threadConfig: { lastMessages: false, semanticRecall: { topK: k, messageRange: 0, scope: 'resource' } },
    });
    return messages.map((message) => ({
      turnIds: [message.id],
      text: message.content.parts.map((part) => (part.type === 'text' ? part.text : '')).join(''),
    }));
  };

  return {
    label: `@mastra/memory ${MASTRA_MEMORY_VERSION} + @mastra/libsql ${MASTRA_LIBSQL_VERSION}`,
    rankedResults: false,
    async add(turn) {
      const threadId = `${turn.userId}/${turn.threadId}`;
      await ensureThread(threadId, turn.userId, turn.at);
      await memory.saveMessages({
        messages: [
          {
            id: turn.id,
            role: 'user',
            createdAt: new Date(turn.at),
            threadId,
            resourceId: turn.userId,
            content: { format: 2, parts: [{ type: 'text', text: turnText(turn) }] },
          },
        ],
      });
    },
    search: (searchArgs) => search(searchArgs, searchArgs.k),
    async context(contextArgs) {
      const hits = await search(contextArgs, CONTEXT_TOP_K);
      return hitsContext({ hits, budget: contextArgs.budget, tokenizer: args.tokenizer });
    },
    diskBytes: () => directoryBytes(dir),
    async close() {
      try {
        await memory.settled();
        await Promise.all([storage.close(), vector.close()]);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}
