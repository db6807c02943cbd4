import { type ChildProcess, spawn } from 'node:child_process';
import { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';
import { getLoadablePath } from 'sqlite-vec';

const WORKER = fileURLToPath(new URL('./workers/batch-writer.ts', import.meta.url));

export interface WriterProcess {
  child: ChildProcess;
  /** Batches the writer reported as committed. */
  acked: number[];
  /** Ledger keys the writer reported as claimed. */
  claimed: string[];
  /** Settles when the process exits, with its exit code and signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
  /** Resolves once `count` batches are acknowledged. */
  ackedAtLeast(count: number): Promise<void>;
}

/** Starts `batch-writer.ts` in a child Node process running the TypeScript source. */
export function startWriter(args: {
  path: string;
  writer: string;
  batches: number | 'forever';
  size: number;
  claims?: boolean;
}): WriterProcess {
  const child = spawn(
    process.execPath,
    [
      '--conditions=@strata-memory/source',
      WORKER,
      args.path,
      args.writer,
      String(args.batches),
      String(args.size),
      ...(args.claims ? ['claims'] : []),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const acked: number[] = [];
  const claimed: string[] = [];
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  let buffered = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8');
  child.stdout!.on('data', (chunk: string) => {
    buffered += chunk;
    const lines = buffered.split('\n');
    buffered = lines.pop()!;
    for (const line of lines) {
      const [word, value] = line.split(' ');
      if (word === 'ack') acked.push(Number(value));
      if (word === 'claimed') claimed.push(value!);
    }
    for (const waiter of waiters.filter((w) => acked.length >= w.count)) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  });
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>(
    (resolve) => {
      child.on('exit', (code, signal) => resolve({ code, signal, stderr }));
    },
  );
  return {
    child,
    acked,
    claimed,
    exited,
    ackedAtLeast(count) {
      if (acked.length >= count) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        waiters.push({ count, resolve });
        void exited.then(({ code, stderr: err }) => {
          if (acked.length < count)
            reject(new Error(`writer exited (${code}) after ${acked.length} batches: ${err}`));
        });
      });
    },
  };
}

/** A raw connection with sqlite-vec loaded, for checking the file behind the store's back. */
export function openRaw(path: string): DatabaseSync {
  const db = new DatabaseSync(path, { allowExtension: true });
  db.loadExtension(getLoadablePath());
  return db;
}

/** Checks every structure in the file agrees with the episodes table; returns the episode count. */
export function consistencyReport(db: DatabaseSync): {
  integrity: string;
  episodes: number;
  embeddings: number;
  vectors: number;
  /** Vectors counted per scope in `vector_scopes` (must equal `vectors`). */
  counted: number;
  ftsRows: number;
} {
  const integrity = (db.prepare('PRAGMA integrity_check').get() as { integrity_check: string })
    .integrity_check;
  // Compares the FTS index with its content (the episodes rows); throws on any difference.
  db.exec("INSERT INTO episodes_fts (episodes_fts, rank) VALUES ('integrity-check', 1)");
  const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
  const hasVectors = count("SELECT count(*) AS n FROM sqlite_schema WHERE name = 'scoped_vectors_16'") > 0;
  return {
    integrity,
    episodes: count('SELECT count(*) AS n FROM episodes'),
    embeddings: count('SELECT count(*) AS n FROM episode_embeddings'),
    vectors: hasVectors ? count('SELECT count(*) AS n FROM scoped_vectors_16') : 0,
    counted: count('SELECT coalesce(sum(vectors), 0) AS n FROM vector_scopes WHERE dimensions = 16'),
    ftsRows: count("SELECT count(*) AS n FROM episodes_fts WHERE episodes_fts MATCH 'shipment'"),
  };
}

/** Episodes per (writer, batch), from their ids. */
export function batchSizes(db: DatabaseSync): Map<string, number> {
  const rows = db.prepare('SELECT id FROM episodes').all() as Array<{ id: string }>;
  const sizes = new Map<string, number>();
  for (const { id } of rows) {
    const [writer, batch] = id.split('-');
    const key = `${writer}-${batch}`;
    sizes.set(key, (sizes.get(key) ?? 0) + 1);
  }
  return sizes;
}
