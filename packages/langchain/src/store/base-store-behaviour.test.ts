import { AsyncBatchedStore, InMemoryStore } from '@langchain/langgraph';
import { manualClock } from '@strata-memory/core/test';
import { sqliteStore } from '@strata-memory/store-sqlite';
import { describeBaseStoreBehaviour } from '../../test/base-store-behaviour.ts';
import { LexicalEmbeddings } from '../../test/lexical-embeddings.ts';
import { newMemory } from '../../test/memory-fixtures.ts';
import { StrataStore } from './strata-store.ts';

/** Real time must move for InMemoryStore's `updatedAt` to: wait a few milliseconds. */
const realTick = () => new Promise<void>((resolve) => setTimeout(resolve, 5));

describeBaseStoreBehaviour(
  'LangGraph InMemoryStore (reference)',
  async () => ({
    store: new InMemoryStore({ index: { dims: 64, embeddings: new LexicalEmbeddings(64) } }),
    tick: realTick,
  }),
  { listNamespaces: true, putIndex: true, batch: true },
);

function strataStore(onSqlite = false) {
  const clock = manualClock();
  const memory = newMemory(onSqlite ? sqliteStore({ path: ':memory:' }) : undefined, clock);
  return { store: new StrataStore({ memory, scope: { orgId: 'acme' } }), clock, memory };
}

describeBaseStoreBehaviour(
  'StrataStore',
  async () => {
    const { store, clock } = strataStore();
    return { store, tick: async () => clock.advance(1000) };
  },
  { listNamespaces: true, putIndex: true, batch: true },
);

// The same behaviour where the store filters, orders and pages in SQL.
describeBaseStoreBehaviour(
  'StrataStore on SQLite',
  async () => {
    const { store, clock, memory } = strataStore(true);
    return { store, tick: async () => clock.advance(1000), teardown: () => memory.close() };
  },
  { listNamespaces: true, putIndex: true, batch: true },
);

describeBaseStoreBehaviour(
  'StrataStore inside AsyncBatchedStore (as graphs use it)',
  async () => {
    const { store, clock } = strataStore();
    const batched = new AsyncBatchedStore(store);
    batched.start();
    return { store: batched, tick: async () => clock.advance(1000), teardown: () => batched.stop() };
  },
  { listNamespaces: false, putIndex: false, batch: false },
);
