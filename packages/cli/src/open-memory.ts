import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createMemory, invalidInput, type Memory, type MemoryOptions } from '@strata-memory/core';
import { localEmbedder } from '@strata-memory/embed-local';
import {
  describeStoreLocation,
  openStore,
  parseStoreLocation,
  type StoreLocation,
} from './store-location.ts';

/**
 * What a user's config file (`strata.config.js`, `.mjs` or `.ts`, or `--config <file>`) exports as
 * its default: the memory options besides the store, which the command line chooses. `embedder:
 * false` turns vector search off; without the key the offline sentence encoder is used.
 */
export type StrataConfig = Omit<MemoryOptions, 'store' | 'embedder'> & {
  embedder?: MemoryOptions['embedder'] | false;
};

export const CONFIG_FILES = ['strata.config.ts', 'strata.config.mjs', 'strata.config.js'];

/** Loads `--config <file>`, else the first `strata.config.*` in the current directory, else `{}`. */
export async function loadConfig(file: string | undefined): Promise<StrataConfig> {
  const path = file ? resolve(file) : CONFIG_FILES.map((name) => resolve(name)).find((p) => existsSync(p));
  if (path === undefined) return {};
  if (!existsSync(path)) throw invalidInput(`config file ${file} does not exist`, { config: file });
  const loaded = (await import(pathToFileURL(path).href)) as { default?: unknown };
  const config = loaded.default;
  if (config === null || typeof config !== 'object' || Array.isArray(config)) {
    throw invalidInput(
      `${path} must export default an object of memory options (policy, extractor, embedder, …)`,
      {
        config: path,
      },
    );
  }
  return config as StrataConfig;
}

export interface OpenedMemory {
  memory: Memory;
  location: StoreLocation;
  /** "SQLite /path/to/file", "PostgreSQL postgres://…" (password hidden). */
  description: string;
}

/**
 * A memory on the store the user named, with their config. The offline embedder loads on first use,
 * so commands that never embed (stats, facts, audit) stay fast. Close it with `memory.close()`.
 */
export async function openMemory(options: {
  store?: string;
  config?: string;
  /** Create a SQLite file that does not exist yet (otherwise that is `invalid_input`). */
  create?: boolean;
}): Promise<OpenedMemory> {
  const location = parseStoreLocation(options.store);
  if (
    !options.create &&
    location.kind === 'sqlite' &&
    location.path !== ':memory:' &&
    !existsSync(location.path)
  ) {
    throw invalidInput(`there is no SQLite store at ${location.path} (strata migrate creates one)`, {
      store: location.path,
    });
  }
  const config = await loadConfig(options.config);
  const { embedder, ...rest } = config;
  const store = openStore(location);
  const memory = createMemory({
    ...rest,
    store,
    ...(embedder === false ? {} : { embedder: embedder ?? localEmbedder() }),
  });
  return { memory, location, description: describeStoreLocation(location) };
}
