import { type Embedder, StrataError, type Tokenizer } from '@strata-memory/core';
import { PG_URL_VARIABLE } from '../setup/stores.ts';
import {
  LANGGRAPH_POSTGRES_VERSION,
  LANGGRAPH_VERSION,
  openLangGraphMemoryPeer,
  openLangGraphPostgresPeer,
} from './adapters/langgraph-peer.ts';
import { MASTRA_LIBSQL_VERSION, MASTRA_MEMORY_VERSION, openMastraPeer } from './adapters/mastra-peer.ts';
import { MEM0_VERSION, openMem0Peer } from './adapters/mem0-peer.ts';
import { openStrataPeer } from './adapters/strata-peer.ts';
import type { PeerMemory, PeerName } from './peer-memory.ts';

/** What each peer is, for the report (also when it fails to open). */
export const PEER_LABELS: Record<PeerName, string> = {
  mem0: `mem0ai ${MEM0_VERSION}`,
  mastra: `@mastra/memory ${MASTRA_MEMORY_VERSION} + @mastra/libsql ${MASTRA_LIBSQL_VERSION}`,
  'langgraph-memory': `@langchain/langgraph ${LANGGRAPH_VERSION} InMemoryStore`,
  'langgraph-postgres': `@langchain/langgraph-checkpoint-postgres ${LANGGRAPH_POSTGRES_VERSION} PostgresStore`,
  'strata-sqlite': 'Strata (sqlite file)',
  'strata-postgres': 'Strata (server)',
  'strata-memory': 'Strata (in-process)',
};

function serverUrl(peer: PeerName): string {
  const url = process.env[PG_URL_VARIABLE];
  if (!url) {
    throw new StrataError({
      code: 'invalid_input',
      message: `${peer} needs ${PG_URL_VARIABLE} (a PostgreSQL server).`,
    });
  }
  return url;
}

/** Opens an empty memory of `peer` with the shared embedder and tokenizer. */
export async function openPeer(
  peer: PeerName,
  args: { embedder: Embedder; tokenizer: Tokenizer },
): Promise<PeerMemory> {
  switch (peer) {
    case 'mem0':
      return openMem0Peer(args);
    case 'mastra':
      return openMastraPeer(args);
    case 'langgraph-memory':
      return openLangGraphMemoryPeer(args);
    case 'langgraph-postgres':
      return openLangGraphPostgresPeer({ ...args, connectionString: serverUrl(peer) });
    case 'strata-sqlite':
      return openStrataPeer({ ...args, store: 'sqlite' });
    case 'strata-postgres':
      serverUrl(peer);
      return openStrataPeer({ ...args, store: 'postgres' });
    case 'strata-memory':
      return openStrataPeer({ ...args, store: 'memory' });
  }
}
