import { afterEach, describe, expect, it, vi } from 'vitest';
import { retryOnConflict } from '../engine/engine.ts';
import { conflict, StrataError } from '../errors/strata-error.ts';
import type { Store } from '../store/contract.ts';
import { memoryStore } from '../store/memory/memory-store.ts';
import { manualClock } from '../test/index.ts';
import { createMemory } from './create-memory.ts';

/** Records the pauses `retryOnConflict` asks for and runs them at once (no test waits on a clock). */
function recordPauses(): number[] {
  const pauses: number[] = [];
  vi.spyOn(globalThis, 'setTimeout').mockImplementation(((callback: () => void, ms?: number) => {
    pauses.push(ms ?? 0);
    callback();
    return 0;
  }) as unknown as typeof setTimeout);
  return pauses;
}

/** `store`, except that its first `times` fact supersedes lose to a (simulated) concurrent writer. */
function losingSupersedes(store: Store, times: number): Store & { lost: () => number } {
  let lost = 0;
  const wrap = <S extends Store | Parameters<Parameters<Store['transaction']>[0]>[0]>(target: S): S => ({
    ...target,
    facts: {
      ...target.facts,
      supersede: async (args: Parameters<Store['facts']['supersede']>[0]) => {
        if (lost < times) {
          lost += 1;
          throw conflict('the fact changed since it was read');
        }
        return target.facts.supersede(args);
      },
    },
  });
  return {
    ...wrap(store),
    transaction: (fn) => store.transaction((tx) => fn(wrap(tx))),
    lost: () => lost,
  };
}

afterEach(() => vi.restoreAllMocks());

describe('retryOnConflict', () => {
  it('pauses a random time under a doubling bound between conflicts, gives up after the last, and passes other errors through', async () => {
    const pauses = recordPauses();
    let calls = 0;
    const error = await retryOnConflict(
      async () => {
        calls += 1;
        throw conflict('lost again');
      },
      { random: () => 0.999 },
    ).catch((e: unknown) => e);
    expect(StrataError.hasCode(error, 'conflict')).toBe(true);
    expect(calls).toBe(8);
    // Full jitter: floor(random × min(250, 5 × 2^(attempt - 1))).
    expect(pauses).toEqual([4, 9, 19, 39, 79, 159, 249]);

    // Any other error passes through at once.
    pauses.length = 0;
    calls = 0;
    const other = await retryOnConflict(async () => {
      calls += 1;
      throw new StrataError({ code: 'store_unavailable', message: 'down' });
    }).catch((e: unknown) => e);
    expect(StrataError.hasCode(other, 'store_unavailable')).toBe(true);
    expect([calls, pauses]).toEqual([1, []]);
  });

  it('spreads writers that collided: equal attempts pause for different times', async () => {
    const pauses = recordPauses();
    const randoms = [0.1, 0.9];
    const attempt = (random: number) =>
      retryOnConflict(
        (() => {
          let calls = 0;
          return async () => {
            calls += 1;
            if (calls < 3) throw conflict('lost');
            return calls;
          };
        })(),
        { random: () => random },
      );
    expect(await Promise.all(randoms.map(attempt))).toEqual([3, 3]);
    expect(new Set(pauses).size).toBe(pauses.length);
  });
});

describe('facts.remember under contention', () => {
  it('writes the value when concurrent writers keep winning for longer than one transaction retries', async () => {
    recordPauses();
    const store = losingSupersedes(memoryStore(), 10);
    const memory = createMemory({ store, clock: manualClock() });
    const scope = { orgId: 'acme', userId: 'maria' };
    const key = { entity: 'Supplier X', key: 'lead time' };
    await memory.facts.remember(scope, { ...key, value: '45 days' });
    await memory.facts.remember(scope, { ...key, value: '30 days' });
    expect(store.lost()).toBe(10);
    const history = await memory.facts.history(scope, key);
    expect(history.map((f) => [f.value, f.status])).toEqual([
      ['45 days', 'superseded'],
      ['30 days', 'active'],
    ]);
    // One audit entry per write that happened, none for the attempts that lost.
    const audit = await memory.audit.list(scope, { actions: ['fact.supersede'] });
    expect(audit.items).toHaveLength(1);
  });
});
