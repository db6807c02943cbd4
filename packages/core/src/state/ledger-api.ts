import type { Engine } from '../engine/engine.ts';
import {
  claimOptionsSchema,
  completeOptionsSchema,
  releaseOptionsSchema,
  stateKeySchema,
} from '../engine/input-schemas.ts';
import type { LedgerApi } from '../engine/types.ts';
import { invalidInput } from '../errors/strata-error.ts';
import { parseScope } from '../scope/scope.ts';
import { parseArgs } from '../store/define-store.ts';
import { createId } from '../store/normalize.ts';
import type { JsonValue } from '../store/records.ts';
import { jsonValueSchema } from '../store/schemas.ts';

/**
 * The idempotency ledger: "was this item already handled?". A key is claimed atomically by the
 * store (two concurrent claims never both succeed), completed once the work is done, and a done
 * key is never claimed again — across runs, processes and memory instances sharing a store.
 *
 * Claims without an `owner` are made for this memory instance (one owner id per `createMemory`);
 * `once` uses a fresh owner per call so concurrent calls in one process exclude each other too.
 */
export function createLedgerApi(engine: Engine): LedgerApi {
  const { store, clock } = engine;
  const instanceOwner = createId('owner');

  return {
    async claim(scopeInput, keyInput, options) {
      const scope = parseScope(scopeInput);
      const key = parseArgs(stateKeySchema, keyInput, 'ledger.claim: key');
      const parsed = parseArgs(claimOptionsSchema, options, 'ledger.claim: options') ?? {};
      return store.ledger.claim({
        scope,
        key,
        owner: parsed.owner ?? instanceOwner,
        at: clock.now(),
        ...(parsed.leaseMs !== undefined ? { leaseMs: parsed.leaseMs } : {}),
      });
    },

    async complete(scopeInput, keyInput, options) {
      const scope = parseScope(scopeInput);
      const key = parseArgs(stateKeySchema, keyInput, 'ledger.complete: key');
      const parsed = parseArgs(completeOptionsSchema, options, 'ledger.complete: options');
      return store.ledger.complete({
        scope,
        key,
        owner: parsed.owner,
        at: clock.now(),
        ...(parsed.result !== undefined ? { result: parsed.result } : {}),
      });
    },

    async release(scopeInput, keyInput, options) {
      const scope = parseScope(scopeInput);
      const key = parseArgs(stateKeySchema, keyInput, 'ledger.release: key');
      const parsed = parseArgs(releaseOptionsSchema, options, 'ledger.release: options');
      const { released } = await store.ledger.release({ scope, key, owner: parsed.owner });
      return released;
    },

    async once(scopeInput, keyInput, fn, options) {
      const scope = parseScope(scopeInput);
      const key = parseArgs(stateKeySchema, keyInput, 'ledger.once: key');
      const parsed = parseArgs(claimOptionsSchema, options, 'ledger.once: options') ?? {};
      if (typeof fn !== 'function') throw invalidInput('ledger.once: fn must be a function');
      const owner = parsed.owner ?? createId('run');
      const { claimed, entry } = await store.ledger.claim({
        scope,
        key,
        owner,
        at: clock.now(),
        ...(parsed.leaseMs !== undefined ? { leaseMs: parsed.leaseMs } : {}),
      });
      if (!claimed) return { ran: false, ...(entry.result !== undefined ? { result: entry.result } : {}) };
      let result: JsonValue | undefined;
      try {
        const value = await fn();
        result =
          value === undefined
            ? undefined
            : parseArgs(jsonValueSchema, value, 'ledger.once: the result of fn');
      } catch (error) {
        // Not handled: release the claim so a later run retries the item.
        await store.ledger.release({ scope, key, owner });
        throw error;
      }
      const done = await store.ledger.complete({
        scope,
        key,
        owner,
        at: clock.now(),
        ...(result !== undefined ? { result } : {}),
      });
      return { ran: true, ...(done.result !== undefined ? { result: done.result } : {}) };
    },
  };
}
