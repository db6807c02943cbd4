import { AsyncLocalStorage } from 'node:async_hooks';
import { z } from 'zod/v4';
import { StrataError } from '../../errors/strata-error.ts';
import type { Store, StoreCapabilities, StoreDriver, StoreDriverTransaction } from '../contract.ts';
import { defineStore, parseArgs } from '../define-store.ts';
import { auditSubStore } from './audit.ts';
import { episodeSubStore } from './episodes.ts';
import { factSubStore } from './facts.ts';
import { forgetSubtree } from './forget.ts';
import { graphSubStore } from './graph.ts';
import { ledgerSubStore } from './ledger.ts';
import { copyRecord } from './records-copy.ts';
import { reviewSubStore } from './review.ts';
import { scopeSubStore } from './scopes.ts';
import { stateSubStore } from './state.ts';
import type { SyncSubStore } from './sync-sub-store.ts';
import { MemoryTables } from './tables.ts';
import { threadSubStore } from './threads.ts';
import { TransactionGate } from './transaction-gate.ts';

export interface MemoryStoreOptions {
  /** Shown in errors and `store.name`. Default `memory`. */
  name?: string;
  /**
   * Overrides the declared capabilities, e.g. `{ vectorSearch: false }` to check that callers
   * handle a store without vector search (calls then fail with `unsupported`).
   */
  capabilities?: Partial<StoreCapabilities>;
}

const optionsSchema = z
  .object({
    name: z.string().min(1).max(128).optional(),
    capabilities: z
      .object({
        keywordSearch: z.boolean(),
        vectorSearch: z.boolean(),
        keywordRanking: z.string().min(1).max(64),
        transactions: z.boolean(),
        multiProcess: z.boolean(),
        persistent: z.boolean(),
      })
      .partial()
      .strict()
      .optional(),
  })
  .strict();

const defaultCapabilities: StoreCapabilities = {
  keywordSearch: true,
  vectorSearch: true,
  keywordRanking: 'bm25',
  transactions: true,
  multiProcess: false,
  persistent: false,
};

type Runner = <T>(fn: () => T) => Promise<T>;

/** One transaction level: the queue its nested transactions take turns in. */
interface TransactionLevel {
  tail: Promise<unknown>;
}
type AnyMethod = (args: unknown) => unknown;

/**
 * The async driver view of a synchronous sub-store: each call goes through `run`. Arguments come
 * from `defineStore`, whose schemas parse them into fresh objects, so they share nothing with the
 * caller and can be stored as they are.
 */
function asyncSubStore<D>(sync: SyncSubStore<D>, run: Runner): D {
  const out: Record<string, (args: unknown) => Promise<unknown>> = {};
  for (const [method, fn] of Object.entries(sync as Record<string, AnyMethod>)) {
    out[method] = (args) => run(() => fn(args));
  }
  return out as D;
}

function subStores(tables: MemoryTables, run: Runner): StoreDriverTransaction {
  return {
    threads: asyncSubStore(threadSubStore(tables), run),
    episodes: asyncSubStore(episodeSubStore(tables), run),
    facts: asyncSubStore(factSubStore(tables), run),
    graph: asyncSubStore(graphSubStore(tables), run),
    state: asyncSubStore(stateSubStore(tables), run),
    ledger: asyncSubStore(ledgerSubStore(tables), run),
    review: asyncSubStore(reviewSubStore(tables), run),
    audit: asyncSubStore(auditSubStore(tables), run),
    scopes: asyncSubStore(scopeSubStore(tables), run),
  };
}

/**
 * The in-memory store: the reference semantics of the Store contract, for tests and ephemeral
 * agents. Nothing survives the process.
 *
 * - Every call runs to completion synchronously once it starts, so calls never interleave and a
 *   call that fails changes nothing (an undo log reverses its partial writes).
 * - `transaction(fn)`: calls through `tx` commit together or, when `fn` throws, are all undone
 *   (indexes included). While it runs, calls on the store from outside `fn` wait; calls on the
 *   store from inside `fn` join it. A nested `transaction` call is a savepoint: when its function
 *   throws, what it wrote is undone and the outer transaction goes on; nested transactions of one
 *   transaction run one at a time.
 * - Keyword search is BM25 (k1 = 1.2, b = 0.75) over a per-tenant inverted index (see
 *   `keyword-analyzer.ts`) whose postings are split by exact scope, so a search reads only the
 *   postings of the scopes the reader may see. Document frequencies and the average length are
 *   computed over all episodes of the reader's tenant (every scope and status in it), never across
 *   tenants, so one tenant's data cannot change another's results; the status, time and access
 *   filters then choose which scored episodes are returned.
 * - Vector search is exact cosine over the episodes of the reader's visible scopes with the
 *   query's dimensions.
 * - `scopes.list` reads a per-tenant registry of the scopes holding rows, kept by every table.
 * - Records go in and come out as copies: mutating one never changes the store.
 */
export function memoryStore(options: MemoryStoreOptions = {}): Store {
  const parsed = parseArgs(optionsSchema, options, 'memoryStore: options');
  const name = parsed.name ?? 'memory';
  const tables = new MemoryTables();
  const gate = new TransactionGate();
  let closed = false;

  const assertOpen = () => {
    if (closed) {
      throw new StrataError({
        code: 'store_unavailable',
        message: `the ${name} store is closed`,
        retryable: false,
      });
    }
  };
  const execute = <T>(fn: () => T): T => copyRecord(tables.journal.atomic(fn));

  const outer = subStores(tables, async (fn) => {
    for (let wait = gate.blocker(); wait; wait = gate.blocker()) await wait;
    assertOpen();
    return execute(fn);
  });

  let current: StoreDriverTransaction | undefined;
  /** The transaction level (outer or nested) whose function the caller runs in. */
  const levels = new AsyncLocalStorage<TransactionLevel>();

  /**
   * A nested `transaction` call: a savepoint of the open transaction. Siblings (nested calls of the
   * same level) queue one after the other; a call nested in a nested one runs inside it.
   */
  const nested = <T>(tx: StoreDriverTransaction, fn: (tx: StoreDriverTransaction) => Promise<T>) => {
    const parent = levels.getStore();
    if (!parent) throw new StrataError({ code: 'internal', message: 'nested transaction without a parent' });
    const run = () =>
      levels.run({ tail: Promise.resolve() }, async () => {
        assertOpen();
        const mark = tables.journal.mark();
        try {
          return await fn(tx);
        } catch (error) {
          tables.journal.undoTo(mark);
          throw error;
        }
      });
    const result = parent.tail.then(run, run);
    parent.tail = result.catch(() => undefined);
    return result;
  };

  const driver: StoreDriver = {
    name,
    capabilities: { ...defaultCapabilities, ...parsed.capabilities },
    ...outer,

    async transaction(fn) {
      assertOpen();
      if (gate.joined() && current) return nested(current, fn);
      return gate.exclusive(async () => {
        assertOpen();
        let active = true;
        const tx = subStores(tables, async (body) => {
          if (!active) {
            throw new StrataError({
              code: 'invalid_input',
              message: 'this transaction has ended: make further calls on the store itself',
            });
          }
          return execute(body);
        });
        current = tx;
        tables.journal.begin();
        try {
          const result = await levels.run({ tail: Promise.resolve() }, () => fn(tx));
          tables.journal.commit();
          return result;
        } catch (error) {
          tables.journal.rollback();
          throw error;
        } finally {
          active = false;
          current = undefined;
        }
      });
    },

    async forget({ scope }) {
      for (let wait = gate.blocker(); wait; wait = gate.blocker()) await wait;
      assertOpen();
      return execute(() => forgetSubtree(tables, scope));
    },

    async close() {
      closed = true;
    },
  };

  return defineStore(driver);
}
