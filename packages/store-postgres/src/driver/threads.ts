import {
  conflict,
  type MessageRecord,
  notFound,
  type ThreadDriver,
  type ThreadRecord,
} from '@strata-memory/core/store';
import { encodeCursor, pageOf } from '../sql/cursor.ts';
import { Params } from '../sql/params.ts';
import { exactScopeSql, SCOPE_COLUMN_LIST, scopeValuesSql } from '../sql/scope-filter.ts';
import type { Database } from './database.ts';
import { compact, int, metadataOf, optionalInt, optionalText, type ScopeRow, scopeOfRow } from './rows.ts';
import { findMessagesSql, threadListing, threadListSql } from './thread-queries.ts';

interface ThreadRow extends ScopeRow {
  title: string | null;
  metadata: unknown;
  summary: string | null;
  summarized_through_seq: unknown;
  next_seq: unknown;
  created_at: unknown;
  updated_at: unknown;
}

interface MessageRow extends ScopeRow {
  seq: unknown;
  id: string;
  role: MessageRecord['role'];
  content: string;
  name: string | null;
  tool_calls: unknown;
  tool_call_id: string | null;
  created_at: unknown;
  metadata: unknown;
}

function threadOf(row: ThreadRow): ThreadRecord {
  return compact({
    scope: scopeOfRow(row),
    title: optionalText(row.title),
    metadata: metadataOf(row.metadata),
    summary: optionalText(row.summary),
    summarizedThroughSeq: optionalInt(row.summarized_through_seq),
    createdAt: int(row.created_at),
    updatedAt: int(row.updated_at),
  });
}

function messageOf(row: MessageRow): MessageRecord {
  return compact({
    id: row.id,
    scope: scopeOfRow(row),
    seq: int(row.seq),
    role: row.role,
    content: row.content,
    name: optionalText(row.name),
    toolCalls: (row.tool_calls ?? undefined) as MessageRecord['toolCalls'],
    toolCallId: optionalText(row.tool_call_id),
    createdAt: int(row.created_at),
    metadata: metadataOf(row.metadata),
  });
}

export function threadDriver(db: Database): ThreadDriver {
  return {
    async upsert({ scope, title, metadata, at }) {
      const { schema } = await db.names();
      const p = new Params();
      const result = await db.query<ThreadRow>(
        `INSERT INTO ${schema}.threads AS t (${SCOPE_COLUMN_LIST}, title, metadata, created_at, updated_at)
         VALUES (${scopeValuesSql(scope, p)}, ${p.add(title ?? null)}, ${p.json(metadata ?? {})}, ${p.add(at)}, ${p.add(at)})
         ON CONFLICT (${SCOPE_COLUMN_LIST}) DO UPDATE
            SET title = COALESCE(EXCLUDED.title, t.title),
                metadata = t.metadata || EXCLUDED.metadata,
                updated_at = EXCLUDED.updated_at
         RETURNING *`,
        p.values,
      );
      return threadOf(result.rows[0]!);
    },

    async get({ scope }) {
      const { schema } = await db.names();
      const p = new Params();
      const result = await db.query<ThreadRow>(
        `SELECT * FROM ${schema}.threads WHERE ${exactScopeSql(scope, p)}`,
        p.values,
      );
      return result.rows[0] ? threadOf(result.rows[0]) : null;
    },

    async lookup({ threadId }) {
      const { schema } = await db.names();
      const result = await db.query<ThreadRow>(
        `SELECT * FROM ${schema}.threads WHERE thread_id = $1 ORDER BY org_id, user_id, agent_id, thread_id`,
        [threadId],
      );
      return result.rows.map(threadOf);
    },

    // The count reuses the filter's SQL with its parameters, the first ones of the page query.
    async list(args) {
      const { schema } = await db.names();
      const p = new Params();
      const { filter, filterParams, query } = threadListSql(schema, args, p);
      const result = await db.query<ThreadRow>(query, p.values);
      const field = args.order.field === 'createdAt' ? 'created_at' : 'updated_at';
      const page = pageOf(result.rows, args.limit, threadOf, (row) =>
        encodeCursor(threadListing(args.order), [
          int(row[field]),
          row.org_id,
          row.user_id,
          row.agent_id,
          row.thread_id,
        ]),
      );
      if (!args.withTotal) return page;
      const count = await db.query<{ total: unknown }>(
        `SELECT count(*) AS total FROM ${schema}.threads WHERE ${filter}`,
        p.values.slice(0, filterParams),
      );
      return { ...page, total: int(count.rows[0]!.total) };
    },

    async update({ scope, patch, at }) {
      const { schema } = await db.names();
      const p = new Params();
      const result = await db.query<ThreadRow>(
        `UPDATE ${schema}.threads
            SET updated_at = ${p.add(at)},
                title = COALESCE(${p.add(patch.title ?? null)}, title),
                metadata = metadata || ${p.json(patch.metadata ?? {})},
                summary = COALESCE(${p.add(patch.summary ?? null)}, summary),
                summarized_through_seq = COALESCE(${p.add(patch.summarizedThroughSeq ?? null)}::bigint, summarized_through_seq)
          WHERE ${exactScopeSql(scope, p)}
          RETURNING *`,
        p.values,
      );
      if (!result.rows[0]) throw notFound('thread', scope.threadId!);
      return threadOf(result.rows[0]);
    },

    async delete({ scope }) {
      const { schema } = await db.names();
      return db.atomic(async () => {
        const p = new Params();
        const where = exactScopeSql(scope, p);
        await db.query(`DELETE FROM ${schema}.messages WHERE ${where}`, p.values);
        const result = await db.query(`DELETE FROM ${schema}.threads WHERE ${where}`, p.values);
        return { deleted: result.rowCount > 0 };
      });
    },

    async appendMessages({ scope, messages }) {
      const { schema } = await db.names();
      return db.atomic(async () => {
        const first = messages[0]!;
        const create = new Params();
        await db.query(
          `INSERT INTO ${schema}.threads (${SCOPE_COLUMN_LIST}, metadata, created_at, updated_at)
           VALUES (${scopeValuesSql(scope, create)}, '{}'::jsonb, ${create.add(first.createdAt)}, ${create.add(first.createdAt)})
           ON CONFLICT DO NOTHING`,
          create.values,
        );
        // The row lock orders concurrent appends to one thread, so `seq` has no gaps or repeats.
        const lock = new Params();
        const thread = await db.query<ThreadRow>(
          `SELECT * FROM ${schema}.threads WHERE ${exactScopeSql(scope, lock)} FOR UPDATE`,
          lock.values,
        );
        let nextSeq = int(thread.rows[0]!.next_seq);
        let updatedAt = int(thread.rows[0]!.updated_at);

        const lookup = new Params();
        const stored = await db.query<MessageRow>(
          `SELECT * FROM ${schema}.messages WHERE ${exactScopeSql(scope, lookup)} AND id = ANY(${lookup.texts(messages.map((m) => m.id))})`,
          lookup.values,
        );
        const byId = new Map(stored.rows.map((row) => [row.id, messageOf(row)]));

        const out: MessageRecord[] = [];
        const insert = new Params();
        const rows: string[] = [];
        for (const message of messages) {
          const existing = byId.get(message.id);
          if (existing) {
            out.push(existing);
            continue;
          }
          const record: MessageRecord = compact({ ...message, scope, seq: nextSeq });
          byId.set(message.id, record);
          out.push(record);
          rows.push(
            `(${scopeValuesSql(scope, insert)}, ${insert.add(nextSeq)}, ${insert.add(message.id)}, ${insert.add(message.role)},
              ${insert.add(message.content)}, ${insert.add(message.name ?? null)},
              ${message.toolCalls === undefined ? 'NULL' : insert.json(message.toolCalls)},
              ${insert.add(message.toolCallId ?? null)}, ${insert.add(message.createdAt)}, ${insert.json(message.metadata)})`,
          );
          nextSeq += 1;
          updatedAt = Math.max(updatedAt, message.createdAt);
        }
        if (rows.length > 0) {
          await db.query(
            `INSERT INTO ${schema}.messages
               (${SCOPE_COLUMN_LIST}, seq, id, role, content, name, tool_calls, tool_call_id, created_at, metadata)
             VALUES ${rows.join(', ')}`,
            insert.values,
          );
          const update = new Params();
          await db.query(
            `UPDATE ${schema}.threads SET next_seq = ${update.add(nextSeq)}, updated_at = ${update.add(updatedAt)}
              WHERE ${exactScopeSql(scope, update)}`,
            update.values,
          );
        }
        return out;
      });
    },

    async restore({ thread, messages }) {
      const { schema } = await db.names();
      const scope = thread.scope;
      return db.atomic(async () => {
        if (messages.length > 0) {
          const check = new Params();
          const clash = await db.query<{ id: string; seq: unknown }>(
            `SELECT id, seq FROM ${schema}.messages WHERE ${exactScopeSql(scope, check)}
               AND (id = ANY(${check.texts(messages.map((m) => m.id))}) OR seq = ANY(${check.add(messages.map((m) => m.seq))}::bigint[]))
             LIMIT 1`,
            check.values,
          );
          const taken = clash.rows[0];
          if (taken) {
            throw conflict(`message "${taken.id}" (seq ${int(taken.seq)}) is already in the thread`, {
              id: taken.id,
              seq: int(taken.seq),
            });
          }
        }
        const nextSeq = Math.max(0, ...messages.map((m) => m.seq)) + 1;
        const p = new Params();
        const result = await db.query<ThreadRow>(
          `INSERT INTO ${schema}.threads AS t
             (${SCOPE_COLUMN_LIST}, title, metadata, summary, summarized_through_seq, next_seq, created_at, updated_at)
           VALUES (${scopeValuesSql(scope, p)}, ${p.add(thread.title ?? null)}, ${p.json(thread.metadata)},
             ${p.add(thread.summary ?? null)}, ${p.add(thread.summarizedThroughSeq ?? null)}, ${p.add(nextSeq)},
             ${p.add(thread.createdAt)}, ${p.add(thread.updatedAt)})
           ON CONFLICT (${SCOPE_COLUMN_LIST}) DO UPDATE SET title = excluded.title, metadata = excluded.metadata,
             summary = excluded.summary, summarized_through_seq = excluded.summarized_through_seq,
             next_seq = GREATEST(t.next_seq, excluded.next_seq), created_at = excluded.created_at,
             updated_at = excluded.updated_at
           RETURNING *`,
          p.values,
        );
        if (messages.length > 0) {
          const insert = new Params();
          const rows = messages.map(
            (message) =>
              `(${scopeValuesSql(scope, insert)}, ${insert.add(message.seq)}, ${insert.add(message.id)}, ${insert.add(message.role)},
                ${insert.add(message.content)}, ${insert.add(message.name ?? null)},
                ${message.toolCalls === undefined ? 'NULL' : insert.json(message.toolCalls)},
                ${insert.add(message.toolCallId ?? null)}, ${insert.add(message.createdAt)}, ${insert.json(message.metadata)})`,
          );
          await db.query(
            `INSERT INTO ${schema}.messages
               (${SCOPE_COLUMN_LIST}, seq, id, role, content, name, tool_calls, tool_call_id, created_at, metadata)
             VALUES ${rows.join(', ')}`,
            insert.values,
          );
        }
        return { thread: threadOf(result.rows[0]!), messages: messages.length };
      });
    },

    async listMessages({ scope, limit, order, afterSeq, beforeSeq }) {
      const { schema } = await db.names();
      const p = new Params();
      const where = [exactScopeSql(scope, p)];
      if (afterSeq !== undefined) where.push(`seq > ${p.add(afterSeq)}`);
      if (beforeSeq !== undefined) where.push(`seq < ${p.add(beforeSeq)}`);
      const direction = order === 'asc' ? 'ASC' : 'DESC';
      const result = await db.query<MessageRow>(
        `SELECT * FROM ${schema}.messages WHERE ${where.join(' AND ')} ORDER BY seq ${direction} LIMIT ${p.add(limit)}`,
        p.values,
      );
      return result.rows.map(messageOf);
    },

    async findMessages(args) {
      const { schema } = await db.names();
      const p = new Params();
      const { filter, filterParams, query } = findMessagesSql(schema, args, p);
      const result = await db.query<MessageRow>(query, p.values);
      const items = result.rows.map(messageOf);
      if (!args.withTotal) return { items };
      const count = await db.query<{ total: unknown }>(
        `SELECT count(*) AS total FROM ${schema}.messages WHERE ${filter}`,
        p.values.slice(0, filterParams),
      );
      return { items, total: int(count.rows[0]!.total) };
    },

    async getMessages({ scope, ids }) {
      const { schema } = await db.names();
      const p = new Params();
      const result = await db.query<MessageRow>(
        `SELECT * FROM ${schema}.messages WHERE ${exactScopeSql(scope, p)} AND id = ANY(${p.texts(ids)})`,
        p.values,
      );
      const byId = new Map(result.rows.map((row) => [row.id, messageOf(row)]));
      return [...new Set(ids)].flatMap((id) => byId.get(id) ?? []);
    },

    async deleteMessages({ scope, ids }) {
      const { schema } = await db.names();
      const p = new Params();
      const result = await db.query(
        `DELETE FROM ${schema}.messages WHERE ${exactScopeSql(scope, p)} AND id = ANY(${p.texts(ids)})`,
        p.values,
      );
      return { deleted: result.rowCount };
    },
  };
}
