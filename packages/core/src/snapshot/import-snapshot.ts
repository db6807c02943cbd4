import { conflict, invalidInput } from '../errors/strata-error.ts';
import type { Store, StoreTransaction } from '../store/contract.ts';
import { parseArgs } from '../store/define-store.ts';
import { LIMITS } from '../store/limits.ts';
import { withTransaction } from '../store/with-transaction.ts';
import type { SnapshotProgress } from './export-snapshot.ts';
import {
  countSnapshot,
  type MemorySnapshot,
  memorySnapshotSchema,
  type ScopeSnapshot,
  SNAPSHOT_FORMAT,
  SNAPSHOT_VERSION,
  type SnapshotCounts,
} from './snapshot-schema.ts';
import { decodeVector } from './vector-encoding.ts';

/** Options of `memory.import`. */
export interface ImportOptions {
  onProgress?: (progress: SnapshotProgress) => void;
}

const BATCH = LIMITS.maxBatch;

function chunks<T>(items: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += BATCH) out.push(items.slice(i, i + BATCH));
  return out;
}

/**
 * Checks that `input` is a snapshot this engine reads: the format and version first (a clear
 * message for another file or a newer layout), then every record. Fails with `invalid_input`.
 */
export function parseSnapshot(input: unknown): MemorySnapshot {
  const head = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
  if (head.format !== SNAPSHOT_FORMAT) {
    throw invalidInput(`memory.import: not a Strata memory snapshot (format must be "${SNAPSHOT_FORMAT}")`, {
      format: typeof head.format === 'string' ? head.format : null,
    });
  }
  if (head.version !== SNAPSHOT_VERSION) {
    throw invalidInput(
      `memory.import: snapshot version ${JSON.stringify(head.version)} is not supported (this version reads ${SNAPSHOT_VERSION})`,
      { version: typeof head.version === 'number' ? head.version : null },
    );
  }
  return parseArgs(memorySnapshotSchema, input, 'memory.import');
}

async function importThread(tx: StoreTransaction, section: ScopeSnapshot): Promise<void> {
  if (!section.thread) return;
  const { messages, ...thread } = section.thread;
  const record = { ...thread, scope: section.scope };
  const batches = messages.length === 0 ? [[]] : chunks(messages);
  for (const batch of batches) await tx.threads.restore({ thread: record, messages: batch });
}

async function importRecords(tx: StoreTransaction, section: ScopeSnapshot, where: string): Promise<void> {
  const { scope } = section;
  for (const batch of chunks(section.episodes)) {
    await tx.episodes.put({
      episodes: batch.map(({ embedding, ...episode }) => ({
        ...episode,
        scope,
        ...(embedding ? { embedding: decodeVector(embedding, `${where}: episode ${episode.id}`) } : {}),
      })),
    });
  }
  for (const batch of chunks(section.facts)) {
    await tx.facts.restore({ facts: batch.map((fact) => ({ ...fact, scope })) });
  }
  for (const node of section.nodes) {
    const { status, createdAt, updatedAt, ...rest } = node;
    const stored = await tx.graph.upsertNode({ node: { ...rest, scope, at: createdAt } });
    if (stored.id !== node.id) {
      throw conflict(`node "${node.id}" is already stored as "${stored.id}" (same type and name)`, {
        id: node.id,
        storedId: stored.id,
      });
    }
    if (status !== 'active' || updatedAt !== createdAt) {
      await tx.graph.updateNode({ scope, id: node.id, patch: { status }, at: updatedAt });
    }
  }
  for (const entry of section.state) {
    await tx.state.restore({ entries: [{ ...entry, scope }] });
  }
  for (const entry of section.ledger) {
    const claim = await tx.ledger.claim({
      scope,
      key: entry.key,
      owner: entry.owner,
      at: entry.claimedAt,
      leaseMs: entry.leaseUntil - entry.claimedAt,
    });
    if (!claim.claimed)
      throw conflict(`ledger key "${entry.key}" already exists in this scope`, { key: entry.key });
    if (entry.status === 'done') {
      await tx.ledger.complete({
        scope,
        key: entry.key,
        owner: entry.owner,
        at: entry.completedAt!,
        ...(entry.result !== undefined ? { result: entry.result } : {}),
      });
    }
  }
  for (const item of section.review) {
    const { status, decidedAt, decidedBy, note, ...rest } = item;
    await tx.review.add({ item: { ...rest, scope } });
    if (status !== 'pending') {
      await tx.review.decide({
        scope,
        id: item.id,
        status,
        by: decidedBy!,
        at: decidedAt!,
        ...(note !== undefined ? { note } : {}),
      });
    }
  }
  for (const batch of chunks(section.audit)) {
    await tx.audit.append({ entries: batch.map((entry) => ({ ...entry, scope })) });
  }
}

/** Edges last (their ends may live at an ancestor's scope); ended ones before active ones, so each is added as it was. */
async function importEdges(tx: StoreTransaction, section: ScopeSnapshot): Promise<void> {
  const { scope } = section;
  const ordered = [...section.edges].sort(
    (a, b) => Number(a.status === 'active') - Number(b.status === 'active'),
  );
  for (const edge of ordered) {
    const { status, validTo, ...rest } = edge;
    const stored = await tx.graph.addEdge({ edge: { ...rest, scope } });
    if (stored.id !== edge.id) {
      throw conflict(`edge "${edge.id}" is already stored as "${stored.id}" (same ends and relation)`, {
        id: edge.id,
        storedId: stored.id,
      });
    }
    if (status !== 'active' || validTo !== undefined) {
      await tx.graph.updateEdge({
        scope,
        id: edge.id,
        patch: { status, ...(validTo !== undefined ? { validTo } : {}) },
      });
    }
  }
}

/**
 * Writes a snapshot into a store as it was: ids, versions, sequence numbers, times and provenance
 * kept. The snapshot is checked in full first (a wrong format or version, or a malformed record, is
 * `invalid_input` and writes nothing), then written in one transaction where the store has them, so
 * a clash with what the store already holds (`conflict`) writes nothing either.
 */
export async function importSnapshot(
  store: Store,
  input: unknown,
  options: ImportOptions = {},
): Promise<SnapshotCounts> {
  const snapshot = parseSnapshot(input);
  const total = snapshot.scopes.length;
  await withTransaction(store, async (tx) => {
    let done = 0;
    for (const [i, section] of snapshot.scopes.entries()) {
      const where = `scopes.${i}`;
      await importThread(tx, section);
      await importRecords(tx, section, where);
      done += 1;
      options.onProgress?.({ phase: 'import', done, total });
    }
    for (const section of snapshot.scopes) await importEdges(tx, section);
  });
  return countSnapshot(snapshot);
}
