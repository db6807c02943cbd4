import type { Scope } from '@strata-memory/core/store';
import fc from 'fast-check';
import { keyOf } from './scope-walls.ts';
import { baseId, TWIN_KINDS, twinOf } from './twin-ids.ts';

/**
 * One random world for the isolation property: scopes related to each other on purpose (ancestors,
 * descendants, siblings, and twins whose ids differ only by case, unicode form, width, a wildcard
 * or a prefix), writes spread over them, the access level readers use, and the scope to forget.
 * Everything is plain data so fast-check can print, replay and shrink it.
 */

const LEVELS = ['orgId', 'userId', 'agentId', 'threadId'] as const;
type Levels = [string?, string?, string?, string?];

const scopeStep = fc.record({
  // Twins most often: they are where a loose comparison would leak.
  op: fc.constantFrom('fresh', 'child', 'child', 'ancestor', 'twin', 'twin', 'sibling'),
  of: fc.nat(),
  pick: fc.nat(),
  mask: fc.integer({ min: 1, max: 15 }),
  atoms: fc.tuple(fc.nat(), fc.nat(), fc.nat(), fc.nat()),
});
type ScopeStep = typeof scopeStep extends fc.Arbitrary<infer T> ? T : never;

/** What a write does (its kind) and where: `at` picks a scope, `pick` and `pick2` pick among choices. */
export const WRITE_KINDS = [
  'observe',
  'remember',
  'rememberForReview',
  'engineNode',
  'engineRelate',
  'engineState',
  'engineLedger',
  'episode',
  'fact',
  'node',
  'edge',
  'state',
  'ledger',
  'review',
  'audit',
  'message',
  'updateEpisode',
  'deleteEpisode',
] as const;
export type WriteKind = (typeof WRITE_KINDS)[number];

const write = fc.record({
  kind: fc.constantFrom(...WRITE_KINDS),
  at: fc.nat(),
  pick: fc.nat(),
  pick2: fc.nat(),
  level: fc.integer({ min: 0, max: 2 }),
  flag: fc.boolean(),
  /** Write at a scope of a twin family (when the world has one), where a loose comparison would leak. */
  twinSide: fc.boolean(),
});
export type Write = typeof write extends fc.Arbitrary<infer T> ? T : never;

export interface WorldPlan {
  bases: string[];
  steps: ScopeStep[];
  writes: Write[];
  /** The access level store reads pass (undefined: unrestricted); engine reads use it as a principal's level. */
  readLevel: number | undefined;
  forget: { at: number; viaEngine: boolean };
}

export const worldPlan: fc.Arbitrary<WorldPlan> = fc.record({
  bases: fc.uniqueArray(baseId, { minLength: 2, maxLength: 4 }),
  steps: fc.array(scopeStep, { minLength: 3, maxLength: 7 }),
  writes: fc.array(write, { minLength: 8, maxLength: 24 }),
  readLevel: fc.constantFrom(undefined, 0, 1, 2),
  forget: fc.record({ at: fc.nat(), viaEngine: fc.boolean() }),
});

const setLevels = (levels: Levels) => [0, 1, 2, 3].filter((i) => levels[i] !== undefined);
const unsetLevels = (levels: Levels) => [0, 1, 2, 3].filter((i) => levels[i] === undefined);

/** The scopes of a world: every one (each once), and those in a family of twins. */
export interface WorldScopes {
  all: Scope[];
  twins: Scope[];
}

/**
 * The scopes of a plan, every id behind `prefix` (unique to the run, so runs sharing a database
 * never meet). Ancestors of every scope are included, so readers cover whole chains.
 */
export function scopesOf(plan: WorldPlan, prefix: string): WorldScopes {
  const pool = [...plan.bases];
  for (const base of plan.bases) {
    for (const kind of TWIN_KINDS) {
      const twin = twinOf(base, kind, 0);
      if (twin !== undefined && !pool.includes(twin)) pool.push(twin);
    }
  }
  const atom = (n: number) => pool[n % pool.length]!;
  const built: Levels[] = [];
  const family: Levels[] = [];
  for (const step of plan.steps) {
    const base = built.length > 0 ? built[step.of % built.length]! : undefined;
    const next: Levels = base ? [...base] : [];
    if (step.op === 'fresh' || !base) {
      for (const i of [0, 1, 2, 3]) next[i] = step.mask & (1 << i) ? atom(step.atoms[i]!) : undefined;
    } else if (step.op === 'child') {
      const free = unsetLevels(next);
      if (free.length === 0) continue;
      next[free[step.pick % free.length]!] = atom(step.atoms[0]);
    } else {
      const set = setLevels(next);
      const i = set[step.pick % set.length]!;
      if (step.op === 'ancestor') {
        if (set.length === 1) continue;
        next[i] = undefined;
      } else if (step.op === 'twin') {
        // A family: at each level, a twin of every kind, the other levels unchanged.
        family.push(next);
        for (const at of set) {
          for (const kind of TWIN_KINDS) {
            const twin = twinOf(next[at]!, kind, step.atoms[0]);
            if (twin === undefined) continue;
            const member = next.map((v, level) => (level === at ? twin : v)) as Levels;
            built.push(member);
            family.push(member);
          }
        }
        continue;
      } else {
        next[i] = atom(step.atoms[0]);
      }
    }
    built.push(next);
  }
  const scopes = new Map<string, Scope>();
  const scopeOf = (levels: Levels) => {
    const scope: Scope = {};
    for (const [i, level] of LEVELS.entries()) {
      const value = levels[i];
      if (value !== undefined) scope[level] = `${prefix}${value}`;
    }
    return scope;
  };
  const add = (levels: Levels) => {
    const scope = scopeOf(levels);
    if (Object.keys(scope).length > 0) scopes.set(keyOf(scope), scope);
  };
  for (const levels of built) {
    add(levels);
    // Its ancestors: the levels set so far, dropping the deeper ones one by one.
    const set = setLevels(levels);
    for (let keep = 1; keep < set.length; keep++) {
      const ancestor: Levels = [];
      for (const i of set.slice(0, keep)) ancestor[i] = levels[i];
      add(ancestor);
    }
  }
  const twins = new Map(family.map(scopeOf).map((scope) => [keyOf(scope), scope]));
  return { all: [...scopes.values()], twins: [...twins.values()] };
}
