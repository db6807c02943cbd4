import { conflict, notFound } from '../../errors/strata-error.ts';
import { isInSubtree, tenantOf } from '../../scope/scope.ts';
import type { ThreadDriver } from '../contract.ts';
import type { MessageRecord, ThreadRecord } from '../records.ts';
import { paginate } from './pagination.ts';
import type { SyncSubStore } from './sync-sub-store.ts';
import { compositeKey, exactScopeKey, type MemoryTables, type ThreadRow } from './tables.ts';

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

    list({ scope, limit, cursor }) {
      const items = [...tables.threads.tenantRows(tenantOf(scope))]
        .map((r) => r.record)
        .filter((record) => isInSubtree(record.scope, scope));
      return paginate({
        listing: 'threads',
        items,
        keyOf: (t) => [t.updatedAt, exactScopeKey(t.scope)],
        directions: ['desc', 'asc'],
        limit,
        cursor,
      });
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
