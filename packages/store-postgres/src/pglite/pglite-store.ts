import type { PGlite } from '@electric-sql/pglite';
import { parseArgs, type Store } from '@strata-memory/core/store';
import { z } from 'zod/v4';
import { storeOverClient } from '../store-over-client.ts';
import { resolveTuning, type StoreTuning, tuningShape } from '../store-tuning.ts';
import { folderSize } from './folder-size.ts';
import { pgliteClient } from './pglite-client.ts';

export interface PgliteStoreOptions extends StoreTuning {
  /**
   * Where PGlite keeps its files (a folder path). Omit for an in-memory database that is gone
   * when the process ends.
   */
  dataDir?: string;
  /**
   * An open PGlite instance you own (the store never closes it). It must have been created with
   * the pgvector and btree_gin extensions: `PGlite.create({ extensions: { vector, btree_gin } })`.
   */
  pglite?: PGlite;
}

const optionsSchema = z
  .object({
    ...tuningShape,
    dataDir: z.string().min(1).optional(),
    pglite: z
      .custom<PGlite>(
        (value) => typeof (value as { query?: unknown } | null)?.query === 'function',
        'must be a PGlite instance',
      )
      .optional(),
  })
  .strict()
  .refine((o) => !(o.dataDir && o.pglite), { message: 'pass dataDir or pglite, not both' });

async function openPglite(dataDir: string | undefined): Promise<PGlite> {
  const [{ PGlite }, { vector }, { btree_gin }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite-pgvector'),
    import('@electric-sql/pglite/contrib/btree_gin'),
  ]);
  return PGlite.create({ ...(dataDir ? { dataDir } : {}), extensions: { vector, btree_gin } });
}

/**
 * Strata on embedded PostgreSQL: PGlite (PostgreSQL compiled to WebAssembly) in this process,
 * with pgvector, through the same driver code as `postgresStore`. No server to run; one process
 * at a time per `dataDir`. Start here and move to `postgresStore` with the same schema when one
 * process is no longer enough.
 *
 * Needs `@electric-sql/pglite` and `@electric-sql/pglite-pgvector` installed next to this package.
 */
export function pgliteStore(options: PgliteStoreOptions = {}): Store {
  const parsed = parseArgs(optionsSchema, options, 'pgliteStore: options');
  const tuning = resolveTuning(parsed, 'pglite');
  const given = parsed.pglite;
  const client = given
    ? pgliteClient(async () => given, { ownsDatabase: false })
    : pgliteClient(() => openPglite(parsed.dataDir), { ownsDatabase: true });
  const dataDir = given ? given.dataDir : parsed.dataDir;
  // PGlite keeps an in-memory database for no dataDir or a `memory://` one.
  const persistent = dataDir !== undefined && dataDir !== '' && !dataDir.startsWith('memory://');
  const store = storeOverClient(client, tuning, { multiProcess: false, persistent });
  if (!persistent || dataDir === undefined) return store;
  const folder = dataDir;
  // On disk, the size is the data folder's (every database in it, its WAL and catalogs).
  return { ...store, size: () => folderSize(folder) };
}
