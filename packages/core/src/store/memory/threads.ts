import { conflict, notFound } from '../../errors/strata-error.ts';
import { isInSubtree, type Scope, scopeColumns, tenantOf } from '../../scope/scope.ts';
import type { ThreadDriver } from '../contract.ts';
import type { JsonValue, MessageRecord, Metadata, ThreadRecord } from '../records.ts';
import { matchesValue } from '../value-filter.ts';
import { compareKeys, paginate } from './pagination.ts';
import type { SyncSubStore } from './sync-sub-store.ts';
import { compositeKey, exactScopeKey, type MemoryTables, type ThreadRow } from './tables.ts';

function hasLevels(
  scope: Scope,
  levels: { orgId?: boolean; userId?: boolean; agentId?: boolean } | undefined,
) {
  if (levels === undefined) return true;
  return (['orgId', 'userId', 'agentId'] as const).every(
    (level) => levels[level] === undefined || levels[level] === (scope[level] !== undefined),
  );
}

/** The value at `path` (object keys) inside `metadata`, or `undefined` when the path is missing. */
function metadataAtPath(metadata: Metadata, path: readonly string[] | undefined): JsonValue {
  let value: JsonValue | undefined = metadata;
  for (const key of path ?? []) {
    value =
      typeof value === 'object' && value !== null && !Array.isArray(value) && Object.hasOwn(value, key)
        ? value[key]
        : undefined;
  }
  return value ?? null;
}

function sortedMessages(tables: MemoryTables, threadKey: string): MessageRecord[] {
  const messages = [...(tables.messagesByThread.get(threadKey)?.values() ?? [])];
  return messages.sort((a, b) => a.seq - b.seq);
}

export function threadSubStore(tables: MemoryTables): SyncSubStore<ThreadDriver> {
  const row = (key: string): ThreadRow | undefined => tables.threads.get(key);

  return {
    upsert({ scope, title, metadata, at }) {
      const key = exactScopeKey(scope);
      const existing = row(key);
      if (!existing) {
        const record: ThreadRecord = { scope, metadata: metadata ?? {}, createdAt: at, updatedAt: at };
        if (title !== undefined) record.title = title;
        tables.threads.set(key, { record, nextSeq: 1 });
        return record;
      }
      const record: ThreadRecord = {
        ...existing.record,
        metadata: { ...existing.record.metadata, ...metadata },
        updatedAt: at,
      };
      if (title !== undefined) record.title = title;
      tables.threads.set(key, { ...existing, record });
      return record;
    },

    get({ scope }) {
      return row(exactScopeKey(scope))?.record ?? null;
    },

    lookup({ threadId }) {
      const keys = [...(tables.threadsById.get(threadId) ?? [])].sort();
      return keys.map((key) => row(key)!.record);
    },

    list({ scope, levels, metadata, order, limit, offset, cursor, withTotal }) {
      const items = [...tables.threads.tenantRows(tenantOf(scope))]
        .map((r) => r.record)
        .filter(
          (record) =>
            isInSubtree(record.scope, scope) &&
            hasLevels(record.scope, levels) &&
            (metadata === undefined || matchesValue(record.metadata, metadata)),
        );
      const page = paginate({
        listing: `threads.${order.field}.${order.direction}`,
        items,
        keyOf: (t) => {
          const c = scopeColumns(t.scope);
          return [t[order.field], c.org, c.user, c.agent, c.thread];
        },
        directions: Array(5).fill(order.direction),
        limit,
        ...(cursor === undefined ? {} : { cursor }),
        ...(offset === undefined ? {} : { offset }),
      });
      return withTotal ? { ...page, total: items.length } : page;
    },

    update({ scope, patch, at }) {
      const key = exactScopeKey(scope);
      const existing = row(key);
      if (!existing) throw notFound('thread', scope.threadId ?? key);
      const record: ThreadRecord = { ...existing.record, updatedAt: at };
      if (patch.title !== undefined) record.title = patch.title;
      if (patch.metadata !== undefined) record.metadata = { ...record.metadata, ...patch.metadata };
      if (patch.summary !== undefined) record.summary = patch.summary;
      if (patch.summarizedThroughSeq !== undefined) record.summarizedThroughSeq = patch.summarizedThroughSeq;
      tables.threads.set(key, { ...existing, record });
      return record;
    },

    delete({ scope }) {
      const key = exactScopeKey(scope);
      if (!row(key)) return { deleted: false };
      for (const message of sortedMessages(tables, key))
        tables.messages.delete(compositeKey(key, message.id));
      tables.threads.delete(key);
      return { deleted: true };
    },

    appendMessages({ scope, messages }) {
      const key = exactScopeKey(scope);
      const first = messages[0]!;
      let thread: ThreadRow = row(key) ?? {
        record: { scope, metadata: {}, createdAt: first.createdAt, updatedAt: first.createdAt },
        nextSeq: 1,
      };
      const out: MessageRecord[] = [];
      for (const message of messages) {
        const stored = tables.messages.get(compositeKey(key, message.id));
        if (stored) {
          out.push(stored);
          continue;
        }
        const record: MessageRecord = { ...message, scope, seq: thread.nextSeq };
        for (const field of ['name', 'toolCalls', 'toolCallId'] as const) {
          if (record[field] === undefined) delete record[field];
        }
        tables.messages.set(compositeKey(key, message.id), record);
        out.push(record);
        thread = {
          nextSeq: thread.nextSeq + 1,
          record: { ...thread.record, updatedAt: Math.max(thread.record.updatedAt, message.createdAt) },
        };
      }
      tables.threads.set(key, thread);
      return out;
    },

    listMessages({ scope, limit, order, afterSeq, beforeSeq }) {
      const inRange = sortedMessages(tables, exactScopeKey(scope)).filter(
        (m) => (afterSeq === undefined || m.seq > afterSeq) && (beforeSeq === undefined || m.seq < beforeSeq),
      );
      return order === 'asc' ? inRange.slice(0, limit) : inRange.reverse().slice(0, limit);
    },

    findMessages({ threads, since, until, roles, metadata, metadataAt, order, limit, offset, withTotal }) {
      const matching: MessageRecord[] = [];
      for (const key of new Set(threads.map(exactScopeKey))) {
        for (const message of tables.messagesByThread.get(key)?.values() ?? []) {
          if (since !== undefined && message.createdAt < since) continue;
          if (until !== undefined && message.createdAt > until) continue;
          if (roles !== undefined && !roles.includes(message.role)) continue;
          if (metadata !== undefined && !matchesValue(metadataAtPath(message.metadata, metadataAt), metadata))
            continue;
          matching.push(message);
        }
      }
      const keyOf = (m: MessageRecord) => {
        const c = scopeColumns(m.scope);
        return [m.createdAt, c.org, c.user, c.agent, c.thread, m.seq];
      };
      const directions = Array(6).fill(order);
      matching.sort((a, b) => compareKeys(keyOf(a), keyOf(b), directions));
      const start = offset ?? 0;
      const items = matching.slice(start, start + limit);
      return withTotal ? { items, total: matching.length } : { items };
    },

    getMessages({ scope, ids }) {
      const thread = tables.messagesByThread.get(exactScopeKey(scope));
      const out: MessageRecord[] = [];
      for (const id of new Set(ids)) {
        const message = thread?.get(id);
        if (message) out.push(message);
      }
      return out;
    },

    restore({ thread, messages }) {
      const key = exactScopeKey(thread.scope);
      const existing = row(key);
      const taken = new Set(sortedMessages(tables, key).map((m) => m.seq));
      let nextSeq = existing?.nextSeq ?? 1;
      for (const message of messages) {
        if (tables.messages.has(compositeKey(key, message.id)) || taken.has(message.seq)) {
          throw conflict(`message "${message.id}" (seq ${message.seq}) is already in the thread`, {
            id: message.id,
            seq: message.seq,
          });
        }
        const record: MessageRecord = { ...message, scope: thread.scope };
        for (const field of ['name', 'toolCalls', 'toolCallId'] as const) {
          if (record[field] === undefined) delete record[field];
        }
        tables.messages.set(compositeKey(key, message.id), record);
        nextSeq = Math.max(nextSeq, message.seq + 1);
      }
      const record: ThreadRecord = { ...thread };
      for (const field of ['title', 'summary', 'summarizedThroughSeq'] as const) {
        if (record[field] === undefined) delete record[field];
      }
      tables.threads.set(key, { record, nextSeq });
      return { thread: record, messages: messages.length };
    },

    deleteMessages({ scope, ids }) {
      const key = exactScopeKey(scope);
      let deleted = 0;
      for (const id of new Set(ids)) if (tables.messages.delete(compositeKey(key, id))) deleted += 1;
      return { deleted };
    },
  };
}
