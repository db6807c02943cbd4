import { describe, expect, it } from 'vitest';
import { StrataError } from '../errors/strata-error.ts';
import type { StoreDriver } from './contract.ts';
import { defineStore } from './define-store.ts';
import { memoryStore } from './memory/memory-store.ts';

/** A driver built from the in-memory store's sub-stores, with the optional methods given. */
function driverWith(extra: Partial<Pick<StoreDriver, 'size' | 'migrate' | 'mapError'>>): StoreDriver {
  const inner = memoryStore();
  return {
    ...(inner as unknown as StoreDriver),
    name: 'probe',
    capabilities: inner.capabilities,
    transaction: (fn) => inner.transaction(fn as never),
    forget: (args) => inner.forget(args),
    close: () => inner.close(),
    ...extra,
  };
}

describe('defineStore: optional driver methods', () => {
  it('offers size() and migrate() only when the driver has them', async () => {
    const bare = defineStore(driverWith({}));
    expect(bare.size).toBeUndefined();
    expect(bare.migrate).toBeUndefined();
    const full = defineStore(
      driverWith({
        size: async () => ({ bytes: 3, parts: [{ name: 'file', bytes: 3 }] }),
        migrate: async () => ({ version: 2, latest: 2, applied: [2] }),
      }),
    );
    expect(await full.size!()).toEqual({ bytes: 3, parts: [{ name: 'file', bytes: 3 }] });
    expect(await full.migrate!()).toEqual({ version: 2, latest: 2, applied: [2] });
  });

  it("maps a driver's native error from them like any call's", async () => {
    const store = defineStore(
      driverWith({
        size: async () => {
          throw new Error('disk gone');
        },
        migrate: async () => {
          throw new Error('locked');
        },
        mapError: (error) =>
          error instanceof Error && error.message === 'locked'
            ? new StrataError({ code: 'store_unavailable', message: 'locked' })
            : undefined,
      }),
    );
    await expect(store.size!()).rejects.toMatchObject({ code: 'store_failure' });
    await expect(store.migrate!()).rejects.toMatchObject({ code: 'store_unavailable' });
  });
});
