export { type PgliteClientOptions, pgliteClient } from './pglite-client.ts';
export { type PgliteStoreOptions, pgliteStore } from './pglite-store.ts';
