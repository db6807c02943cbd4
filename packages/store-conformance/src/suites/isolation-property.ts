import { createMemory, hashEmbedder, type Scope, type Store } from '@strata-memory/core';
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { uniqueId, useStore } from '../fixtures.ts';
import { expectForgetCounts, expectOnlySubtreeGone } from '../isolation/forget-walls.ts';
import { plant, type WorldContext } from '../isolation/plant-world.ts';
import { PlantedRows } from '../isolation/planted-rows.ts';
import { readEverything } from '../isolation/read-walls.ts';
import { inSubtree, sameScopeExactly } from '../isolation/scope-walls.ts';
import { scopesOf, type WorldPlan, worldPlan } from '../isolation/world.ts';
import type { StoreConformanceOptions } from '../options.ts';

/**
 * Replaying: a failure prints fast-check's seed and path. Run the same driver's suite with
 * `STRATA_ISOLATION_SEED=<seed>` (and `STRATA_ISOLATION_RUNS` for more or fewer worlds); the default
 * seed is fixed so every run, in CI too, checks the same worlds. `STRATA_ISOLATION_SEED=random`
 * draws a new seed each time.
 */
function runParameters(defaultRuns: number): fc.Parameters<[WorldPlan]> {
  const seedSetting = process.env.STRATA_ISOLATION_SEED;
  const seed =
    seedSetting === 'random'
      ? Math.floor(Math.random() * 2 ** 31)
      : seedSetting
        ? Number.parseInt(seedSetting, 10)
        : 20_261_204;
  const runs = process.env.STRATA_ISOLATION_RUNS;
  return {
    seed,
    numRuns: runs ? Number.parseInt(runs, 10) : defaultRuns,
    // Each world writes to a real store: stop at the first counterexample instead of shrinking
    // through hundreds more worlds; its seed and path replay it.
    endOnFailure: true,
  };
}

/** Plants one world under a prefix of its own, so worlds of every run can share one database. */
async function plantWorld(store: Store, plan: WorldPlan): Promise<WorldContext> {
  const prefix = `${uniqueId('iso')}-`;
  const embedder = hashEmbedder({ dimensions: 64 });
  const scopes = scopesOf(plan, prefix);
  const ctx: WorldContext = {
    store,
    memory: createMemory({ store, embedder }),
    embedder,
    prefix,
    scopes: scopes.all,
    twinScopes: scopes.twins,
    rows: new PlantedRows(),
  };
  for (const [index, write] of plan.writes.entries()) await plant(ctx, write, index);
  return ctx;
}

/** A scope with descendants in the world when there is one (forgetting a leaf proves little), else any. */
function forgetTarget(scopes: Scope[], at: number): Scope {
  const parents = scopes.filter((s) => scopes.some((d) => inSubtree(d, s) && !sameScopeExactly(d, s)));
  const among = parents.length > 0 ? parents : scopes;
  return among[at % among.length]!;
}

// A ceiling for a loaded machine; the worlds per case bound the work (seconds on an idle one).
const TIMEOUT_MS = 300_000;

export function isolationPropertySuite(options: StoreConformanceOptions): void {
  describe('isolation (property)', () => {
    const store = useStore(options);

    it(
      'every read path, from every scope, returns exactly what the scope rules let it see',
      async () => {
        await fc.assert(
          fc.asyncProperty(worldPlan, async (plan) => {
            const ctx = await plantWorld(store(), plan);
            await readEverything(ctx, plan.readLevel);
          }),
          runParameters(6),
        );
      },
      TIMEOUT_MS,
    );

    it(
      'forget erases exactly one subtree: nothing of it is readable from anywhere, everything else is unchanged',
      async () => {
        await fc.assert(
          fc.asyncProperty(worldPlan, async (plan) => {
            const ctx = await plantWorld(store(), plan);
            const before = await readEverything(ctx, plan.readLevel);
            const forgotten = forgetTarget(ctx.scopes, plan.forget.at);
            const counts = plan.forget.viaEngine
              ? await ctx.memory.forget(forgotten)
              : await ctx.store.forget({ scope: forgotten });
            expectForgetCounts(ctx.rows, forgotten, counts);
            const after = await readEverything(ctx, plan.readLevel);
            expectOnlySubtreeGone(before, after, forgotten, plan.forget.viaEngine);
          }),
          runParameters(3),
        );
      },
      TIMEOUT_MS,
    );
  });
}
