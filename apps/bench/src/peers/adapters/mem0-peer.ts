import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Embedder, Tokenizer } from '@strata-memory/core';
import { directoryBytes } from '../../setup/stores.ts';
import { StrataEmbeddings } from '../embedder-bridges.ts';
import { CONTEXT_TOP_K, hitsContext, turnText } from '../hit-context.ts';
import type { PeerHit, PeerMemory } from '../peer-memory.ts';

/** The version pinned in the bench's package.json. */
export const MEM0_VERSION = '3.3.1';

/**
 * mem0's open-source TypeScript SDK (`mem0ai/oss`) with its default local vector store (a SQLite
 * file per collection), the offline embedder through its `langchain` embedder provider, no history
 * database, and `add(..., { infer: false })`: each turn stored as it is, no LLM. Search is its
 * default (semantic + BM25 + entity boost). The LLM config is required by the constructor and never
 * called with `infer: false`; telemetry is off (`MEM0_TELEMETRY=false`, set before the import).
 */
export async function openMem0Peer(args: { embedder: Embedder; tokenizer: Tokenizer }): Promise<PeerMemory> {
  process.env.MEM0_TELEMETRY = 'false';
  const { Memory } = await import('mem0ai/oss');
  const dir = await mkdtemp(join(tmpdir(), 'strata-bench-mem0-'));
  const memory = new Memory({
    embedder: { provider: 'langchain', config: { model: new StrataEmbeddings(args.embedder) } },
    vectorStore: {
      provider: 'memory',
      config: {
        collectionName: 'bench',
        dimension: args.embedder.dimensions,
        dbPath: join(dir, 'vector_store.db'),
      },
    },
    llm: { provider: 'openai', config: { apiKey: 'unused-with-infer-false', model: 'gpt-4.1-nano' } },
    disableHistory: true,
  });

  const search = async (userId: string, query: string, k: number): Promise<PeerHit[]> => {
    const { results } = await memory.search(query, { topK: k, filters: { user_id: userId } });
    return results.map((item) => ({
      turnIds: typeof item.metadata?.turn_id === 'string' ? [item.metadata.turn_id] : [],
      text: item.memory,
    }));
  };

  return {
    label: `mem0ai ${MEM0_VERSION}`,
    rankedResults: true,
    async add(turn) {
      await memory.add([{ role: 'user', content: turnText(turn) }], {
        userId: turn.userId,
        metadata: { turn_id: turn.id },
        infer: false,
      });
    },
    search: ({ userId, query, k }) => search(userId, query, k),
    async context({ userId, query, budget }) {
      return hitsContext({
        hits: await search(userId, query, CONTEXT_TOP_K),
        budget,
        tokenizer: args.tokenizer,
      });
    },
    diskBytes: () => directoryBytes(dir),
    async close() {
      await rm(dir, { recursive: true, force: true });
    },
  };
}
