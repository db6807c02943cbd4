import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { createMemory, type Embedder, PORT_SPECIFICATION_VERSION, type Scope } from '@strata-memory/core';
import { seededRandom } from '@strata-memory/core/test';
import { getLoadablePath } from 'sqlite-vec';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sqliteStore } from '../index.ts';

/**
 * Right to be forgotten, checked where an operator would look: the bytes of the database file and
 * its WAL, and every table read with plain SQL (the FTS index's and the vector index's shadow
 * tables included). The user's text carries marker words found nowhere else.
 */

let folder: string;
let path: string;

beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'strata-forget-erasure-'));
  path = join(folder, 'memory.db');
});
afterEach(() => {
  rmSync(folder, { recursive: true, force: true });
});

const maria: Scope = { orgId: 'acme', userId: 'maria' };
const mariaThread: Scope = { ...maria, threadId: 't1' };
const bobThread: Scope = { orgId: 'acme', userId: 'bob', threadId: 't1' };

/**
 * Words that occur in no other text: ten consonants (no `s` or `y`, so the Porter stemmer indexes
 * them unchanged), drawn from a seeded generator.
 */
function markerWords(seed: number, count: number): string[] {
  const letters = 'bcdfghjklmnpqrtvwxz';
  const random = seededRandom(seed);
  return Array.from({ length: count }, () =>
    Array.from({ length: 10 }, () => letters[Math.floor(random() * letters.length)]).join(''),
  );
}

/**
 * The markers found in `bytes`. The FTS index stores a term after the prefix it shares with the
 * term before it, so the last six letters are searched too.
 */
function markersIn(bytes: Buffer, markers: readonly string[]): string[] {
  return markers.filter((word) => bytes.includes(word) || bytes.includes(word.slice(-6)));
}

function fileBytes(file: string): Buffer {
  return existsSync(file) ? readFileSync(file) : Buffer.alloc(0);
}

/** Every value of every table (virtual tables through their shadow tables), as bytes. */
function tableBytes(file: string): Buffer {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    const tables = db
      .prepare("SELECT name, sql FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
      .all() as Array<{ name: string; sql: string }>;
    const chunks: Buffer[] = [];
    for (const { name, sql } of tables) {
      if (/^CREATE VIRTUAL TABLE/i.test(sql)) continue;
      const statement = db.prepare(`SELECT * FROM "${name}"`);
      statement.setReadBigInts(true);
      for (const row of statement.all()) {
        for (const value of Object.values(row)) {
          if (value instanceof Uint8Array) chunks.push(Buffer.from(value));
          else if (value !== null) chunks.push(Buffer.from(String(value)));
        }
      }
    }
    return Buffer.concat(chunks);
  } finally {
    db.close();
  }
}

/** The vectors stored for the episodes of `scope` (float64 copies and the index's float32 rows). */
function storedVectors(file: string, userId: string): Buffer[] {
  const db = new DatabaseSync(file, { readOnly: true, allowExtension: true });
  try {
    db.loadExtension(getLoadablePath());
    const rows = db
      .prepare(
        `SELECT e.row_id, x.embedding, e.dimensions FROM episodes e
           JOIN episode_embeddings x ON x.row_id = e.row_id WHERE e.user_id = ?`,
      )
      .all(userId) as Array<{ row_id: number; embedding: Uint8Array; dimensions: number }>;
    const out: Buffer[] = [];
    for (const row of rows) {
      out.push(Buffer.from(row.embedding));
      const indexed = db
        .prepare(`SELECT embedding FROM scoped_vectors_${row.dimensions} WHERE rowid = ?`)
        .get(row.row_id) as { embedding: Uint8Array } | undefined;
      if (indexed) out.push(Buffer.from(indexed.embedding));
    }
    return out;
  } finally {
    db.close();
  }
}

/**
 * Pieces of a stored vector to look for in the file: a vector in a sqlite-vec chunk can straddle
 * two pages, so it is searched as 24-byte pieces (those with at least 12 non-zero bytes).
 */
function fingerprints(vector: Buffer): Buffer[] {
  const pieces: Buffer[] = [];
  for (let offset = 0; offset + 24 <= vector.length; offset += 24) {
    const piece = vector.subarray(offset, offset + 24);
    if (piece.filter((byte) => byte !== 0).length >= 12) pieces.push(piece);
  }
  return pieces;
}

/**
 * Dense unit vectors seeded by the text, so every stored vector has distinctive bytes to look for
 * (the hashing test embedder's vectors are mostly zeros).
 */
const denseEmbedder: Embedder = {
  specificationVersion: PORT_SPECIFICATION_VERSION,
  id: 'dense-test-64',
  dimensions: 64,
  maxBatchSize: 64,
  async embed({ texts }) {
    return texts.map((text) => {
      const random = seededRandom(createHash('md5').update(text).digest().readUInt32LE(0));
      const vector = Array.from({ length: 64 }, () => random() - 0.5);
      const norm = Math.hypot(...vector);
      return vector.map((x) => x / norm);
    });
  },
};

function openMemory() {
  const store = sqliteStore({ path });
  return { store, memory: createMemory({ store, embedder: denseEmbedder }) };
}

async function observeMarkers(
  memory: ReturnType<typeof openMemory>['memory'],
  scope: Scope,
  words: string[],
) {
  for (let i = 0; i < words.length; i += 2) {
    await memory.observe(scope, {
      role: 'user',
      content: `Please remember ${words[i]} and ${words[i + 1]} for the quarterly review.`,
    });
  }
  await memory.state.set(scope, 'note', { text: words.join(' ') });
}

describe('forget erases the user from the SQLite file', () => {
  it('leaves no marker word or vector of hers in the file, the WAL or any table; others still recall', async () => {
    const [mariaOld, mariaNew, bobWords] = [markerWords(1, 8), markerWords(2, 8), markerWords(3, 8)];
    const mariaWords = [...mariaOld, ...mariaNew];

    // Her first words reach the database file itself (closing checkpoints the WAL into it)...
    const first = openMemory();
    await observeMarkers(first.memory, mariaThread, mariaOld);
    await observeMarkers(first.memory, bobThread, bobWords);
    await first.store.close();
    expect(markersIn(fileBytes(path), mariaOld)).toEqual(mariaOld);
    const vectors = storedVectors(path, 'maria');
    expect(vectors.length).toBe(mariaOld.length);
    expect(
      vectors.filter((vector) => !fingerprints(vector).some((f) => fileBytes(path).includes(f))),
    ).toEqual([]);

    // ...her later words are only in the WAL when she is forgotten.
    const second = openMemory();
    await observeMarkers(second.memory, mariaThread, mariaNew);
    expect(markersIn(fileBytes(`${path}-wal`), mariaNew)).toEqual(mariaNew);
    const counts = await second.memory.forget(maria);
    expect(counts.episodes).toBe(mariaWords.length / 2);

    // While the store is still open: neither the file nor the WAL holds her words.
    expect(markersIn(fileBytes(path), mariaWords)).toEqual([]);
    expect(markersIn(fileBytes(`${path}-wal`), mariaWords)).toEqual([]);

    // Others' memory is intact and found by both indexes.
    for (let i = 0; i < bobWords.length; i += 2) {
      const text = `Please remember ${bobWords[i]} and ${bobWords[i + 1]} for the quarterly review.`;
      const keyword = await second.store.episodes.searchKeyword({ scope: bobThread, query: bobWords[i]! });
      expect(keyword.map((hit) => hit.episode.text)).toEqual([text]);
      const [vector] = await denseEmbedder.embed({ texts: [text] });
      const nearest = await second.store.episodes.searchVector({
        scope: bobThread,
        vector: vector!,
        limit: 1,
      });
      expect(nearest.map((hit) => hit.episode.text)).toEqual([text]);
    }
    await second.store.close();

    const everything = Buffer.concat([fileBytes(path), fileBytes(`${path}-wal`)]);
    expect(markersIn(everything, mariaWords)).toEqual([]);
    expect(vectors.flatMap(fingerprints).filter((f) => everything.includes(f))).toEqual([]);
    const tables = tableBytes(path);
    expect(markersIn(tables, mariaWords)).toEqual([]);
    expect(markersIn(tables, bobWords)).toEqual(bobWords);
  });

  it('called inside a transaction, empties the WAL once the transaction commits', async () => {
    const words = markerWords(5, 4);
    const { store, memory } = openMemory();
    await observeMarkers(memory, mariaThread, words);
    await store.transaction(async () => {
      await store.forget({ scope: maria });
      // Not yet: the transaction is still open.
      expect(fileBytes(`${path}-wal`).length).toBeGreaterThan(0);
    });
    expect(fileBytes(`${path}-wal`).length).toBe(0);
    expect(markersIn(fileBytes(path), words)).toEqual([]);
    await store.close();
  });

  it('erases the terms of episodes deleted before secure deletes were switched on', async () => {
    const words = markerWords(4, 4);
    const { store, memory } = openMemory();
    await observeMarkers(memory, mariaThread, words);
    await store.close();
    // A file from before: deletes leave tombstones, and the terms stay in older segments.
    const db = new DatabaseSync(path);
    db.exec(`INSERT INTO episodes_fts (episodes_fts, rank) VALUES ('secure-delete', 0);
             PRAGMA secure_delete = OFF;
             DELETE FROM episodes;
             DELETE FROM threads;
             DELETE FROM state;
             UPDATE strata_meta SET value = '3' WHERE key = 'schema_version';`);
    db.close();
    // Only the FTS index's segments still hold them.
    expect(markersIn(tableBytes(path), words)).toEqual(words);

    const reopened = sqliteStore({ path });
    await reopened.close();
    expect(markersIn(tableBytes(path), words)).toEqual([]);
  });
});
