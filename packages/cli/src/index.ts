export {
  type DirectoryExport,
  type ExportToDirectoryOptions,
  exportToDirectory,
} from './files/export-directory.ts';
export {
  type DirectoryImport,
  IMPORTED_EDIT,
  type ImportedCorrection,
  type ImportFromDirectoryOptions,
  importFromDirectory,
  type MemoryDirectory,
  readMemoryDirectory,
} from './files/import-directory.ts';
export { SNAPSHOT_FILE, scopeFilePath } from './files/scope-file-names.ts';
export { type OpenedMemory, openMemory, type StrataConfig } from './open-memory.ts';
export { EXIT } from './output.ts';
export { createProgram } from './program.ts';
export { DEFAULT_STORE, parseStoreLocation, type StoreLocation } from './store-location.ts';
