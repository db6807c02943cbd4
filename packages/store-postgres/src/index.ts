export { type PoolClientOptions, poolClient } from './client/pool-client.ts';
export type { SqlClient, SqlQueryable, SqlResult } from './client/sql-client.ts';
export type { AnalyzeMode } from './driver/planner-statistics.ts';
export { mapPostgresError } from './errors/map-error.ts';
export { migratePostgres, type PostgresStoreOptions, postgresStore } from './postgres-store.ts';
export { MIGRATION_LOCK_KEY, type MigrationResult } from './schema/migrate.ts';
export { MIGRATIONS, SCHEMA_VERSION, type SchemaNames } from './schema/migrations.ts';
export type { StoreTuning } from './store-tuning.ts';
