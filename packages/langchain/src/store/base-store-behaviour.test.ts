import { AsyncBatchedStore, InMemoryStore } from '@langchain/langgraph';
import { manualClock } from '@strata-memory/core/test';
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

function strataStore() {
  const clock = manualClock();
  const memory = newMemory(undefined, clock);
  return { store: new StrataStore({ memory, scope: { orgId: 'acme' } }), clock };
}

describeBaseStoreBehaviour(
  'StrataStore',
  async () => {
    const { store, clock } = strataStore();
    return { store, tick: async () => clock.advance(1000) };
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
