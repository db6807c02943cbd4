/**
 * Real engines for the tests: `createMemory` over the in-memory store, with a deterministic
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
import { manualClock, testEmbedder } from '@strata-memory/core/test';

export interface OutageStore {
  store: Store;
  /** While true, every store call fails with `store_unavailable`. */
  down: boolean;
}

export function outageStore(inner: Store = memoryStore()): OutageStore {
  const state: OutageStore = { store: inner, down: false };
  const fail = (what: string) =>
    new StrataError({ code: 'store_unavailable', message: `store is down (${what})`, retryable: true });
  const wrapSub = (name: string, sub: object) =>
    new Proxy(sub, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          if (state.down) return Promise.reject(fail(`${name}.${String(property)}`));
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
  state.store = new Proxy(inner, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (property === 'transaction') {
        return <T>(fn: (tx: Parameters<Parameters<Store['transaction']>[0]>[0]) => Promise<T>) => {
          if (state.down) return Promise.reject(fail('transaction'));
          return target.transaction((tx) =>
            fn(
              new Proxy(tx, {
                get: (t, p, r) => {
                  const v = Reflect.get(t, p, r);
                  return typeof v === 'object' && v !== null ? wrapSub(String(p), v) : v;
                },
              }),
            ),
          );
        };
      }
      if (typeof value === 'function') {
        return (...args: unknown[]) => {
          if (state.down && property !== 'close') return Promise.reject(fail(String(property)));
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      if (typeof value === 'object' && value !== null && property !== 'capabilities') {
        return wrapSub(String(property), value);
      }
      return value;
    },
  });
  return state;
}

export function newMemory(store: Store = memoryStore()): Memory {
  return createMemory({ store, embedder: testEmbedder(), clock: manualClock() });
}

/** Every message of a thread, oldest first. */
export async function threadMessages(memory: Memory, scope: Scope): Promise<MessageRecord[]> {
  return memory.store.threads.listMessages({ scope, limit: 1000 });
}
