import {
  conflict,
  type FactDriver,
  type FactRecord,
  type JsonValue,
  type Metadata,
  nextFactVersion,
  notFound,
  type Provenance,
  type Scope,
  scopeColumns,
} from '@strata-memory/core/store';
import type { Runner } from '../database/session.ts';
import type { Statements } from '../database/statements.ts';
import { type PageQuery, pageClauses, type SortColumn, toPage } from '../sql/cursor.ts';
import { fromJson, optional, setIfPresent, toJson } from '../sql/json-columns.ts';
import {
  allOf,
  type Clause,
  exactScopeClause,
  inClause,
  type ScopeRow,
  scopeOfRow,
  visibleClause,
  withinClause,
} from '../sql/scope-sql.ts';
import { valueFilterClause } from '../sql/value-filter-sql.ts';

interface FactRow extends ScopeRow {
  id: string;
  entity_type: string;
  entity_id: string;
  key: string;
  value: string;
  confidence: number;
  status: FactRecord['status'];
  valid_from: number;
  valid_to: number | null;
  version: number;
  supersedes: string | null;
  superseded_by: string | null;
  last_confirmed_at: number;
  access_level: number;
  provenance: string;
  created_at: number;
  metadata: string;
}

function toFact(row: FactRow): FactRecord {
  const record: FactRecord = {
    id: row.id,
    scope: scopeOfRow(row),
    entityType: row.entity_type,
    entityId: row.entity_id,
    key: row.key,
    value: fromJson<JsonValue>(row.value),
    confidence: row.confidence,
    status: row.status,
    validFrom: row.valid_from,
    version: row.version,
    lastConfirmedAt: row.last_confirmed_at,
    accessLevel: row.access_level,
    provenance: fromJson<Provenance>(row.provenance),
    createdAt: row.created_at,
    metadata: fromJson<Metadata>(row.metadata),
  };
  setIfPresent(record, 'validTo', row.valid_to);
  setIfPresent(record, 'supersedes', row.supersedes);
  setIfPresent(record, 'supersededBy', row.superseded_by);
  return record;
}

/**
 * The condition of the `facts_current` partial index, as written there: SQLite uses a partial index
 * only for a query whose WHERE states its condition, which a bound `status IN (?, ?)` does not.
 */
const CURRENT = "status IN ('active', 'stale')";
const isCurrent = (row: FactRow) => row.status === 'active' || row.status === 'stale';

/** Ancestors first: the number of scope levels a row sets. */
const SCOPE_DEPTH = "((org_id != '') + (user_id != '') + (agent_id != '') + (thread_id != ''))";

const FIND_ORDER: SortColumn[] = [
  { expr: 'created_at', direction: 'desc' },
  { expr: 'id', direction: 'desc' },
];

/**
 * The same order for a find pinned to entity ids, which matches a handful of rows: `+` keeps the
 * planner from walking the scope's `facts_by_scope` entries in order to spare that sort (its
 * choice before it has statistics, when it cannot tell a scope's size), so it looks the ids up.
 */
const PINNED_FIND_ORDER: SortColumn[] = FIND_ORDER.map((c) => ({ ...c, expr: `+${c.expr}` }));

/** `order: 'confirmed'`, which the `facts_by_confirmed` index serves for one exact scope. */
const CONFIRMED_ORDER: SortColumn[] = [
  { expr: 'last_confirmed_at', direction: 'desc' },
  { expr: 'entity_id', direction: 'asc' },
  { expr: 'id', direction: 'asc' },
];

function insertFact(sql: Statements, record: FactRecord): void {
  const c = scopeColumns(record.scope);
  sql.run(
    `INSERT INTO facts (id, tenant, org_id, user_id, agent_id, thread_id, entity_type, entity_id, key, value,
       confidence, status, valid_from, valid_to, version, supersedes, superseded_by, last_confirmed_at,
       access_level, provenance, created_at, metadata)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      record.id,
      c.tenant,
      c.org,
      c.user,
      c.agent,
      c.thread,
      record.entityType,
      record.entityId,
      record.key,
      toJson(record.value),
      record.confidence,
      record.status,
      record.validFrom,
      optional(record.validTo),
      record.version,
      optional(record.supersedes),
      optional(record.supersededBy),
      record.lastConfirmedAt,
      record.accessLevel,
      toJson(record.provenance),
      record.createdAt,
      toJson(record.metadata),
    ],
  );
}

/** The SELECT of one `facts.find` page: every filter, the order and the page in the query. */
export function findQuery(args: Parameters<FactDriver['find']>[0]): {
  page: PageQuery;
  query: Clause;
  confirmed: boolean;
} {
  const { scope, within, accessLevel, entityType, entityId, key, where, status, limit, cursor } = args;
  const confirmed = args.order === 'confirmed';
  const pinned = entityId !== undefined || args.entityIds !== undefined;
  const page: PageQuery = {
    listing: confirmed ? 'facts.confirmed' : 'facts',
    columns: confirmed ? CONFIRMED_ORDER : pinned ? PINNED_FIND_ORDER : FIND_ORDER,
    limit,
    ...(cursor === undefined ? {} : { cursor }),
  };
  const { after, orderBy, limit: take } = pageClauses(page);
  // Current facts not pinned to entity ids (a recall's facts) come off `facts_current` alone; a new
  // file has no planner statistics to tell it from `facts_by_entity`, which holds every version.
  const current = status?.every((s) => s === 'active' || s === 'stale') ?? false;
  const plain = !pinned && !confirmed && (where?.length ?? 0) === 0 && (args.excludeIds?.length ?? 0) === 0;
  const table = current && plain ? 'facts INDEXED BY facts_current' : 'facts';
  const prefix = args.entityIdPrefix;
  const filter = allOf(
    withinClause(scope, within),
    accessLevel === undefined ? undefined : { sql: 'access_level <= ?', params: [accessLevel] },
    inClause('status', status),
    current ? { sql: CURRENT, params: [] } : undefined,
    entityType === undefined ? undefined : { sql: 'entity_type = ?', params: [entityType] },
    entityId === undefined ? undefined : { sql: 'entity_id = ?', params: [entityId] },
    args.entityIds === undefined ? undefined : inClause('entity_id', args.entityIds),
    // Not LIKE, whose `%` and `_` and case folding would change what a prefix means; and no range
    // on entity_id, which would make the planner prefer a key index and sort every match.
    prefix === undefined
      ? undefined
      : { sql: 'substr(entity_id, 1, length(?)) = ?', params: [prefix, prefix] },
    key === undefined ? undefined : { sql: 'key = ?', params: [key] },
    args.excludeIds === undefined || args.excludeIds.length === 0
      ? undefined
      : { sql: `NOT (${inClause('id', args.excludeIds).sql})`, params: args.excludeIds },
    where === undefined || where.length === 0 ? undefined : valueFilterClause('facts.value', where),
    after,
  );
  return {
    page,
    confirmed,
    query: {
      sql: `SELECT * FROM ${table} WHERE ${filter.sql} ORDER BY ${orderBy} LIMIT ? OFFSET ?`,
      params: [...filter.params, take, args.offset ?? 0],
    },
  };
}

/** Versioned facts: one current version per (exact scope, entity type, entity id, key). */
export function factDriver(sql: Statements, run: Runner): FactDriver {
  const assertNewId = (id: string) => {
    if (sql.get('SELECT 1 AS found FROM facts WHERE id = ?', [id]))
      throw conflict(`fact "${id}" already exists`, { id });
  };

  const visibleFact = (scope: Scope, id: string): FactRow => {
    const where = allOf(visibleClause(scope), { sql: 'id = ?', params: [id] });
    const row = sql.get<FactRow>(`SELECT * FROM facts WHERE ${where.sql}`, where.params);
    if (!row) throw notFound('fact', id);
    return row;
  };

  const keyClause = (f: { scope: Scope; entityType: string; entityId: string; key: string }): Clause =>
    allOf(exactScopeClause(f.scope), {
      sql: 'entity_type = ? AND entity_id = ? AND key = ?',
      params: [f.entityType, f.entityId, f.key],
    });

  const readable = (scope: Scope, accessLevel: number | undefined): Clause =>
    allOf(
      visibleClause(scope),
      accessLevel === undefined ? undefined : { sql: 'access_level <= ?', params: [accessLevel] },
    );

  return {
    insert: ({ fact }) =>
      run.write(() => {
        assertNewId(fact.id);
        const key = keyClause(fact);
        const current = sql.get<{ id: string }>(
          `SELECT id FROM facts WHERE ${key.sql} AND ${CURRENT}`,
          key.params,
        );
        if (current) {
          throw conflict(
            `a current fact already exists for ${fact.entityType} "${fact.entityId}" ${fact.key} in this scope: supersede "${current.id}" instead`,
            { currentId: current.id },
          );
        }
        const highest = sql.get<{ v: number | null }>(
          `SELECT max(version) AS v FROM facts WHERE ${key.sql}`,
          key.params,
        );
        const record: FactRecord = {
          id: fact.id,
          scope: fact.scope,
          entityType: fact.entityType,
          entityId: fact.entityId,
          key: fact.key,
          value: fact.value,
          confidence: fact.confidence,
          status: 'active',
          validFrom: fact.validFrom,
          version: (highest?.v ?? 0) + 1,
          lastConfirmedAt: fact.lastConfirmedAt,
          accessLevel: fact.accessLevel,
          provenance: fact.provenance,
          createdAt: fact.createdAt,
          metadata: fact.metadata,
        };
        insertFact(sql, record);
        return record;
      }),

    supersede: ({ scope, id, expectedVersion, next, at }) =>
      run.write(() => {
        const previous = visibleFact(scope, id);
        if (!isCurrent(previous)) {
          throw conflict(`fact "${id}" is no longer current (status ${previous.status})`, {
            id,
            supersededBy: previous.superseded_by ?? undefined,
          });
        }
        if (expectedVersion !== undefined && previous.version !== expectedVersion) {
          throw conflict(`fact "${id}" is at version ${previous.version}, not ${expectedVersion}`, {
            id,
            version: previous.version,
          });
        }
        assertNewId(next.id);
        sql.run("UPDATE facts SET status = 'superseded', valid_to = ?, superseded_by = ? WHERE id = ?", [
          at,
          next.id,
          id,
        ]);
        const ended = toFact({ ...previous, status: 'superseded', valid_to: at, superseded_by: next.id });
        const current = nextFactVersion(ended, next, at);
        insertFact(sql, current);
        return { previous: ended, current };
      }),

    get: ({ scope, ids, accessLevel }) =>
      run.read(() => {
        const unique = [...new Set(ids)];
        if (unique.length === 0) return [];
        const where = allOf(readable(scope, accessLevel), inClause('id', unique));
        const byId = new Map(
          sql.all<FactRow>(`SELECT * FROM facts WHERE ${where.sql}`, where.params).map((r) => [r.id, r]),
        );
        return unique.flatMap((id) => {
          const row = byId.get(id);
          return row ? [toFact(row)] : [];
        });
      }),

    find: (args) =>
      run.read(() => {
        const { page, query, confirmed } = findQuery(args);
        const rows = sql.all<FactRow>(query.sql, query.params);
        return toPage(
          page,
          rows,
          (r) => (confirmed ? [r.last_confirmed_at, r.entity_id, r.id] : [r.created_at, r.id]),
          toFact,
        );
      }),

    entityPrefixes: ({ scope, within, accessLevel, entityType, key, status, separator, limit, cursor }) =>
      run.read(() => {
        const page: PageQuery = {
          listing: 'facts.entityPrefixes',
          columns: [{ expr: 'prefix', direction: 'asc' }],
          limit,
          ...(cursor === undefined ? {} : { cursor }),
        };
        const { after, limit: take } = pageClauses(page);
        const filter = allOf(
          withinClause(scope, within),
          accessLevel === undefined ? undefined : { sql: 'access_level <= ?', params: [accessLevel] },
          inClause('status', status),
          entityType === undefined ? undefined : { sql: 'entity_type = ?', params: [entityType] },
          key === undefined ? undefined : { sql: 'key = ?', params: [key] },
          { sql: 'instr(entity_id, ?) > 0', params: [separator] },
        );
        // rtrim drops the characters after the last separator (every character of the id but the
        // separator is in its set); substr then drops the separator itself.
        const rows = sql.all<{ prefix: string }>(
          `SELECT DISTINCT substr(head, 1, length(head) - 1) AS prefix
             FROM (SELECT rtrim(entity_id, replace(entity_id, ?, '')) AS head FROM facts WHERE ${filter.sql})
            WHERE ${after?.sql ?? '1'} ORDER BY prefix LIMIT ?`,
          [separator, ...filter.params, ...(after?.params ?? []), take],
        );
        return toPage(
          page,
          rows,
          (r) => [r.prefix],
          (r) => r.prefix,
        );
      }),

    history: ({ scope, accessLevel, entityType, entityId, key }) =>
      run.read(() => {
        const where = allOf(readable(scope, accessLevel), {
          sql: 'entity_type = ? AND entity_id = ? AND key = ?',
          params: [entityType, entityId, key],
        });
        return sql
          .all<FactRow>(
            `SELECT * FROM facts WHERE ${where.sql} ORDER BY ${SCOPE_DEPTH}, version, id`,
            where.params,
          )
          .map(toFact);
      }),

    update: ({ scope, id, patch }) =>
      run.write(() => {
        const row = visibleFact(scope, id);
        if (!isCurrent(row))
          throw conflict(`fact "${id}" is ${row.status}; only a current fact can be updated`, { id });
        const next: FactRow = {
          ...row,
          status: patch.status ?? row.status,
          last_confirmed_at: patch.lastConfirmedAt ?? row.last_confirmed_at,
          confidence: patch.confidence ?? row.confidence,
          metadata:
            patch.metadata === undefined
              ? row.metadata
              : toJson({ ...fromJson<Metadata>(row.metadata), ...patch.metadata }),
        };
        sql.run(
          'UPDATE facts SET status = ?, last_confirmed_at = ?, confidence = ?, metadata = ? WHERE id = ?',
          [next.status, next.last_confirmed_at, next.confidence, next.metadata, id],
        );
        return toFact(next);
      }),

    restore: ({ facts }) =>
      run.write(() => {
        for (const fact of facts) {
          assertNewId(fact.id);
          const key = keyClause(fact);
          const clash = sql.get<{ id: string; version: number }>(
            `SELECT id, version FROM facts WHERE ${key.sql} AND (version = ?${fact.status === 'active' || fact.status === 'stale' ? ` OR ${CURRENT}` : ''})`,
            [...key.params, fact.version],
          );
          if (clash) {
            throw conflict(
              `${fact.entityType} "${fact.entityId}" ${fact.key} already has ${clash.version === fact.version ? `version ${fact.version}` : 'a current version'}`,
              { id: fact.id, clashesWith: clash.id },
            );
          }
          insertFact(sql, fact);
        }
        return { restored: facts.length };
      }),

    delete: ({ scope, ids }) =>
      run.write(() => {
        const unique = [...new Set(ids)];
        if (unique.length === 0) return { deleted: 0 };
        const where = allOf(visibleClause(scope), inClause('id', unique));
        return { deleted: sql.run(`DELETE FROM facts WHERE ${where.sql}`, where.params).changes };
      }),
  };
}
