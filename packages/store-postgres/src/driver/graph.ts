import {
  conflict,
  type EdgeRecord,
  type GraphDriver,
  type GraphItemStatus,
  type NodeRecord,
  normalizeName,
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
} from '../sql/scope-filter.ts';
import type { Database } from './database.ts';
import { traverseGraph } from './graph-traversal.ts';
import { compact, int, metadataOf, optionalInt, type ScopeRow, scopeOfRow } from './rows.ts';

export interface NodeRow extends ScopeRow {
  id: string;
  type: string;
  name: string;
  aliases: unknown;
  properties: unknown;
  status: GraphItemStatus;
  access_level: number;
  provenance: unknown;
  created_at: unknown;
  updated_at: unknown;
}

export interface EdgeRow extends ScopeRow {
  id: string;
  from_id: string;
  to_id: string;
  relation: string;
  properties: unknown;
  confidence: number;
  status: GraphItemStatus;
  valid_from: unknown;
  valid_to: unknown;
  access_level: number;
  provenance: unknown;
  created_at: unknown;
}

export const NODE_COLUMNS = `${SCOPE_COLUMN_LIST}, id, type, name, aliases, properties, status, access_level,
  provenance, created_at, updated_at`;
export const EDGE_COLUMNS = `${SCOPE_COLUMN_LIST}, id, from_id, to_id, relation, properties, confidence, status,
  valid_from, valid_to, access_level, provenance, created_at`;

export function nodeOf(row: NodeRow): NodeRecord {
  return {
    id: row.id,
    scope: scopeOfRow(row),
    type: row.type,
    name: row.name,
    aliases: (row.aliases ?? []) as string[],
    properties: metadataOf(row.properties),
    status: row.status,
    accessLevel: Number(row.access_level),
    provenance: row.provenance as NodeRecord['provenance'],
    createdAt: int(row.created_at),
    updatedAt: int(row.updated_at),
  };
}

export function edgeOf(row: EdgeRow): EdgeRecord {
  return compact({
    id: row.id,
    scope: scopeOfRow(row),
    from: row.from_id,
    to: row.to_id,
    relation: row.relation,
    properties: metadataOf(row.properties),
    confidence: Number(row.confidence),
    status: row.status,
    validFrom: int(row.valid_from),
    validTo: optionalInt(row.valid_to),
    accessLevel: Number(row.access_level),
    provenance: row.provenance as EdgeRecord['provenance'],
    createdAt: int(row.created_at),
  });
}

/** `existing` plus each of `added` whose normalised form is new and is not the node's name. */
function mergeAliases(name: string, existing: readonly string[], added: readonly string[]): string[] {
  const seen = new Set([normalizeName(name)]);
  const out: string[] = [];
  for (const alias of [...existing, ...added]) {
    const normal = normalizeName(alias);
    if (normal === '' || seen.has(normal)) continue;
    seen.add(normal);
    out.push(alias);
  }
  return out;
}

/** Every normalised name a node answers to in `findNodes`. */
function nameKeys(name: string, aliases: readonly string[]): string[] {
  return [...new Set([name, ...aliases].map(normalizeName))];
}

function listingCursor(listing: string, cursor: string | undefined, p: Params): string[] {
  if (cursor === undefined) return [];
  const [createdAt, id] = decodeCursor(listing, cursor, ['number', 'string']);
  return [`(created_at, id) > (${p.add(createdAt)}, ${p.add(id)})`];
}

export function graphDriver(db: Database): GraphDriver {
  async function visibleRow<R>(table: 'nodes' | 'edges', columns: string, scope: Scope, id: string) {
    const { schema } = await db.names();
    const p = new Params();
    const result = await db.query<R>(
      `SELECT ${columns} FROM ${schema}.${table} WHERE ${visibleByIdSql(scope, id, p)} FOR UPDATE`,
      p.values,
    );
    return result.rows[0];
  }

  return {
    async upsertNode({ node }) {
      const { schema } = await db.names();
      return db.atomic(async () => {
        const key = normalizeName(node.name);
        const find = new Params();
        const findSql = `SELECT ${NODE_COLUMNS} FROM ${schema}.nodes
          WHERE ${exactScopeSql(node.scope, find)} AND type = ${find.add(node.type)} AND name_key = ${find.add(key)}
          FOR UPDATE`;
        let existing = (await db.query<NodeRow>(findSql, find.values)).rows[0];
        if (!existing) {
          const aliases = mergeAliases(node.name, [], node.aliases);
          const p = new Params();
          const inserted = await db.query<NodeRow>(
            `INSERT INTO ${schema}.nodes (${NODE_COLUMNS}, name_key, name_keys)
             VALUES (${scopeValuesSql(node.scope, p)}, ${p.add(node.id)}, ${p.add(node.type)}, ${p.add(node.name)},
               ${p.json(aliases)}, ${p.json(node.properties)}, 'active', ${p.add(node.accessLevel)},
               ${p.json(node.provenance)}, ${p.add(node.at)}, ${p.add(node.at)}, ${p.add(key)},
               ${p.texts(nameKeys(node.name, aliases))})
             ON CONFLICT DO NOTHING RETURNING ${NODE_COLUMNS}`,
            p.values,
          );
          if (inserted.rows[0]) return nodeOf(inserted.rows[0]);
          // Either a concurrent writer created the same node a moment ago, or the id is taken.
          existing = (await db.query<NodeRow>(findSql, find.values)).rows[0];
          if (!existing) throw conflict(`node "${node.id}" already exists`, { id: node.id });
        }
        const current = nodeOf(existing);
        const aliases = mergeAliases(current.name, current.aliases, node.aliases);
        const p = new Params();
        const updated = await db.query<NodeRow>(
          `UPDATE ${schema}.nodes
              SET aliases = ${p.json(aliases)}, name_keys = ${p.texts(nameKeys(current.name, aliases))},
                  properties = properties || ${p.json(node.properties)}, status = 'active',
                  updated_at = ${p.add(node.at)}
            WHERE tenant_id = ${p.add(tenantOf(node.scope))} AND id = ${p.add(current.id)}
            RETURNING ${NODE_COLUMNS}`,
          p.values,
        );
        return nodeOf(updated.rows[0]!);
      });
    },

    async getNodes({ scope, ids, accessLevel }) {
      const { schema } = await db.names();
      const p = new Params();
      const where = [visibleByIdSql(scope, ids, p), ...accessSql(accessLevel, p)];
      const result = await db.query<NodeRow>(
        `SELECT ${NODE_COLUMNS} FROM ${schema}.nodes WHERE ${where.join(' AND ')}`,
        p.values,
      );
      const byId = new Map(result.rows.map((row) => [row.id, nodeOf(row)]));
      return [...new Set(ids)].flatMap((id) => byId.get(id) ?? []);
    },

    async findNodes({ scope, accessLevel, names, types, status }) {
      const keys = [...new Set(names.map(normalizeName))];
      if (keys.length === 0) return [];
      const { schema } = await db.names();
      const p = new Params();
      const where = [
        visibleSql(scope, p),
        `name_keys && ${p.texts(keys)}`,
        `status = ANY(${p.texts(status)})`,
        ...accessSql(accessLevel, p),
      ];
      if (types) where.push(`type = ANY(${p.texts(types)})`);
      const result = await db.query<NodeRow>(
        `SELECT ${NODE_COLUMNS} FROM ${schema}.nodes WHERE ${where.join(' AND ')} ORDER BY created_at, id`,
        p.values,
      );
      return result.rows.map(nodeOf);
    },

    async listNodes({ scope, accessLevel, types, status, limit, cursor }) {
      const { schema } = await db.names();
      const p = new Params();
      const where = [visibleSql(scope, p), `status = ANY(${p.texts(status)})`, ...accessSql(accessLevel, p)];
      if (types) where.push(`type = ANY(${p.texts(types)})`);
      where.push(...listingCursor('nodes', cursor, p));
      const result = await db.query<NodeRow>(
        `SELECT ${NODE_COLUMNS} FROM ${schema}.nodes WHERE ${where.join(' AND ')}
          ORDER BY created_at, id LIMIT ${p.add(limit + 1)}`,
        p.values,
      );
      return pageOf(result.rows, limit, nodeOf, (row) =>
        encodeCursor('nodes', [int(row.created_at), row.id]),
      );
    },

    async updateNode({ scope, id, patch, at }) {
      const { schema } = await db.names();
      return db.atomic(async () => {
        const row = await visibleRow<NodeRow>('nodes', NODE_COLUMNS, scope, id);
        if (!row) throw notFound('node', id);
        const node = nodeOf(row);
        const aliases =
          patch.aliases === undefined ? node.aliases : mergeAliases(node.name, [], patch.aliases);
        const p = new Params();
        const updated = await db.query<NodeRow>(
          `UPDATE ${schema}.nodes
              SET status = COALESCE(${p.add(patch.status ?? null)}, status),
                  aliases = ${p.json(aliases)}, name_keys = ${p.texts(nameKeys(node.name, aliases))},
                  properties = properties || ${p.json(patch.properties ?? {})},
                  updated_at = ${p.add(at)}
            WHERE tenant_id = ${p.add(tenantOf(scope))} AND id = ${p.add(id)}
            RETURNING ${NODE_COLUMNS}`,
          p.values,
        );
        return nodeOf(updated.rows[0]!);
      });
    },

    async deleteNodes({ scope, ids }) {
      const { schema } = await db.names();
      return db.atomic(async () => {
        const p = new Params();
        const deleted = await db.query<{ id: string }>(
          `DELETE FROM ${schema}.nodes WHERE ${visibleByIdSql(scope, ids, p)} RETURNING id`,
          p.values,
        );
        if (deleted.rows.length > 0) {
          // An edge never outlives one of its ends, whatever scope the edge was stored at.
          const gone = deleted.rows.map((row) => row.id);
          await db.query(
            `DELETE FROM ${schema}.edges WHERE tenant_id = $1 AND (from_id = ANY($2::text[]) OR to_id = ANY($2::text[]))`,
            [tenantOf(scope), gone],
          );
        }
        return { deleted: deleted.rows.length };
      });
    },

    async addEdge({ edge }) {
      const { schema } = await db.names();
      return db.atomic(async () => {
        const ends = new Params();
        const found = await db.query<{ id: string }>(
          `SELECT id FROM ${schema}.nodes WHERE ${visibleByIdSql(edge.scope, [edge.from, edge.to], ends)}
             FOR SHARE`,
          ends.values,
        );
        const present = new Set(found.rows.map((row) => row.id));
        for (const end of [edge.from, edge.to]) if (!present.has(end)) throw notFound('node', end);
        const dup = new Params();
        const duplicateSql = `SELECT ${EDGE_COLUMNS} FROM ${schema}.edges
          WHERE ${exactScopeSql(edge.scope, dup)} AND from_id = ${dup.add(edge.from)} AND to_id = ${dup.add(edge.to)}
            AND relation = ${dup.add(edge.relation)} AND status = 'active'`;
        const duplicate = await db.query<EdgeRow>(duplicateSql, dup.values);
        if (duplicate.rows[0]) return edgeOf(duplicate.rows[0]);
        const p = new Params();
        const inserted = await db.query<EdgeRow>(
          `INSERT INTO ${schema}.edges (${EDGE_COLUMNS})
           VALUES (${scopeValuesSql(edge.scope, p)}, ${p.add(edge.id)}, ${p.add(edge.from)}, ${p.add(edge.to)},
             ${p.add(edge.relation)}, ${p.json(edge.properties)}, ${p.add(edge.confidence)}, 'active',
             ${p.add(edge.validFrom)}, NULL, ${p.add(edge.accessLevel)}, ${p.json(edge.provenance)}, ${p.add(edge.createdAt)})
           ON CONFLICT DO NOTHING RETURNING ${EDGE_COLUMNS}`,
          p.values,
        );
        if (inserted.rows[0]) return edgeOf(inserted.rows[0]);
        // A concurrent writer added the same active edge a moment ago, or the id is taken.
        const raced = await db.query<EdgeRow>(duplicateSql, dup.values);
        if (raced.rows[0]) return edgeOf(raced.rows[0]);
        throw conflict(`edge "${edge.id}" already exists`, { id: edge.id });
      });
    },

    async listEdges({ scope, accessLevel, nodeIds, direction, relations, status, limit, cursor }) {
      const { schema } = await db.names();
      const p = new Params();
      const where = [visibleSql(scope, p), `status = ANY(${p.texts(status)})`, ...accessSql(accessLevel, p)];
      if (relations) where.push(`relation = ANY(${p.texts(relations)})`);
      if (nodeIds) {
        const nodes = p.texts(nodeIds);
        const ends = [];
        if (direction !== 'in') ends.push(`from_id = ANY(${nodes})`);
        if (direction !== 'out') ends.push(`to_id = ANY(${nodes})`);
        where.push(`(${ends.join(' OR ')})`);
      }
      where.push(...listingCursor('edges', cursor, p));
      const result = await db.query<EdgeRow>(
        `SELECT ${EDGE_COLUMNS} FROM ${schema}.edges WHERE ${where.join(' AND ')}
          ORDER BY created_at, id LIMIT ${p.add(limit + 1)}`,
        p.values,
      );
      return pageOf(result.rows, limit, edgeOf, (row) =>
        encodeCursor('edges', [int(row.created_at), row.id]),
      );
    },

    async updateEdge({ scope, id, patch }) {
      const { schema } = await db.names();
      const p = new Params();
      const result = await db.query<EdgeRow>(
        `UPDATE ${schema}.edges
            SET status = COALESCE(${p.add(patch.status ?? null)}, status),
                valid_to = COALESCE(${p.add(patch.validTo ?? null)}::bigint, valid_to),
                confidence = COALESCE(${p.add(patch.confidence ?? null)}::float8, confidence),
                properties = properties || ${p.json(patch.properties ?? {})}
          WHERE ${visibleByIdSql(scope, id, p)}
          RETURNING ${EDGE_COLUMNS}`,
        p.values,
      );
      if (!result.rows[0]) throw notFound('edge', id);
      return edgeOf(result.rows[0]);
    },

    async deleteEdges({ scope, ids }) {
      const { schema } = await db.names();
      const p = new Params();
      const result = await db.query(
        `DELETE FROM ${schema}.edges WHERE ${visibleByIdSql(scope, ids, p)}`,
        p.values,
      );
      return { deleted: result.rowCount };
    },

    async traverse(args) {
      return traverseGraph(db, args);
    },
  };
}
