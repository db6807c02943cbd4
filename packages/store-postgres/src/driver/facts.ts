import {
  conflict,
  type FactDriver,
  type FactRecord,
  type FactStatus,
  nextFactVersion,
  notFound,
  type Scope,
  tenantOf,
} from '@strata-memory/core/store';
import { decodeCursor, encodeCursor, pageOf } from '../sql/cursor.ts';
import { Params } from '../sql/params.ts';
import {
  accessSql,
  exactScopeSql,
  SCOPE_COLUMN_LIST,
  scopeValuesSql,
  visibleByIdSql,
  visibleSql,
  withinSql,
} from '../sql/scope-filter.ts';
import { valueFilterSql } from '../sql/value-filter.ts';
import type { Database } from './database.ts';
import {
  compact,
  int,
  jsonOf,
  metadataOf,
  optionalInt,
  optionalText,
  type ScopeRow,
  scopeOfRow,
} from './rows.ts';

interface FactRow extends ScopeRow {
  id: string;
  entity_type: string;
  entity_id: string;
  key: string;
  value: unknown;
  confidence: number;
  status: FactStatus;
  valid_from: unknown;
  valid_to: unknown;
  version: number;
  supersedes: string | null;
  superseded_by: string | null;
  last_confirmed_at: unknown;
  access_level: number;
  provenance: unknown;
  created_at: unknown;
  metadata: unknown;
}

const COLUMNS = `${SCOPE_COLUMN_LIST}, id, entity_type, entity_id, key, value, confidence, status, valid_from, valid_to,
  version, supersedes, superseded_by, last_confirmed_at, access_level, provenance, created_at, metadata`;

const CURRENT = `status IN ('active', 'stale')`;
const isCurrent = (fact: FactRecord) => fact.status === 'active' || fact.status === 'stale';
/** How specific the row's scope is (levels set), for `history`'s ancestors-first order. */
const DEPTH = `((org_id <> '')::int + (user_id <> '')::int + (agent_id <> '')::int + (thread_id <> '')::int)`;

function factOf(row: FactRow): FactRecord {
  return compact({
    id: row.id,
    scope: scopeOfRow(row),
    entityType: row.entity_type,
    entityId: row.entity_id,
    key: row.key,
    value: jsonOf(row.value),
    confidence: Number(row.confidence),
    status: row.status,
    validFrom: int(row.valid_from),
    validTo: optionalInt(row.valid_to),
    version: Number(row.version),
    supersedes: optionalText(row.supersedes),
    supersededBy: optionalText(row.superseded_by),
    lastConfirmedAt: int(row.last_confirmed_at),
    accessLevel: Number(row.access_level),
    provenance: row.provenance as FactRecord['provenance'],
    createdAt: int(row.created_at),
    metadata: metadataOf(row.metadata),
  });
}

function insertSql(schema: string, fact: FactRecord, p: Params): string {
  return `INSERT INTO ${schema}.facts (${COLUMNS})
    VALUES (${scopeValuesSql(fact.scope, p)}, ${p.add(fact.id)}, ${p.add(fact.entityType)}, ${p.add(fact.entityId)},
      ${p.add(fact.key)}, ${p.json(fact.value)}, ${p.add(fact.confidence)}, ${p.add(fact.status)}, ${p.add(fact.validFrom)},
      ${p.add(fact.validTo ?? null)}, ${p.add(fact.version)}, ${p.add(fact.supersedes ?? null)},
      ${p.add(fact.supersededBy ?? null)}, ${p.add(fact.lastConfirmedAt)}, ${p.add(fact.accessLevel)},
      ${p.json(fact.provenance)}, ${p.add(fact.createdAt)}, ${p.json(fact.metadata)})
    ON CONFLICT DO NOTHING RETURNING id`;
}

export function factDriver(db: Database): FactDriver {
  async function idTaken(schema: string, scope: Scope, id: string): Promise<boolean> {
    const result = await db.query(`SELECT 1 FROM ${schema}.facts WHERE tenant_id = $1 AND id = $2`, [
      tenantOf(scope),
      id,
    ]);
    return result.rowCount > 0;
  }

  async function lockVisible(schema: string, scope: Scope, id: string): Promise<FactRecord> {
    const p = new Params();
    const result = await db.query<FactRow>(
      `SELECT ${COLUMNS} FROM ${schema}.facts WHERE ${visibleByIdSql(scope, id, p)} FOR UPDATE`,
      p.values,
    );
    if (!result.rows[0]) throw notFound('fact', id);
    return factOf(result.rows[0]);
  }

  return {
    async insert({ fact }) {
      const { schema } = await db.names();
      return db.atomic(async () => {
        const keyParams = new Params();
        const keyWhere = `${exactScopeSql(fact.scope, keyParams)} AND entity_type = ${keyParams.add(fact.entityType)}
          AND entity_id = ${keyParams.add(fact.entityId)} AND key = ${keyParams.add(fact.key)}`;
        const highest = await db.query<{ version: number | null }>(
          `SELECT max(version) AS version FROM ${schema}.facts WHERE ${keyWhere}`,
          keyParams.values,
        );
        const record = compact({
          ...fact,
          status: 'active',
          version: (highest.rows[0]?.version ?? 0) + 1,
        }) as FactRecord;
        const p = new Params();
        const inserted = await db.query(insertSql(schema, record, p), p.values);
        if (inserted.rowCount > 0) return record;
        if (await idTaken(schema, fact.scope, fact.id))
          throw conflict(`fact "${fact.id}" already exists`, { id: fact.id });
        // The partial unique index on the current version said no: another version is current
        // (possibly written by a concurrent caller a moment ago).
        const current = await db.query<{ id: string }>(
          `SELECT id FROM ${schema}.facts WHERE ${keyWhere} AND ${CURRENT}`,
          keyParams.values,
        );
        const currentId = current.rows[0]?.id;
        throw conflict(
          `a current fact already exists for ${fact.entityType} "${fact.entityId}" ${fact.key} in this scope: supersede "${currentId}" instead`,
          { currentId },
        );
      });
    },

    async supersede({ scope, id, expectedVersion, next, at }) {
      const { schema } = await db.names();
      return db.atomic(async () => {
        // The row lock makes a second writer wait, then see the version this one wrote: it gets
        // `conflict` instead of silently overwriting (optimistic concurrency, no lost update).
        const previous = await lockVisible(schema, scope, id);
        if (!isCurrent(previous)) {
          throw conflict(`fact "${id}" is no longer current (status ${previous.status})`, {
            id,
            supersededBy: previous.supersededBy,
          });
        }
        if (expectedVersion !== undefined && previous.version !== expectedVersion) {
          throw conflict(`fact "${id}" is at version ${previous.version}, not ${expectedVersion}`, {
            id,
            version: previous.version,
          });
        }
        const ended: FactRecord = { ...previous, status: 'superseded', validTo: at, supersededBy: next.id };
        const end = new Params();
        await db.query(
          `UPDATE ${schema}.facts SET status = 'superseded', valid_to = ${end.add(at)}, superseded_by = ${end.add(next.id)}
            WHERE tenant_id = ${end.add(tenantOf(previous.scope))} AND id = ${end.add(id)}`,
          end.values,
        );
        const current = nextFactVersion(previous, next, at);
        const p = new Params();
        const inserted = await db.query(insertSql(schema, current, p), p.values);
        if (inserted.rowCount === 0) throw conflict(`fact "${next.id}" already exists`, { id: next.id });
        return { previous: ended, current };
      });
    },

    async get({ scope, ids, accessLevel }) {
      const { schema } = await db.names();
      const p = new Params();
      const where = [visibleByIdSql(scope, ids, p), ...accessSql(accessLevel, p)];
      const result = await db.query<FactRow>(
        `SELECT ${COLUMNS} FROM ${schema}.facts WHERE ${where.join(' AND ')}`,
        p.values,
      );
      const byId = new Map(result.rows.map((row) => [row.id, factOf(row)]));
      return [...new Set(ids)].flatMap((id) => byId.get(id) ?? []);
    },

    async find(args) {
      const { scope, within, accessLevel, entityType, entityId, key, where, status, limit, cursor } = args;
      const { schema } = await db.names();
      const p = new Params();
      const confirmed = args.order === 'confirmed';
      const scopeFilter = withinSql(scope, within, p);
      const filters = [scopeFilter, `status = ANY(${p.texts(status)})`, ...accessSql(accessLevel, p)];
      if (entityType !== undefined) filters.push(`entity_type = ${p.add(entityType)}`);
      if (entityId !== undefined) filters.push(`entity_id = ${p.add(entityId)}`);
      if (args.entityIds !== undefined) filters.push(`entity_id = ANY(${p.texts(args.entityIds)})`);
      if (args.entityIdPrefix !== undefined) {
        filters.push(`starts_with(entity_id, ${p.add(args.entityIdPrefix)}::text)`);
      }
      if (key !== undefined) filters.push(`key = ${p.add(key)}`);
      if (args.excludeIds !== undefined && args.excludeIds.length > 0) {
        filters.push(`NOT (id = ANY(${p.texts(args.excludeIds)}))`);
      }
      if (where !== undefined) filters.push(...valueFilterSql('value', where, p));
      if (cursor !== undefined && confirmed) {
        const [at, entity, id] = decodeCursor('facts.confirmed', cursor, ['number', 'string', 'string']);
        const [a, e, i] = [p.add(at), p.add(entity), p.add(id)];
        filters.push(
          `(last_confirmed_at < ${a} OR (last_confirmed_at = ${a} AND (entity_id, id) > (${e}::text, ${i}::text)))`,
        );
      } else if (cursor !== undefined) {
        const [createdAt, id] = decodeCursor('facts', cursor, ['number', 'string']);
        filters.push(`(created_at, id) < (${p.add(createdAt)}, ${p.add(id)})`);
      }
      const orderBy = confirmed ? 'last_confirmed_at DESC, entity_id, id' : 'created_at DESC, id DESC';
      const result = await db.query<FactRow>(
        `SELECT ${COLUMNS} FROM ${schema}.facts WHERE ${filters.join(' AND ')}
          ORDER BY ${orderBy} LIMIT ${p.add(limit + 1)} OFFSET ${p.add(args.offset ?? 0)}`,
        p.values,
      );
      return pageOf(result.rows, limit, factOf, (row) =>
        confirmed
          ? encodeCursor('facts.confirmed', [int(row.last_confirmed_at), row.entity_id, row.id])
          : encodeCursor('facts', [int(row.created_at), row.id]),
      );
    },

    async entityPrefixes({ scope, within, accessLevel, entityType, key, status, separator, limit, cursor }) {
      const { schema } = await db.names();
      const p = new Params();
      const scopeFilter = withinSql(scope, within, p);
      const sep = p.add(separator);
      const filters = [
        scopeFilter,
        `status = ANY(${p.texts(status)})`,
        ...accessSql(accessLevel, p),
        `strpos(entity_id, ${sep}) > 0`,
      ];
      if (entityType !== undefined) filters.push(`entity_type = ${p.add(entityType)}`);
      if (key !== undefined) filters.push(`key = ${p.add(key)}`);
      const after =
        cursor === undefined
          ? ''
          : `WHERE prefix > ${p.add(decodeCursor('facts.entityPrefixes', cursor, ['string'])[0])}::text COLLATE "C"`;
      // The id up to its last separator: `strpos` on the reversed id finds the last one.
      const result = await db.query<{ prefix: string }>(
        `SELECT prefix FROM (
           SELECT DISTINCT left(entity_id, length(entity_id) - strpos(reverse(entity_id), ${sep})) COLLATE "C" AS prefix
             FROM ${schema}.facts WHERE ${filters.join(' AND ')}
         ) AS prefixes ${after}
         ORDER BY prefix LIMIT ${p.add(limit + 1)}`,
        p.values,
      );
      return pageOf(
        result.rows,
        limit,
        (row) => row.prefix,
        (row) => encodeCursor('facts.entityPrefixes', [row.prefix]),
      );
    },

    async history({ scope, accessLevel, entityType, entityId, key }) {
      const { schema } = await db.names();
      const p = new Params();
      const where = [
        visibleSql(scope, p),
        `entity_type = ${p.add(entityType)}`,
        `entity_id = ${p.add(entityId)}`,
        `key = ${p.add(key)}`,
        ...accessSql(accessLevel, p),
      ];
      const result = await db.query<FactRow>(
        `SELECT ${COLUMNS} FROM ${schema}.facts WHERE ${where.join(' AND ')} ORDER BY ${DEPTH}, version, id`,
        p.values,
      );
      return result.rows.map(factOf);
    },

    async update({ scope, id, patch }) {
      const { schema } = await db.names();
      return db.atomic(async () => {
        const fact = await lockVisible(schema, scope, id);
        if (!isCurrent(fact)) {
          throw conflict(`fact "${id}" is ${fact.status}; only a current fact can be updated`, { id });
        }
        const p = new Params();
        const result = await db.query<FactRow>(
          `UPDATE ${schema}.facts
              SET status = COALESCE(${p.add(patch.status ?? null)}, status),
                  last_confirmed_at = COALESCE(${p.add(patch.lastConfirmedAt ?? null)}::bigint, last_confirmed_at),
                  confidence = COALESCE(${p.add(patch.confidence ?? null)}::float8, confidence),
                  metadata = metadata || ${p.json(patch.metadata ?? {})}
            WHERE ${visibleByIdSql(scope, id, p)}
            RETURNING ${COLUMNS}`,
          p.values,
        );
        return factOf(result.rows[0]!);
      });
    },

    async restore({ facts }) {
      const { schema } = await db.names();
      return db.atomic(async () => {
        for (const fact of facts) {
          if (await idTaken(schema, fact.scope, fact.id))
            throw conflict(`fact "${fact.id}" already exists`, { id: fact.id });
          const p = new Params();
          const inserted = await db.query(insertSql(schema, fact, p), p.values);
          if (inserted.rowCount === 0) {
            throw conflict(
              `${fact.entityType} "${fact.entityId}" ${fact.key} already has version ${fact.version} or a current version`,
              { id: fact.id, version: fact.version },
            );
          }
        }
        return { restored: facts.length };
      });
    },

    async delete({ scope, ids }) {
      const { schema } = await db.names();
      const p = new Params();
      const result = await db.query(
        `DELETE FROM ${schema}.facts WHERE ${visibleByIdSql(scope, ids, p)}`,
        p.values,
      );
      return { deleted: result.rowCount };
    },
  };
}
