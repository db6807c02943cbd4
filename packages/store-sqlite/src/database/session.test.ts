import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { type Scope, type Store, StrataError } from '@strata-memory/core/store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sqliteStore } from '../index.ts';
import { MIGRATIONS, migrate } from '../schema/migrations.ts';
import { mapSqliteError } from './native-errors.ts';
import { Session } from './session.ts';

const scope: Scope = { userId: 'u' };
const provenance = { source: 'api' as const };

function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return StrataError.isInstance(error) ? error.code : `native: ${String(error)}`;
  }
}

describe('transactions and the connection lock', () => {
  let folder: string;
  let path: string;
  let store: Store;

  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'strata-session-'));
    path = join(folder, 'memory.db');
    store = sqliteStore({ path });
  });
  afterEach(async () => {
    await store.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('makes calls on the store from outside wait until the transaction ends', async () => {
    const hold = gate();
    const inside = gate();
    const transaction = store.transaction(async (tx) => {
      await tx.state.set({ scope, key: 'k', value: 'uncommitted' });
      inside.open();
      await hold.opened;
    });
    await inside.opened;
    let read: string | undefined;
    const outside = store.state.get({ scope, key: 'k' }).then((entry) => {
      read = String(entry?.value);
    });
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(read).toBeUndefined();
    hold.open();
    await transaction;
    await outside;
    expect(read).toBe('uncommitted');
  });

  it('lets calls on the store from inside the transaction join it, and commits them with it', async () => {
    await expect(
      store.transaction(async (tx) => {
        await tx.state.set({ scope, key: 'a', value: 1 });
        // Through the store itself, from inside the function: joins instead of deadlocking.
        expect((await store.state.get({ scope, key: 'a' }))?.value).toBe(1);
        await store.state.set({ scope, key: 'b', value: 2 });
        throw new Error('undo both');
      }),
    ).rejects.toThrow('undo both');
    expect(await store.state.get({ scope, key: 'a' })).toBeNull();
    expect(await store.state.get({ scope, key: 'b' })).toBeNull();
  });

  it('runs a nested transaction inside a savepoint: its failure undoes only its own writes', async () => {
    await store.transaction(async (tx) => {
      await tx.state.set({ scope, key: 'outer', value: 1 });
      await expect(
        store.transaction(async (inner) => {
          await inner.state.set({ scope, key: 'inner', value: 2 });
          throw new Error('inner failed');
        }),
      ).rejects.toThrow('inner failed');
      await store.transaction(async (inner) => {
        await inner.state.set({ scope, key: 'kept', value: 3 });
      });
    });
    expect((await store.state.get({ scope, key: 'outer' }))?.value).toBe(1);
    expect(await store.state.get({ scope, key: 'inner' })).toBeNull();
    expect((await store.state.get({ scope, key: 'kept' }))?.value).toBe(3);
  });

  it('undoes a failed call inside a transaction without ending the transaction', async () => {
    await store.transaction(async (tx) => {
      await tx.episodes.put({ episodes: [{ id: 'taken', scope, text: 'x', occurredAt: 1, provenance }] });
      // A batch whose last item conflicts stores nothing, and the transaction goes on.
      expect(
        await codeOf(
          tx.episodes.put({
            episodes: [
              { id: 'fresh', scope, text: 'y', occurredAt: 1, provenance },
              { id: 'taken', scope, text: 'z', occurredAt: 1, provenance },
            ],
          }),
        ),
      ).toBe('conflict');
      await tx.state.set({ scope, key: 'after', value: true });
    });
    expect((await store.episodes.get({ scope, ids: ['taken', 'fresh'] })).map((e) => e.id)).toEqual([
      'taken',
    ]);
    expect((await store.state.get({ scope, key: 'after' }))?.value).toBe(true);
  });

  it('rejects calls through a transaction that has ended', async () => {
    let leaked: Parameters<Parameters<Store['transaction']>[0]>[0] | undefined;
    await store.transaction(async (tx) => {
      leaked = tx;
    });
    expect(await codeOf(leaked!.state.get({ scope, key: 'k' }))).toBe('invalid_input');
  });

  it('waits for a running transaction on close, then fails later calls with store_unavailable', async () => {
    const hold = gate();
    const transaction = store.transaction(async (tx) => {
      await hold.opened;
      await tx.state.set({ scope, key: 'last', value: 'written' });
    });
    const closing = store.close();
    hold.open();
    await transaction;
    await closing;
    const error = await store.state.get({ scope, key: 'last' }).catch((e: unknown) => e);
    expect(StrataError.hasCode(error, 'store_unavailable')).toBe(true);
    expect((error as StrataError).retryable).toBe(false);
    store = sqliteStore({ path });
    expect((await store.state.get({ scope, key: 'last' }))?.value).toBe('written');
  });

  it('closes from inside a transaction without deadlocking: the transaction still commits', async () => {
    await store.transaction(async (tx) => {
      await tx.state.set({ scope, key: 'before-close', value: 1 });
      await store.close();
      expect(await codeOf(tx.state.get({ scope, key: 'before-close' }))).toBe('store_unavailable');
    });
    expect(await codeOf(store.state.get({ scope, key: 'before-close' }))).toBe('store_unavailable');
    store = sqliteStore({ path });
    expect((await store.state.get({ scope, key: 'before-close' }))?.value).toBe(1);
  });

  it('opens an up-to-date file while another connection writes, but cannot migrate one past the timeout', async () => {
    const hold = gate();
    const inside = gate();
    const transaction = store.transaction(async (tx) => {
      await tx.state.set({ scope, key: 'k', value: 1 });
      inside.open();
      await hold.opened;
    });
    await inside.opened;
    // Up to date: opening only reads the schema version.
    const reader = sqliteStore({ path, busyTimeoutMs: 50 });
    expect(await reader.state.get({ scope, key: 'k' })).toBeNull();

    // A file that needs migrating needs the write lock.
    const oldPath = join(folder, 'old.db');
    const old = new DatabaseSync(oldPath);
    migrate(old, MIGRATIONS.slice(0, 1));
    old.exec('BEGIN IMMEDIATE');
    let caught: unknown;
    try {
      sqliteStore({ path: oldPath, busyTimeoutMs: 50 });
    } catch (error) {
      caught = error;
    }
    old.exec('ROLLBACK');
    old.close();
    expect(StrataError.hasCode(caught, 'store_unavailable')).toBe(true);
    await sqliteStore({ path: oldPath }).close();

    hold.open();
    await transaction;
    expect((await reader.state.get({ scope, key: 'k' }))?.value).toBe(1);
    await reader.close();
  });

  it('waits for another connection’s lock without blocking the event loop, then writes', async () => {
    const other = sqliteStore({ path, busyTimeoutMs: 10_000 });
    const hold = gate();
    const inside = gate();
    const transaction = store.transaction(async (tx) => {
      await tx.state.set({ scope, key: 'first', value: 1 });
      inside.open();
      await hold.opened;
    });
    await inside.opened;
    let written = false;
    const waiting = other.state.set({ scope, key: 'second', value: 2 }).then(() => {
      written = true;
    });
    // If the wait blocked the thread, this timer could not fire (and release the lock) until
    // the 10 s busy timeout ran out, and the write would fail.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(written).toBe(false);
    hold.open();
    await transaction;
    await waiting;
    expect((await other.state.get({ scope, key: 'second' }))?.value).toBe(2);
    await other.close();
  });

  it('maps another process holding the write lock past the busy timeout to store_unavailable', async () => {
    const other = sqliteStore({ path, busyTimeoutMs: 50 });
    const hold = gate();
    const inside = gate();
    const transaction = store.transaction(async (tx) => {
      await tx.state.set({ scope, key: 'held', value: 'by the first connection' });
      inside.open();
      await hold.opened;
    });
    await inside.opened;
    try {
      const error = await other.state.set({ scope, key: 'blocked', value: 1 }).catch((e: unknown) => e);
      expect(StrataError.hasCode(error, 'store_unavailable')).toBe(true);
      expect((error as StrataError).retryable).toBe(true);
      // WAL: readers are not blocked by the writer, and do not see its uncommitted rows.
      expect(await other.state.get({ scope, key: 'held' })).toBeNull();
    } finally {
      hold.open();
      await transaction;
    }
    await other.state.set({ scope, key: 'blocked', value: 1 });
    expect((await other.state.get({ scope, key: 'held' }))?.value).toBe('by the first connection');
    await other.close();
  });
});

describe('planner statistics', () => {
  let folder: string;

  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'strata-stats-'));
  });
  afterEach(() => {
    rmSync(folder, { recursive: true, force: true });
  });

  const analysed = (db: DatabaseSync, table: string) =>
    (db.prepare('SELECT count(*) AS n FROM sqlite_stat1 WHERE tbl = ?').get(table) as { n: number }).n > 0;

  it('refreshes them while a connection lives, every so many committed writes', async () => {
    const db = new DatabaseSync(join(folder, 'stats.db'));
    db.exec(
      'CREATE TABLE items (id INTEGER PRIMARY KEY, owner TEXT); CREATE INDEX items_owner ON items (owner)',
    );
    const session = new Session(db, { busyTimeoutMs: 100, optimizeEveryWrites: 3 });
    const put = (owner: string) =>
      session.outer.write(() => {
        for (let i = 0; i < 100; i++)
          db.prepare('INSERT INTO items (owner) VALUES (?)').run(`${owner}-${i % 7}`);
      });
    await put('a');
    await session.outer.read(() => db.prepare('SELECT count(*) FROM items WHERE owner = ?').get('a-1'));
    await put('b');
    expect(
      await session.outer.read(() =>
        db.prepare("SELECT name FROM sqlite_master WHERE name = 'sqlite_stat1'").get(),
      ),
    ).toBeUndefined();
    await put('c');
    expect(await session.outer.read(() => analysed(db, 'items'))).toBe(true);
    await session.close();
  });

  it('gives a file that was never analysed statistics when a store opens it', async () => {
    const path = join(folder, 'memory.db');
    const store = sqliteStore({ path });
    await store.episodes.put({
      episodes: Array.from({ length: 50 }, (_, i) => ({
        scope,
        text: `note ${i}`,
        occurredAt: i,
        provenance,
      })),
    });
    await store.close();
    const db = new DatabaseSync(path);
    db.exec('DELETE FROM sqlite_stat1');
    expect(analysed(db, 'episodes')).toBe(false);
    db.close();

    // Read while the store is open: closing would refresh the statistics anyway.
    const reopened = sqliteStore({ path });
    const reader = new DatabaseSync(path);
    expect(analysed(reader, 'episodes')).toBe(true);
    reader.close();
    await reopened.close();
  });
});

describe('mapError', () => {
  it('maps constraint violations to conflict and locks to store_unavailable, and leaves the rest', () => {
    const db = new DatabaseSync(':memory:');
    db.exec('CREATE TABLE t (id TEXT PRIMARY KEY)');
    db.exec("INSERT INTO t VALUES ('a')");
    let constraint: unknown;
    try {
      db.exec("INSERT INTO t VALUES ('a')");
    } catch (error) {
      constraint = error;
    }
    expect(mapSqliteError(constraint)?.code).toBe('conflict');
    expect(mapSqliteError(constraint)?.retryable).toBe(true);

    let syntax: unknown;
    try {
      db.exec('SELEC nonsense');
    } catch (error) {
      syntax = error;
    }
    expect(mapSqliteError(syntax)).toBeUndefined();
    expect(mapSqliteError(new Error('plain'))).toBeUndefined();
    db.close();

    const busy = Object.assign(new Error('database is locked'), { code: 'ERR_SQLITE_ERROR', errcode: 5 });
    expect(mapSqliteError(busy)?.code).toBe('store_unavailable');
    const busySnapshot = Object.assign(new Error('database is locked'), {
      code: 'ERR_SQLITE_ERROR',
      errcode: 517,
    });
    expect(mapSqliteError(busySnapshot)?.code).toBe('store_unavailable');
  });
});
