import { defineStore, type Store } from '@strata-memory/core/store';
import type { SqlClient } from './client/sql-client.ts';
import { Database } from './driver/database.ts';
import { postgresDriver } from './driver/postgres-driver.ts';
import type { ResolvedTuning } from './store-tuning.ts';

/** Builds a `Store` over any `SqlClient`: what `postgresStore` and `pgliteStore` share. */
export function storeOverClient(
  client: SqlClient,
  tuning: ResolvedTuning,
  flags: { multiProcess: boolean; persistent: boolean; replica?: SqlClient },
): Store {
  const database = new Database({
    client,
    ...(flags.replica ? { replica: flags.replica } : {}),
    schema: tuning.schema,
    storeName: tuning.name,
  });
  return defineStore(
    postgresDriver({
      database,
      name: tuning.name,
      keywordRanking: tuning.keywordRanking,
      rankNormalization: tuning.rankNormalization,
      exactSearchBelow: tuning.exactSearchBelow,
      hnswMaxScanTuples: tuning.hnswMaxScanTuples,
      commonTermCutoff: tuning.commonTermCutoff,
      commonTermsFrom: tuning.commonTermsFrom,
      analyze: tuning.analyze,
      multiProcess: flags.multiProcess,
      persistent: flags.persistent,
    }),
  );
}
