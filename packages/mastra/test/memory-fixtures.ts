/**
 * Real engines for the tests: `createMemory` over the in-memory store with the deterministic test
 * embedder. `outageStore` wraps a real store with a switch that makes every call fail the way an
 * unreachable database does (`store_unavailable`), to test the failure policy.
 */
import {
  createMemory,
  type Memory,
  type MessageRecord,
  memoryStore,
  type Scope,
  type Store,
  StrataError,
} from '@strata-memory/core';
import { testEmbedder } from '@strata-memory/core/test';

export function newMemory(store: Store = memoryStore()): Memory {
  return createMemory({ store, embedder: testEmbedder() });
}

/** Every message of a thread, oldest first. */
export async function threadMessages(memory: Memory, scope: Scope): Promise<MessageRecord[]> {
  return memory.store.threads.listMessages({ scope, limit: 1000 });
}

export interface OutageStore {
  store: Store;
  /** While true, every store call fails with `store_unavailable`. */
  down: boolean;
}

/** A store whose every call can be made to fail like an unreachable database. */
export function outageStore(inner: Store = memoryStore()): OutageStore {
  const state: OutageStore = { store: inner, down: false };
  const fail = (what: string) =>
    new StrataError({ code: 'store_unavailable', message: `store is down (${what})`, retryable: true });
  const guard = <T extends object>(name: string, target: T): T =>
    new Proxy(target, {
      get(object, property, receiver) {
        const value = Reflect.get(object, property, receiver);
        if (typeof value === 'function') {
          return (...args: unknown[]) => {
            if (state.down && property !== 'close')
              return Promise.reject(fail(`${name}.${String(property)}`));
            return (value as (...a: unknown[]) => unknown).apply(object, args);
          };
        }
        if (typeof value === 'object' && value !== null && property !== 'capabilities') {
          return guard(`${name}.${String(property)}`, value);
        }
        return value;
      },
    });
  state.store = guard('store', inner);
  return state;
}
