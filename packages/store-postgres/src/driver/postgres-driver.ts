import {
  type StoreCapabilities,
  type StoreDriver,
  type StoreDriverTransaction,
  StrataError,
} from '@strata-memory/core/store';
import { mapPostgresError } from '../errors/map-error.ts';
import { SCHEMA_VERSION } from '../schema/migrations.ts';
import { VectorIndexes } from '../search/vector-indexes.ts';
import { auditDriver } from './audit.ts';
import type { Database } from './database.ts';
import { type EpisodeSearchOptions, episodeDriver } from './episodes.ts';
import { factDriver } from './facts.ts';
import { forgetSubtree } from './forget.ts';
import { graphDriver } from './graph.ts';
import { ledgerDriver } from './ledger.ts';
import { type AnalyzeMode, PlannerStatistics } from './planner-statistics.ts';
import { reviewDriver } from './review.ts';
import { schemaSize } from './schema-size.ts';
import { scopeDriver } from './scopes.ts';
import { stateDriver } from './state.ts';
import { threadDriver } from './threads.ts';

export interface PostgresDriverOptions extends EpisodeSearchOptions {
  name: string;
  database: Database;
  multiProcess: boolean;
  persistent: boolean;
  analyze: AnalyzeMode;
}

type AnyMethod = (args: unknown) => Promise<unknown>;

/** Calls that never write: outside a transaction they may be served by a read replica. */
const READ_ONLY: Record<keyof StoreDriverTransaction, ReadonlySet<string>> = {
  threads: new Set(['get', 'lookup', 'list', 'listMessages', 'findMessages', 'getMessages']),
  episodes: new Set(['get', 'list', 'count', 'searchKeyword', 'searchVector', 'findByHash']),
  facts: new Set(['get', 'find', 'history']),
  graph: new Set(['getNodes', 'findNodes', 'listNodes', 'listEdges', 'traverse']),
  state: new Set(['get', 'list']),
  ledger: new Set(['get', 'list']),
  review: new Set(['get', 'list']),
  audit: new Set(['list']),
  scopes: new Set(['list']),
};
type Wrapper = (method: AnyMethod, readOnly: boolean) => AnyMethod;

function wrapEach(subStores: StoreDriverTransaction, wrap: Wrapper): StoreDriverTransaction {
  const out: Record<string, Record<string, AnyMethod>> = {};
  for (const [name, subStore] of Object.entries(subStores)) {
    const methods: Record<string, AnyMethod> = {};
    const reads = READ_ONLY[name as keyof StoreDriverTransaction];
    for (const [method, fn] of Object.entries(subStore as Record<string, AnyMethod>)) {
      methods[method] = wrap(fn.bind(subStore), reads.has(method));
    }
    out[name] = methods;
  }
  return out as unknown as StoreDriverTransaction;
}

/** The `StoreDriver` over one `Database`: every sub-store, transactions, forget and error mapping. */
export function postgresDriver(options: PostgresDriverOptions): StoreDriver {
  const db = options.database;
  // PGlite is the one single-process client, and it runs no autovacuum.
  const statistics = new PlannerStatistics(db, { mode: options.analyze, embedded: !options.multiProcess });
  const raw: StoreDriverTransaction = {
    threads: threadDriver(db),
    episodes: episodeDriver(db, new VectorIndexes(db), { ...options, statistics }),
    facts: factDriver(db),
    graph: graphDriver(db),
    state: stateDriver(db),
    ledger: ledgerDriver(db),
    review: reviewDriver(db),
    audit: auditDriver(db),
    scopes: scopeDriver(db),
  };
  const outer = wrapEach(raw, (method, readOnly) =>
    readOnly ? (args) => db.call(() => db.read(() => method(args))) : (args) => db.call(() => method(args)),
  );

  const capabilities: StoreCapabilities = {
    keywordSearch: true,
    vectorSearch: true,
    keywordRanking: options.keywordRanking,
    transactions: true,
    multiProcess: options.multiProcess,
    persistent: options.persistent,
  };

  return {
    name: options.name,
    capabilities,
    ...outer,

    async transaction(fn) {
      // A nested call (from inside `fn`, through the store or `tx`) runs in a savepoint of the open
      // transaction: its failure undoes its own writes only.
      const joined = db.transactionHandle() as { tx: StoreDriverTransaction } | undefined;
      if (joined) return db.nested(() => fn(joined.tx));
      return db.openTransaction(
        (bind) => {
          let active = true;
          const tx = wrapEach(outer, (method) => async (args) => {
            if (!active) {
              throw new StrataError({
                code: 'invalid_input',
                message: 'this transaction has ended: make further calls on the store itself',
              });
            }
            return bind(() => method(args));
          });
          return { tx, end: () => (active = false) };
        },
        async ({ tx, end }) => {
          try {
            return await fn(tx);
          } finally {
            end();
          }
        },
      );
    },

    forget({ scope }) {
      return db.call(() => forgetSubtree(db, scope));
    },

    async close() {
      // A running ANALYZE ends first (on PGlite it waits for an open transaction: not from inside one).
      if (!db.inTransaction()) await statistics.settled();
      return db.close();
    },

    size: () => db.read(() => schemaSize(db)),

    async migrate() {
      // The first call of any kind migrates; this reports what that did (or does it now).
      const result = await db.migrate();
      return { version: result.version, latest: SCHEMA_VERSION, applied: result.applied };
    },

    mapError: mapPostgresError,
  };
}
