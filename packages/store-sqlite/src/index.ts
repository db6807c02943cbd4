export { SCHEMA_VERSION } from './schema/migrations.ts';
export { DEFAULT_PATH, type SqliteStoreOptions, sqliteStore } from './sqlite-store.ts';
