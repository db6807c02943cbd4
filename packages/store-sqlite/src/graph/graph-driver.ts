import {
  conflict,
  type EdgeRecord,
  type GraphDriver,
  type Metadata,
  normalizeName,
  notFound,
  type Scope,
  scopeColumns,
} from '@strata-memory/core/store';
import type { Runner } from '../database/session.ts';
import type { Statements } from '../database/statements.ts';
import { pageClauses, type SortColumn, toPage } from '../sql/cursor.ts';
import { fromJson, optional, toJson } from '../sql/json-columns.ts';
import { allOf, type Clause, exactScopeClause, inClause, visibleClause } from '../sql/scope-sql.ts';
import { type EdgeRow, mergeAliases, type NodeRow, nameKeysOf, toEdge, toNode } from './graph-rows.ts';
import { traverse } from './traversal.ts';

const BY_CREATION: SortColumn[] = [
  { expr: 'created_at', direction: 'asc' },
  { expr: 'id', direction: 'asc' },
];

function readable(scope: Scope, accessLevel: number | undefined, alias?: string): Clause {
  const col = alias ? `${alias}.access_level` : 'access_level';
  return allOf(
    visibleClause(scope, alias),
    accessLevel === undefined ? undefined : { sql: `${col} <= ?`, params: [accessLevel] },
  );
}

/** Entities and decisions as nodes, typed edges between them, and traversal over both. */
export function graphDriver(sql: Statements, run: Runner): GraphDriver {
  const visibleNode = (scope: Scope, id: string): NodeRow | undefined => {
    const where = allOf(visibleClause(scope), { sql: 'id = ?', params: [id] });
    return sql.get<NodeRow>(`SELECT * FROM nodes WHERE ${where.sql}`, where.params);
  };

  const visibleEdge = (scope: Scope, id: string): EdgeRow => {
    const where = allOf(visibleClause(scope), { sql: 'id = ?', params: [id] });
    const row = sql.get<EdgeRow>(`SELECT * FROM edges WHERE ${where.sql}`, where.params);
    if (!row) throw notFound('edge', id);
    return row;
  };

  /** Rewrites the names a node answers to (kept in `node_names` for findNodes). */
  const indexNames = (row: NodeRow): void => {
    sql.run('DELETE FROM node_names WHERE node_id = ?', [row.id]);
    for (const key of nameKeysOf(row.name, fromJson<string[]>(row.aliases))) {
      sql.run('INSERT INTO node_names (tenant, name_key, node_id) VALUES (?, ?, ?)', [
        row.tenant,
        key,
        row.id,
      ]);
    }
  };

  const saveNode = (row: NodeRow): void => {
    sql.run('UPDATE nodes SET aliases = ?, properties = ?, status = ?, updated_at = ? WHERE id = ?', [
      row.aliases,
      row.properties,
      row.status,
      row.updated_at,
      row.id,
    ]);
    indexNames(row);
  };

  const mergeProperties = (stored: string, patch: Metadata | undefined): string =>
    patch === undefined ? stored : toJson({ ...fromJson<Metadata>(stored), ...patch });

  const idsIn = (table: 'nodes' | 'edges', scope: Scope, ids: readonly string[]): string[] => {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return [];
    const where = allOf(visibleClause(scope), inClause('id', unique));
    return sql
      .all<{ id: string }>(`SELECT id FROM ${table} WHERE ${where.sql}`, where.params)
      .map((r) => r.id);
  };

  return {
    upsertNode: ({ node }) =>
      run.write(() => {
        const nameKey = normalizeName(node.name);
        const key = allOf(exactScopeClause(node.scope), {
          sql: 'type = ? AND name_key = ?',
          params: [node.type, nameKey],
        });
        const existing = sql.get<NodeRow>(`SELECT * FROM nodes WHERE ${key.sql}`, key.params);
        if (existing) {
          const row: NodeRow = {
            ...existing,
            aliases: toJson(mergeAliases(existing.name, fromJson<string[]>(existing.aliases), node.aliases)),
            properties: mergeProperties(existing.properties, node.properties),
            status: 'active',
            updated_at: node.at,
          };
          saveNode(row);
          return toNode(row);
        }
        if (sql.get('SELECT 1 AS found FROM nodes WHERE id = ?', [node.id])) {
          throw conflict(`node "${node.id}" already exists`, { id: node.id });
        }
        const c = scopeColumns(node.scope);
        const row: NodeRow = {
          id: node.id,
          tenant: c.tenant,
          org_id: c.org,
          user_id: c.user,
          agent_id: c.agent,
          thread_id: c.thread,
          type: node.type,
          name: node.name,
          name_key: nameKey,
          aliases: toJson(mergeAliases(node.name, [], node.aliases)),
          properties: toJson(node.properties),
          status: 'active',
          access_level: node.accessLevel,
          provenance: toJson(node.provenance),
          created_at: node.at,
          updated_at: node.at,
        };
        sql.run(
          `INSERT INTO nodes (id, tenant, org_id, user_id, agent_id, thread_id, type, name, name_key, aliases,
             properties, status, access_level, provenance, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          [
            row.id,
            row.tenant,
            row.org_id,
            row.user_id,
            row.agent_id,
            row.thread_id,
            row.type,
            row.name,
            row.name_key,
            row.aliases,
            row.properties,
            row.status,
            row.access_level,
            row.provenance,
            row.created_at,
            row.updated_at,
          ],
        );
        indexNames(row);
        return toNode(row);
      }),

    getNodes: ({ scope, ids, accessLevel }) =>
      run.read(() => {
        const unique = [...new Set(ids)];
        if (unique.length === 0) return [];
        const where = allOf(readable(scope, accessLevel), inClause('id', unique));
        const byId = new Map(
          sql.all<NodeRow>(`SELECT * FROM nodes WHERE ${where.sql}`, where.params).map((r) => [r.id, r]),
        );
        return unique.flatMap((id) => {
          const row = byId.get(id);
          return row ? [toNode(row)] : [];
        });
      }),

    findNodes: ({ scope, accessLevel, names, types, status }) =>
      run.read(() => {
        const keys = [...new Set(names.map(normalizeName))];
        if (keys.length === 0) return [];
        const where = allOf(
          readable(scope, accessLevel, 'n'),
          inClause('n.status', status),
          types ? inClause('n.type', types) : undefined,
        );
        const tenant = scopeColumns(scope).tenant;
        return sql
          .all<NodeRow>(
            `SELECT n.* FROM nodes n
             WHERE n.id IN (SELECT node_id FROM node_names WHERE tenant = ? AND ${inClause('name_key', keys).sql})
               AND ${where.sql}
             ORDER BY n.created_at, n.id`,
            [tenant, ...keys, ...where.params],
          )
          .map(toNode);
      }),

    listNodes: ({ scope, accessLevel, types, status, limit, cursor }) =>
      run.read(() => {
        const page = { listing: 'nodes', columns: BY_CREATION, limit, cursor };
        const { after, orderBy, limit: take } = pageClauses(page);
        const where = allOf(
          readable(scope, accessLevel),
          inClause('status', status),
          types ? inClause('type', types) : undefined,
          after,
        );
        const rows = sql.all<NodeRow>(`SELECT * FROM nodes WHERE ${where.sql} ORDER BY ${orderBy} LIMIT ?`, [
          ...where.params,
          take,
        ]);
        return toPage(page, rows, (r) => [r.created_at, r.id], toNode);
      }),

    updateNode: ({ scope, id, patch, at }) =>
      run.write(() => {
        const existing = visibleNode(scope, id);
        if (!existing) throw notFound('node', id);
        const row: NodeRow = {
          ...existing,
          status: patch.status ?? existing.status,
          aliases:
            patch.aliases === undefined
              ? existing.aliases
              : toJson(mergeAliases(existing.name, [], patch.aliases)),
          properties: mergeProperties(existing.properties, patch.properties),
          updated_at: at,
        };
        saveNode(row);
        return toNode(row);
      }),

    deleteNodes: ({ scope, ids }) =>
      run.write(() => {
        const doomed = idsIn('nodes', scope, ids);
        if (doomed.length === 0) return { deleted: 0 };
        // Edges and names go with their nodes (ON DELETE CASCADE).
        sql.run(`DELETE FROM nodes WHERE ${inClause('id', doomed).sql}`, doomed);
        return { deleted: doomed.length };
      }),

    addEdge: ({ edge }) =>
      run.write(() => {
        for (const end of [edge.from, edge.to])
          if (!visibleNode(edge.scope, end)) throw notFound('node', end);
        const same = allOf(exactScopeClause(edge.scope), {
          sql: "from_id = ? AND to_id = ? AND relation = ? AND status = 'active'",
          params: [edge.from, edge.to, edge.relation],
        });
        const duplicate = sql.get<EdgeRow>(`SELECT * FROM edges WHERE ${same.sql}`, same.params);
        if (duplicate) return toEdge(duplicate);
        if (sql.get('SELECT 1 AS found FROM edges WHERE id = ?', [edge.id])) {
          throw conflict(`edge "${edge.id}" already exists`, { id: edge.id });
        }
        const c = scopeColumns(edge.scope);
        sql.run(
          `INSERT INTO edges (id, tenant, org_id, user_id, agent_id, thread_id, from_id, to_id, relation, properties,
             confidence, status, valid_from, valid_to, access_level, provenance, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'active', ?, NULL, ?, ?, ?)`,
          [
            edge.id,
            c.tenant,
            c.org,
            c.user,
            c.agent,
            c.thread,
            edge.from,
            edge.to,
            edge.relation,
            toJson(edge.properties),
            edge.confidence,
            edge.validFrom,
            edge.accessLevel,
            toJson(edge.provenance),
            edge.createdAt,
          ],
        );
        const record: EdgeRecord = { ...edge, status: 'active' };
        return record;
      }),

    listEdges: ({ scope, accessLevel, nodeIds, direction, relations, status, limit, cursor }) =>
      run.read(() => {
        const page = { listing: 'edges', columns: BY_CREATION, limit, cursor };
        const { after, orderBy, limit: take } = pageClauses(page);
        let touching: Clause | undefined;
        if (nodeIds) {
          const ids = [...new Set(nodeIds)];
          const from = inClause('from_id', ids);
          const to = inClause('to_id', ids);
          touching =
            direction === 'out'
              ? from
              : direction === 'in'
                ? to
                : { sql: `(${from.sql}) OR (${to.sql})`, params: [...from.params, ...to.params] };
        }
        const where = allOf(
          readable(scope, accessLevel),
          inClause('status', status),
          relations ? inClause('relation', relations) : undefined,
          touching,
          after,
        );
        const rows = sql.all<EdgeRow>(`SELECT * FROM edges WHERE ${where.sql} ORDER BY ${orderBy} LIMIT ?`, [
          ...where.params,
          take,
        ]);
        return toPage(page, rows, (r) => [r.created_at, r.id], toEdge);
      }),

    updateEdge: ({ scope, id, patch }) =>
      run.write(() => {
        const existing = visibleEdge(scope, id);
        const row: EdgeRow = {
          ...existing,
          status: patch.status ?? existing.status,
          valid_to: patch.validTo ?? existing.valid_to,
          confidence: patch.confidence ?? existing.confidence,
          properties: mergeProperties(existing.properties, patch.properties),
        };
        sql.run('UPDATE edges SET status = ?, valid_to = ?, confidence = ?, properties = ? WHERE id = ?', [
          row.status,
          optional(row.valid_to ?? undefined),
          row.confidence,
          row.properties,
          id,
        ]);
        return toEdge(row);
      }),

    deleteEdges: ({ scope, ids }) =>
      run.write(() => {
        const doomed = idsIn('edges', scope, ids);
        if (doomed.length === 0) return { deleted: 0 };
        sql.run(`DELETE FROM edges WHERE ${inClause('id', doomed).sql}`, doomed);
        return { deleted: doomed.length };
      }),

    traverse: (args) => run.read(() => traverse(sql, args)),
  };
}
