import {
  conflict,
  type MessageRecord,
  type Metadata,
  notFound,
  type Scope,
  type ThreadDriver,
  type ThreadRecord,
  type ToolCallRecord,
} from '@strata-memory/core/store';
import type { Runner } from '../database/session.ts';
import type { Statements } from '../database/statements.ts';
import { toPage } from '../sql/cursor.ts';
import { fromJson, optional, setIfPresent, toJson } from '../sql/json-columns.ts';
import {
  allOf,
  exactScopeClause,
  inClause,
  type ScopeRow,
  scopeOfRow,
  scopeValues,
} from '../sql/scope-sql.ts';
import { findMessagesQuery, threadListQuery } from './thread-queries.ts';

interface ThreadRow extends ScopeRow {
  title: string | null;
  metadata: string;
  summary: string | null;
  summarized_through_seq: number | null;
  next_seq: number;
  created_at: number;
  updated_at: number;
}

interface MessageRow extends ScopeRow {
  seq: number;
  id: string;
  role: MessageRecord['role'];
  content: string;
  name: string | null;
  tool_calls: string | null;
  tool_call_id: string | null;
  created_at: number;
  metadata: string;
}

function toThread(row: ThreadRow): ThreadRecord {
  const record: ThreadRecord = {
    scope: scopeOfRow(row),
    metadata: fromJson<Metadata>(row.metadata),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
  setIfPresent(record, 'title', row.title);
  setIfPresent(record, 'summary', row.summary);
  setIfPresent(record, 'summarizedThroughSeq', row.summarized_through_seq);
  return record;
}

function toMessage(row: MessageRow): MessageRecord {
  const record: MessageRecord = {
    id: row.id,
    scope: scopeOfRow(row),
    seq: row.seq,
    role: row.role,
    content: row.content,
    createdAt: row.created_at,
    metadata: fromJson<Metadata>(row.metadata),
  };
  setIfPresent(record, 'name', row.name);
  if (row.tool_calls !== null) record.toolCalls = fromJson<ToolCallRecord[]>(row.tool_calls);
  setIfPresent(record, 'toolCallId', row.tool_call_id);
  return record;
}

/** Threads and their messages. A thread is identified by its full scope; messages by (thread, id). */
export function threadDriver(sql: Statements, run: Runner): ThreadDriver {
  const threadAt = (scope: Scope): ThreadRow | undefined => {
    const where = exactScopeClause(scope);
    return sql.get<ThreadRow>(`SELECT * FROM threads WHERE ${where.sql}`, where.params);
  };

  const saveThread = (row: ThreadRow, isNew: boolean): void => {
    if (isNew) {
      sql.run(
        `INSERT INTO threads (tenant, org_id, user_id, agent_id, thread_id, title, metadata, summary,
           summarized_through_seq, next_seq, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          row.tenant,
          row.org_id,
          row.user_id,
          row.agent_id,
          row.thread_id,
          row.title,
          row.metadata,
          row.summary,
          row.summarized_through_seq,
          row.next_seq,
          row.created_at,
          row.updated_at,
        ],
      );
      return;
    }
    const where = exactScopeClause(scopeOfRow(row));
    sql.run(
      `UPDATE threads SET title = ?, metadata = ?, summary = ?, summarized_through_seq = ?, next_seq = ?,
         updated_at = ? WHERE ${where.sql}`,
      [
        row.title,
        row.metadata,
        row.summary,
        row.summarized_through_seq,
        row.next_seq,
        row.updated_at,
        ...where.params,
      ],
    );
  };

  const newThreadRow = (scope: Scope, at: number): ThreadRow => {
    const [tenant, org_id, user_id, agent_id, thread_id] = scopeValues(scope);
    return {
      tenant,
      org_id,
      user_id,
      agent_id,
      thread_id,
      title: null,
      metadata: '{}',
      summary: null,
      summarized_through_seq: null,
      next_seq: 1,
      created_at: at,
      updated_at: at,
    };
  };

  const insertMessage = (row: MessageRow): void => {
    sql.run(
      `INSERT INTO messages (tenant, org_id, user_id, agent_id, thread_id, seq, id, role, content, name,
         tool_calls, tool_call_id, created_at, metadata)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        row.tenant,
        row.org_id,
        row.user_id,
        row.agent_id,
        row.thread_id,
        row.seq,
        row.id,
        row.role,
        row.content,
        row.name,
        row.tool_calls,
        row.tool_call_id,
        row.created_at,
        row.metadata,
      ],
    );
  };

  const mergeMetadata = (stored: string, patch: Metadata | undefined): string =>
    patch === undefined ? stored : toJson({ ...fromJson<Metadata>(stored), ...patch });

  return {
    upsert: ({ scope, title, metadata, at }) =>
      run.write(() => {
        const existing = threadAt(scope);
        const row = existing ?? newThreadRow(scope, at);
        row.metadata = mergeMetadata(row.metadata, metadata);
        row.updated_at = at;
        if (title !== undefined) row.title = title;
        saveThread(row, existing === undefined);
        return toThread(row);
      }),

    get: ({ scope }) =>
      run.read(() => {
        const row = threadAt(scope);
        return row ? toThread(row) : null;
      }),

    lookup: ({ threadId }) =>
      run.read(() =>
        sql
          .all<ThreadRow>(
            'SELECT * FROM threads WHERE thread_id = ? ORDER BY org_id, user_id, agent_id, thread_id, tenant',
            [threadId],
          )
          .map(toThread),
      ),

    list: (args) =>
      run.read(() => {
        const { page, query, count } = threadListQuery(args);
        const rows = sql.all<ThreadRow>(query.sql, query.params);
        const listed = toPage(
          page,
          rows,
          (r) => [
            args.order.field === 'createdAt' ? r.created_at : r.updated_at,
            r.org_id,
            r.user_id,
            r.agent_id,
            r.thread_id,
          ],
          toThread,
        );
        if (!args.withTotal) return listed;
        return { ...listed, total: sql.get<{ total: number }>(count.sql, count.params)!.total };
      }),

    update: ({ scope, patch, at }) =>
      run.write(() => {
        const row = threadAt(scope);
        if (!row) throw notFound('thread', scope.threadId!);
        if (patch.title !== undefined) row.title = patch.title;
        row.metadata = mergeMetadata(row.metadata, patch.metadata);
        if (patch.summary !== undefined) row.summary = patch.summary;
        if (patch.summarizedThroughSeq !== undefined) row.summarized_through_seq = patch.summarizedThroughSeq;
        row.updated_at = at;
        saveThread(row, false);
        return toThread(row);
      }),

    delete: ({ scope }) =>
      run.write(() => {
        const where = exactScopeClause(scope);
        sql.run(`DELETE FROM messages WHERE ${where.sql}`, where.params);
        return { deleted: sql.run(`DELETE FROM threads WHERE ${where.sql}`, where.params).changes > 0 };
      }),

    appendMessages: ({ scope, messages }) =>
      run.write(() => {
        const existing = threadAt(scope);
        const thread = existing ?? newThreadRow(scope, messages[0]!.createdAt);
        if (existing === undefined) saveThread(thread, true);
        const scopeParams = scopeValues(scope);
        const where = exactScopeClause(scope);
        const out: MessageRecord[] = [];
        for (const message of messages) {
          const stored = sql.get<MessageRow>(`SELECT * FROM messages WHERE ${where.sql} AND id = ?`, [
            ...where.params,
            message.id,
          ]);
          if (stored) {
            out.push(toMessage(stored));
            continue;
          }
          const row: MessageRow = {
            tenant: scopeParams[0],
            org_id: scopeParams[1],
            user_id: scopeParams[2],
            agent_id: scopeParams[3],
            thread_id: scopeParams[4],
            seq: thread.next_seq,
            id: message.id,
            role: message.role,
            content: message.content,
            name: optional(message.name),
            tool_calls: message.toolCalls === undefined ? null : toJson(message.toolCalls),
            tool_call_id: optional(message.toolCallId),
            created_at: message.createdAt,
            metadata: toJson(message.metadata),
          };
          insertMessage(row);
          out.push(toMessage(row));
          thread.next_seq += 1;
          thread.updated_at = Math.max(thread.updated_at, message.createdAt);
        }
        saveThread(thread, false);
        return out;
      }),

    restore: ({ thread, messages }) =>
      run.write(() => {
        const existing = threadAt(thread.scope);
        const row = existing ?? newThreadRow(thread.scope, thread.createdAt);
        const scopeParams = scopeValues(thread.scope);
        const where = exactScopeClause(thread.scope);
        row.title = optional(thread.title);
        row.metadata = toJson(thread.metadata);
        row.summary = optional(thread.summary);
        row.summarized_through_seq = optional(thread.summarizedThroughSeq);
        row.created_at = thread.createdAt;
        row.updated_at = thread.updatedAt;
        // Messages reference their thread: it is written first.
        if (existing === undefined) saveThread(row, true);
        for (const message of messages) {
          const clash = sql.get<{ id: string }>(
            `SELECT id FROM messages WHERE ${where.sql} AND (id = ? OR seq = ?)`,
            [...where.params, message.id, message.seq],
          );
          if (clash) {
            throw conflict(`message "${message.id}" (seq ${message.seq}) is already in the thread`, {
              id: message.id,
              seq: message.seq,
            });
          }
          insertMessage({
            tenant: scopeParams[0],
            org_id: scopeParams[1],
            user_id: scopeParams[2],
            agent_id: scopeParams[3],
            thread_id: scopeParams[4],
            seq: message.seq,
            id: message.id,
            role: message.role,
            content: message.content,
            name: optional(message.name),
            tool_calls: message.toolCalls === undefined ? null : toJson(message.toolCalls),
            tool_call_id: optional(message.toolCallId),
            created_at: message.createdAt,
            metadata: toJson(message.metadata),
          });
          row.next_seq = Math.max(row.next_seq, message.seq + 1);
        }
        saveThread(row, false);
        if (existing !== undefined) {
          sql.run(`UPDATE threads SET created_at = ? WHERE ${where.sql}`, [
            thread.createdAt,
            ...where.params,
          ]);
        }
        return { thread: toThread(row), messages: messages.length };
      }),

    listMessages: ({ scope, limit, order, afterSeq, beforeSeq }) =>
      run.read(() => {
        const where = allOf(
          exactScopeClause(scope),
          afterSeq === undefined ? undefined : { sql: 'seq > ?', params: [afterSeq] },
          beforeSeq === undefined ? undefined : { sql: 'seq < ?', params: [beforeSeq] },
        );
        return sql
          .all<MessageRow>(
            `SELECT * FROM messages WHERE ${where.sql} ORDER BY seq ${order === 'asc' ? 'ASC' : 'DESC'} LIMIT ?`,
            [...where.params, limit],
          )
          .map(toMessage);
      }),

    findMessages: (args) =>
      run.read(() => {
        const { query, count } = findMessagesQuery(args);
        const items = sql.all<MessageRow>(query.sql, query.params).map(toMessage);
        if (!args.withTotal) return { items };
        return { items, total: sql.get<{ total: number }>(count.sql, count.params)!.total };
      }),

    getMessages: ({ scope, ids }) =>
      run.read(() => {
        const unique = [...new Set(ids)];
        const where = allOf(exactScopeClause(scope), inClause('id', unique));
        const byId = new Map(
          sql
            .all<MessageRow>(`SELECT * FROM messages WHERE ${where.sql}`, where.params)
            .map((r) => [r.id, r]),
        );
        return unique.flatMap((id) => {
          const row = byId.get(id);
          return row ? [toMessage(row)] : [];
        });
      }),

    deleteMessages: ({ scope, ids }) =>
      run.write(() => {
        const where = allOf(exactScopeClause(scope), inClause('id', [...new Set(ids)]));
        return { deleted: sql.run(`DELETE FROM messages WHERE ${where.sql}`, where.params).changes };
      }),
  };
}
