import type { Engine } from '../engine/engine.ts';
import { stateKeySchema, stateSetOptionsSchema } from '../engine/input-schemas.ts';
import type { StateApi } from '../engine/types.ts';
import { parseScope } from '../scope/scope.ts';
import { parseArgs } from '../store/define-store.ts';
import { jsonValueSchema } from '../store/schemas.ts';

/**
 * Checkpoints for scheduled jobs: a JSON value per (scope, key), versioned so two runs cannot
 * silently overwrite each other (`expectedVersion`; 0 means "must not exist yet").
 */
export function createStateApi(engine: Engine): StateApi {
  const { store, clock } = engine;
  return {
    async get(scopeInput, keyInput) {
      const scope = parseScope(scopeInput);
      const key = parseArgs(stateKeySchema, keyInput, 'state.get: key');
      return store.state.get({ scope, key });
    },

    async set(scopeInput, keyInput, valueInput, options) {
      const scope = parseScope(scopeInput);
      const key = parseArgs(stateKeySchema, keyInput, 'state.set: key');
      const value = parseArgs(jsonValueSchema, valueInput, 'state.set: value');
      const parsed = parseArgs(stateSetOptionsSchema, options, 'state.set: options') ?? {};
      return store.state.set({
        scope,
        key,
        value,
        at: clock.now(),
        ...(parsed.expectedVersion !== undefined ? { expectedVersion: parsed.expectedVersion } : {}),
      });
    },

    async delete(scopeInput, keyInput) {
      const scope = parseScope(scopeInput);
      const key = parseArgs(stateKeySchema, keyInput, 'state.delete: key');
      const { deleted } = await store.state.delete({ scope, key });
      return deleted;
    },
  };
}
