import { invalidInput, StrataError } from '../errors/strata-error.ts';
import type { Clock, Embedder, Extractor, Summarizer, Tokenizer } from '../ports/ports.ts';
import { type Scope, scopeDepth, withoutThread } from '../scope/scope.ts';
import type { Store } from '../store/contract.ts';
import { accessLevelOf } from './policy.ts';
import type { MemoryPolicy, Principal } from './types.ts';

/** What every layer of the engine works with: the configured ports and the resolved policy. */
export interface Engine {
  readonly store: Store;
  readonly embedder?: Embedder;
  readonly extractor: Extractor;
  readonly summarizer: Summarizer;
  readonly tokenizer: Tokenizer;
  readonly clock: Clock;
  readonly policy: Readonly<MemoryPolicy>;
}

/** The access level a principal reads with (0 without one: only unrestricted items). */
export function readLevel(engine: Engine, principal: Principal | undefined): number {
  return accessLevelOf(principal, engine.policy);
}

/** The minimum level a written item requires: a role name from `policy.roles` or a level. Default 0. */
export function writeLevel(engine: Engine, access: string | number | undefined): number {
  if (access === undefined) return 0;
  if (typeof access === 'number') return access;
  const index = engine.policy.roles.indexOf(access);
  if (index < 0) {
    throw invalidInput(`access "${access}" is not one of the roles: ${engine.policy.roles.join(', ')}`, {
      access,
    });
  }
  return index;
}

/** Who the audit log names for an action. */
export function actorOf(principal: Principal | undefined): string {
  return principal?.id ?? 'system';
}

/**
 * Where long-term items (episodes, facts, graph) observed or written at `scope` are stored:
 * with `longTermScope: 'shared'`, a thread's scope without its `threadId` (so every thread of
 * the same user or agent sees them); otherwise the scope itself. A scope that is only a thread
 * keeps its thread.
 */
export function longTermScopeOf(scope: Scope, policy: Pick<MemoryPolicy, 'longTermScope'>): Scope {
  if (policy.longTermScope === 'thread' || scope.threadId === undefined) return scope;
  const shared = withoutThread(scope);
  return scopeDepth(shared) === 0 ? scope : shared;
}

/** How `retryOnConflict` spaces its attempts. */
export interface RetryOptions {
  /** Attempts in all, the first included (default 8). */
  attempts?: number;
  /** Upper bound of the first wait, in ms (default 5); it doubles with each attempt. */
  baseDelayMs?: number;
  /** Largest wait between two attempts, in ms (default 250). */
  maxDelayMs?: number;
  /** Source of randomness in [0, 1) for the jitter (default `Math.random`). */
  random?: () => number;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs `fn` again when it fails with `conflict` (optimistic concurrency lost to a concurrent
 * writer): each attempt re-reads what it needs. Between attempts it waits a random time up to an
 * exponentially growing bound ("full jitter"), so writers that collided once spread out instead of
 * colliding again in lockstep. Other errors pass through; the last `conflict` is thrown when every
 * attempt lost.
 */
export async function retryOnConflict<T>(fn: () => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const attempts = options.attempts ?? 8;
  const base = options.baseDelayMs ?? 5;
  const max = options.maxDelayMs ?? 250;
  const random = options.random ?? Math.random;
  let last: unknown;
  for (let i = 0; i < attempts; i++) {
    if (i > 0) await sleep(Math.floor(random() * Math.min(max, base * 2 ** (i - 1))));
    try {
      return await fn();
    } catch (error) {
      if (!StrataError.hasCode(error, 'conflict')) throw error;
      last = error;
    }
  }
  throw last;
}
