import type { Store } from '@strata-memory/core/store';
import { afterEach, describe, expect, it } from 'vitest';
import { expectCode, newTenant, useStore } from '../fixtures.ts';
import type { StoreConformanceOptions, ToggleableCapability } from '../options.ts';
import { episode } from './episodes.ts';

/** The calls that need each capability. */
const NEEDS: Record<ToggleableCapability, (store: Store) => Promise<unknown>> = {
  keywordSearch: (store) => store.episodes.searchKeyword({ scope: { userId: 'u' }, query: 'anything' }),
  vectorSearch: (store) => store.episodes.searchVector({ scope: { userId: 'u' }, vector: [1, 0] }),
  transactions: (store) => store.transaction(async () => 'ran'),
};

export function capabilitiesSuite(options: StoreConformanceOptions): void {
  describe('capabilities', () => {
    const store = useStore(options);

    it('declares every capability with the right type', () => {
      const c = store().capabilities;
      for (const flag of [
        'keywordSearch',
        'vectorSearch',
        'transactions',
        'multiProcess',
        'persistent',
      ] as const) {
        expect(typeof c[flag], flag).toBe('boolean');
      }
      expect(typeof c.keywordRanking).toBe('string');
      expect(c.keywordRanking.length).toBeGreaterThan(0);
      expect(store().specificationVersion).toBe('v1');
      expect(store().name.length).toBeGreaterThan(0);
    });

    it('either supports each declared operation or fails it with unsupported, never silently', async () => {
      const t = newTenant();
      await store().episodes.put({
        episodes: [episode(t.id('cap'), t.alice, 'capability probe', { embedding: [1, 0] })],
      });
      for (const capability of Object.keys(NEEDS) as ToggleableCapability[]) {
        if (store().capabilities[capability]) await expect(NEEDS[capability](store())).resolves.toBeDefined();
        else await expectCode(NEEDS[capability](store()), 'unsupported');
      }
    });

    if (options.createWithout) {
      const createWithout = options.createWithout;
      describe('with a capability turned off', () => {
        let reduced: Store | undefined;
        afterEach(async () => {
          if (reduced) await (options.destroy ? options.destroy(reduced) : reduced.close());
          reduced = undefined;
        });

        for (const capability of Object.keys(NEEDS) as ToggleableCapability[]) {
          it(`fails ${capability} calls with unsupported and keeps other calls working`, async () => {
            reduced = await createWithout(capability);
            expect(reduced.capabilities[capability]).toBe(false);
            const error = await expectCode(NEEDS[capability](reduced), 'unsupported');
            expect(error.message).toContain(reduced.name);
            // The rest of the store keeps working.
            const t = newTenant();
            await reduced.episodes.put({
              episodes: [episode(t.id('still-works'), t.alice, 'other calls work')],
            });
            expect(await reduced.episodes.count({ scope: t.alice })).toBe(1);
          });
        }
      });
    }
  });
}
