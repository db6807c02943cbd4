export { type OpenedMemory, openMemory, type StrataConfig } from './open-memory.ts';
export { EXIT } from './output.ts';
export { createProgram } from './program.ts';
export { DEFAULT_STORE, parseStoreLocation, type StoreLocation } from './store-location.ts';
