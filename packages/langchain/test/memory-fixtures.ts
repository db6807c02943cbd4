/**
 * Real engines for the tests: `createMemory` over the in-memory store with a deterministic
 * embedder and a manual clock. `outageStore` wraps a real store with a switch that makes every
 * call fail the way an unreachable database does (`store_unavailable`).
 */
import { createMemory, type Memory, memoryStore, type Store, StrataError } from '@strata-memory/core';
import { type ManualClock, manualClock, testEmbedder } from '@strata-memory/core/test';

export function newMemory(store: Store = memoryStore(), clock: ManualClock = manualClock()): Memory {
  return createMemory({ store, embedder: testEmbedder(), clock });
}

export interface OutageStore {
  store: Store;
  /** While true, every store call fails with `store_unavailable`. */
  down: boolean;
}

export function outageStore(inner: Store = memoryStore()): OutageStore {
  const state: OutageStore = { store: inner, down: false };
  const fail = (what: string) =>
    new StrataError({ code: 'store_unavailable', message: `store is down (${what})`, retryable: true });
  const guard = <T extends object>(target: T, name: string): T =>
    new Proxy(target, {
      get(object, property, receiver) {
        const value = Reflect.get(object, property, receiver);
        if (typeof value === 'function') {
          return (...args: unknown[]) => {
            if (state.down && property !== 'close')
              return Promise.reject(fail(`${name}.${String(property)}`));
            const result = (value as (...a: unknown[]) => unknown).apply(object, args);
            return result;
          };
        }
        if (typeof value === 'object' && value !== null && property !== 'capabilities') {
          return guard(value as object, String(property));
        }
        return value;
      },
    });
  state.store = guard(inner, 'store');
  return state;
}

/** The StrataError a promise rejects with (fails the test if it resolves or rejects otherwise). */
export async function strataRejection(promise: PromiseLike<unknown>): Promise<StrataError> {
  try {
    await promise;
  } catch (error) {
    const found = StrataError.from(error);
    if (found) return found;
    throw error;
  }
  throw new Error('expected a StrataError');
}
