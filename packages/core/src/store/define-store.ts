import type { z } from 'zod/v4';
import { StrataError, unsupported } from '../errors/strata-error.ts';
import { normalizeScope, type Scope } from '../scope/scope.ts';
import { inputShapeIssue } from '../validation/input-shape.ts';
import { translateIssues, type ValidationIssue } from '../validation/issue-message.ts';
import {
  STORE_SPECIFICATION_VERSION,
  type Store,
  type StoreDriver,
  type StoreDriverTransaction,
  type StoreTransaction,
} from './contract.ts';
import { LIMITS } from './limits.ts';
import {
  auditArgs,
  episodeArgs,
  factArgs,
  graphArgs,
  ledgerArgs,
  reviewArgs,
  scopeArgs,
  stateArgs,
  storeArgs,
  threadArgs,
} from './schemas.ts';

const subStoreSchemas = {
  threads: threadArgs,
  episodes: episodeArgs,
  facts: factArgs,
  graph: graphArgs,
  state: stateArgs,
  ledger: ledgerArgs,
  review: reviewArgs,
  audit: auditArgs,
  scopes: scopeArgs,
} as const;

type SubStoreName = keyof typeof subStoreSchemas;

type Issue = ValidationIssue;

// A scope argument, or the scope of an item being written (`episodes.0.scope`, `fact.scope`).
const SCOPE_PATH = /^((fact|node|edge|item|thread)\.|(episodes|entries|facts)\.\d+\.)?scope(\.|$)/;

function issuesError(where: string, issues: Issue[], tooLarge: boolean): StrataError {
  const scopeIssue = issues.every((i) => SCOPE_PATH.test(i.path));
  const code = tooLarge ? 'payload_too_large' : scopeIssue ? 'invalid_scope' : 'invalid_input';
  const summary = issues
    .map((i) =>
      i.path && i.message.startsWith(i.path) ? i.message : `${i.path || '(arguments)'}: ${i.message}`,
    )
    .join('; ');
  return new StrataError({ code, message: `${where}: ${summary}`, details: { issues } });
}

/**
 * Turns a zod failure into a StrataError a user can act on: each issue names the field, what is
 * wrong and the fix; `details.issues` holds them (with `suggestion` for a near-miss key). Pass the
 * `schema` that failed so unknown keys get a "did you mean", and `hints` to say where a key that
 * belongs elsewhere goes (`{ lastMessages: 'pass it as …' }`).
 */
export function validationError(
  where: string,
  error: z.ZodError,
  schema?: z.ZodType,
  hints?: Readonly<Record<string, string>>,
): StrataError {
  const issues = translateIssues(error, schema, hints);
  // Too long a text, array or JSON value is a payload problem; a number above its range (an
  // importance of 2, a page `limit` of 5000) is plain bad input.
  const tooLarge = error.issues.some(
    (i) => i.code === 'too_big' && i.origin !== 'number' && i.origin !== 'int',
  );
  return issuesError(where, issues, tooLarge);
}

/**
 * Parses `input` with `schema`, throwing a StrataError on failure. Before the schema runs, one walk
 * rejects what no schema should have to meet: circular values, nesting beyond
 * `LIMITS.maxInputDepth`, and strings no store can hold as written (NUL, lone surrogates).
 */
export function parseArgs<S extends z.ZodType>(
  schema: S,
  input: unknown,
  where: string,
  hints?: Readonly<Record<string, string>>,
): z.output<S> {
  const shape = inputShapeIssue(input, { maxDepth: LIMITS.maxInputDepth });
  if (shape) throw issuesError(where, [{ ...shape, code: 'custom' }], false);
  const result = schema.safeParse(input);
  if (!result.success) throw validationError(where, result.error, schema, hints);
  return result.data;
}

function normalizeScopes<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  const record = value as Record<string, unknown>;
  for (const [key, inner] of Object.entries(record)) {
    if (key === 'scope' && inner && typeof inner === 'object') record[key] = normalizeScope(inner as Scope);
    else if (key === 'episodes' || key === 'entries' || key === 'facts') {
      if (Array.isArray(inner)) for (const item of inner) normalizeScopes(item);
    } else if (key === 'fact' || key === 'node' || key === 'edge' || key === 'item' || key === 'thread') {
      normalizeScopes(inner);
    }
  }
  return value;
}

function toStrataError(driver: StoreDriver, error: unknown, where: string): StrataError {
  if (StrataError.isInstance(error)) return error;
  const mapped = driver.mapError?.(error);
  if (mapped) return mapped;
  return new StrataError({
    code: 'store_failure',
    message: `${where} failed in the ${driver.name} store: ${error instanceof Error ? error.message : String(error)}`,
    cause: error,
  });
}

function requiredCapability(driver: StoreDriver, sub: SubStoreName, method: string): void {
  if (sub !== 'episodes') return;
  if (method === 'searchKeyword' && !driver.capabilities.keywordSearch) {
    throw unsupported(driver.name, 'keyword search (episodes.searchKeyword)');
  }
  if (method === 'searchVector' && !driver.capabilities.vectorSearch) {
    throw unsupported(driver.name, 'vector search (episodes.searchVector)');
  }
}

function wrapSubStores(driver: StoreDriver, target: StoreDriverTransaction): StoreTransaction {
  const out: Record<string, Record<string, (args: unknown) => Promise<unknown>>> = {};
  for (const [sub, schemas] of Object.entries(subStoreSchemas) as [
    SubStoreName,
    Record<string, z.ZodType>,
  ][]) {
    const impl = target[sub] as unknown as Record<string, (args: unknown) => Promise<unknown>>;
    const wrapped: Record<string, (args: unknown) => Promise<unknown>> = {};
    for (const [method, schema] of Object.entries(schemas)) {
      const where = `${sub}.${method}`;
      wrapped[method] = async (input: unknown) => {
        requiredCapability(driver, sub, method);
        const args = normalizeScopes(parseArgs(schema, input, where));
        try {
          return await impl[method]!.call(impl, args);
        } catch (error) {
          throw toStrataError(driver, error, where);
        }
      };
    }
    out[sub] = wrapped;
  }
  return out as unknown as StoreTransaction;
}

/**
 * Wraps a driver into the validated `Store`: every call is checked against its schema (bad input
 * fails with `invalid_input`, `invalid_scope` or `payload_too_large` and reaches no driver code),
 * defaults and ids are filled in, missing capabilities fail with `unsupported`, and native driver
 * errors become StrataErrors through the driver's `mapError`.
 */
export function defineStore(driver: StoreDriver): Store {
  const base = wrapSubStores(driver, driver);
  return {
    specificationVersion: STORE_SPECIFICATION_VERSION,
    name: driver.name,
    capabilities: driver.capabilities,
    ...base,
    async transaction<T>(fn: (tx: StoreTransaction) => Promise<T>): Promise<T> {
      if (!driver.capabilities.transactions) throw unsupported(driver.name, 'transactions');
      let thrownByFn: unknown;
      try {
        return await driver.transaction(async (tx) => {
          try {
            return await fn(wrapSubStores(driver, tx));
          } catch (error) {
            thrownByFn = error;
            throw error;
          }
        });
      } catch (error) {
        // The caller's own error comes back unchanged; only the driver's errors are mapped.
        if (error === thrownByFn) throw error;
        throw toStrataError(driver, error, 'transaction');
      }
    },
    async forget(input) {
      const args = normalizeScopes(parseArgs(storeArgs.forget, input, 'forget'));
      try {
        return await driver.forget(args);
      } catch (error) {
        throw toStrataError(driver, error, 'forget');
      }
    },
    async close() {
      try {
        await driver.close();
      } catch (error) {
        throw toStrataError(driver, error, 'close');
      }
    },
    ...(driver.size ? { size: optional(driver, 'size', driver.size) } : {}),
    ...(driver.migrate ? { migrate: optional(driver, 'migrate', driver.migrate) } : {}),
  };
}

/** An optional driver method as the store offers it: the driver's errors mapped like every call's. */
function optional<T>(driver: StoreDriver, where: string, method: () => Promise<T>): () => Promise<T> {
  return async () => {
    try {
      return await method.call(driver);
    } catch (error) {
      throw toStrataError(driver, error, where);
    }
  };
}
