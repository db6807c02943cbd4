import { randomBytes } from 'node:crypto';
import type { BaseStore } from '@langchain/langgraph';
import type { Embedder, Tokenizer } from '@strata-memory/core';
import { schemaBytes } from '../../setup/stores.ts';
import { StrataEmbeddings } from '../embedder-bridges.ts';
import { CONTEXT_TOP_K, hitsContext, turnText } from '../hit-context.ts';
import type { PeerHit, PeerMemory } from '../peer-memory.ts';

/** The versions pinned in the bench's package.json. */
export const LANGGRAPH_VERSION = '1.7.3';
export const LANGGRAPH_POSTGRES_VERSION = '1.0.5';

/** The field of a stored item that the store's index embeds. */
const TEXT_FIELD = 'text';

function langGraphPeer(args: {
  label: string;
  store: BaseStore;
  tokenizer: Tokenizer;
  diskBytes: () => Promise<number | undefined>;
  close: () => Promise<void>;
}): PeerMemory {
  const { store } = args;
  const search = async (userId: string, query: string, k: number): Promise<PeerHit[]> => {
    const items = await store.search([userId], { query, limit: k });
    return items.map((item) => ({
      turnIds: [item.key],
      text: String(item.value[TEXT_FIELD] ?? ''),
    }));
  };
  return {
    label: args.label,
    rankedResults: true,
    async add(turn) {
      await store.put([turn.userId, turn.threadId], turn.id, { [TEXT_FIELD]: turnText(turn), at: turn.at });
    },
    search: ({ userId, query, k }) => search(userId, query, k),
    async context({ userId, query, budget }) {
      return hitsContext({
        hits: await search(userId, query, CONTEXT_TOP_K),
        budget,
        tokenizer: args.tokenizer,
      });
    },
    diskBytes: args.diskBytes,
    close: args.close,
  };
}

/**
 * LangGraph's long-term memory store `InMemoryStore` with a semantic index over each item's text
 * (the offline embedder as LangChain `Embeddings`): `put` under `[user, thread]`, `search` under
 * `[user]` with a query. Items live in the process, so nothing is on disk.
 */
export async function openLangGraphMemoryPeer(args: {
  embedder: Embedder;
  tokenizer: Tokenizer;
}): Promise<PeerMemory> {
  const { InMemoryStore } = await import('@langchain/langgraph');
  const store = new InMemoryStore({
    index: {
      dims: args.embedder.dimensions,
      embeddings: new StrataEmbeddings(args.embedder),
      fields: [TEXT_FIELD],
    },
  });
  return langGraphPeer({
    label: `@langchain/langgraph ${LANGGRAPH_VERSION} InMemoryStore`,
    store,
    tokenizer: args.tokenizer,
    diskBytes: async () => undefined,
    close: async () => {},
  });
}

/**
 * LangGraph's `PostgresStore` (`@langchain/langgraph-checkpoint-postgres`) on the server at
 * `connectionString`, in a schema of its own, with a pgvector index over each item's text.
 */
export async function openLangGraphPostgresPeer(args: {
  embedder: Embedder;
  tokenizer: Tokenizer;
  connectionString: string;
}): Promise<PeerMemory> {
  const [{ PostgresStore }, { default: pg }] = await Promise.all([
    import('@langchain/langgraph-checkpoint-postgres/store'),
    import('pg'),
  ]);
  const schema = `langgraph_bench_${randomBytes(6).toString('hex')}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: args.connectionString });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE SCHEMA "${schema}"`);
  const store = PostgresStore.fromConnString(args.connectionString, {
    schema,
    index: {
      dims: args.embedder.dimensions,
      embed: new StrataEmbeddings(args.embedder),
      fields: [TEXT_FIELD],
    },
  });
  try {
    await store.setup();
  } catch (error) {
    await admin(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    throw error;
  }
  return langGraphPeer({
    label: `@langchain/langgraph-checkpoint-postgres ${LANGGRAPH_POSTGRES_VERSION} PostgresStore`,
    store,
    tokenizer: args.tokenizer,
    diskBytes: () => schemaBytes(args.connectionString, schema),
    async close() {
      try {
        await store.stop();
      } finally {
        await admin(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      }
    },
  });
}
