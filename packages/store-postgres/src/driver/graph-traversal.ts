import {
  type EdgeRecord,
  type Scope,
  type TraversalResult,
  type TraversalStep,
  tenantOf,
} from '@strata-memory/core/store';
import { Params } from '../sql/params.ts';
import { accessSql, visibleByIdSql, visibleSql } from '../sql/scope-filter.ts';
import type { Database } from './database.ts';
import { EDGE_COLUMNS, type EdgeRow, edgeOf, NODE_COLUMNS, type NodeRow, nodeOf } from './graph.ts';

export interface TraverseArgs {
  scope: Scope;
  accessLevel?: number;
  start: string[];
  direction: 'out' | 'in' | 'both';
  relations?: string[];
  maxHops: number;
  limit: number;
}

/** How an edge is walked from node `from` in each direction: the join condition and the node reached. */
function stepSql(direction: TraverseArgs['direction'], from: string): { join: string; to: string } {
  if (direction === 'out') return { join: `e.from_id = ${from}`, to: 'e.to_id' };
  if (direction === 'in') return { join: `e.to_id = ${from}`, to: 'e.from_id' };
  return {
    join: `(e.from_id = ${from} OR e.to_id = ${from})`,
    to: `CASE WHEN e.from_id = ${from} THEN e.to_id ELSE e.from_id END`,
  };
}

/** The same step seen from the node reached (`to`): which edges lead into it, and from which node. */
function parentSql(direction: TraverseArgs['direction'], to: string): { join: string; from: string } {
  if (direction === 'out') return { join: `e.to_id = ${to}`, from: 'e.from_id' };
  if (direction === 'in') return { join: `e.from_id = ${to}`, from: 'e.to_id' };
  return {
    join: `(e.from_id = ${to} OR e.to_id = ${to})`,
    from: `CASE WHEN e.to_id = ${to} THEN e.from_id ELSE e.to_id END`,
  };
}

type ReachedRow = NodeRow & { depth: number; parent_id: string } & {
  [K in keyof EdgeRow as `edge_${K}`]: EdgeRow[K];
};

/**
 * Breadth-first traversal in one statement. A recursive CTE walks active, visible edges to active,
 * visible nodes up to `maxHops`, keeping each (node, depth) once (UNION, not UNION ALL, so cycles
 * cannot grow the walk); a node's depth is its smallest. Its parent is the smallest-id node one
 * level up with a usable edge to it, through that node's smallest-id such edge, which is the
 * path the in-memory reference store's queue finds. Paths are then read off the parent links:
 * every ancestor of a returned node is shallower, so it is returned too.
 */
export async function traverseGraph(db: Database, args: TraverseArgs): Promise<TraversalResult> {
  const { schema } = await db.names();
  const p = new Params();
  const tenant = p.add(tenantOf(args.scope));
  const nodeOk = (alias: string) =>
    [
      visibleSql(args.scope, p, alias),
      `${alias}.status = 'active'`,
      ...accessSql(args.accessLevel, p, alias),
    ].join(' AND ');
  const edgeOk = (alias: string) =>
    [
      visibleSql(args.scope, p, alias),
      `${alias}.status = 'active'`,
      ...accessSql(args.accessLevel, p, alias),
      ...(args.relations ? [`${alias}.relation = ANY(${p.texts(args.relations)})`] : []),
    ].join(' AND ');

  const startIds = p.texts([...new Set(args.start)]);
  const startWhere = nodeOk('n');
  const step = stepSql(args.direction, 'w.node_id');
  const parent = parentSql(args.direction, 'r.node_id');
  const prefixedEdge = EDGE_COLUMNS.split(',')
    .map((c) => `e.${c.trim()} AS edge_${c.trim()}`)
    .join(', ');
  const prefixedNode = NODE_COLUMNS.split(',')
    .map((c) => `n.${c.trim()}`)
    .join(', ');

  const sql = `
    WITH RECURSIVE
    walk(node_id, depth) AS (
      SELECT n.id, 0 FROM ${schema}.nodes n WHERE n.id = ANY(${startIds}) AND ${startWhere}
      UNION
      SELECT n.id, w.depth + 1
        FROM walk w
        JOIN ${schema}.edges e ON e.tenant_id = ${tenant} AND ${step.join}
        JOIN ${schema}.nodes n ON n.tenant_id = ${tenant} AND n.id = ${step.to}
       WHERE w.depth < ${p.add(args.maxHops)} AND ${edgeOk('e')} AND ${nodeOk('n')}
    ),
    depths AS (SELECT node_id, min(depth) AS depth FROM walk GROUP BY node_id),
    reached AS (
      SELECT node_id, depth FROM depths WHERE depth > 0 ORDER BY depth, node_id LIMIT ${p.add(args.limit)}
    ),
    parents AS (
      SELECT DISTINCT ON (r.node_id) r.node_id, r.depth, up.node_id AS parent_id, e.id AS edge_id
        FROM reached r
        JOIN ${schema}.edges e ON e.tenant_id = ${tenant} AND ${parent.join}
        JOIN depths up ON up.node_id = ${parent.from} AND up.depth = r.depth - 1
       WHERE ${edgeOk('e')}
       ORDER BY r.node_id, up.node_id, e.id
    )
    SELECT ${prefixedNode}, ${prefixedEdge}, parents.depth, parents.parent_id
      FROM parents
      JOIN ${schema}.nodes n ON n.tenant_id = ${tenant} AND n.id = parents.node_id
      JOIN ${schema}.edges e ON e.tenant_id = ${tenant} AND e.id = parents.edge_id
     ORDER BY parents.depth, parents.node_id`;

  const s = new Params();
  const startSql = `SELECT ${NODE_COLUMNS} FROM ${schema}.nodes n
     WHERE ${visibleByIdSql(args.scope, [...new Set(args.start)], s, 'n')}
       AND n.status = 'active' ${accessSql(args.accessLevel, s, 'n')
         .map((c) => `AND ${c}`)
         .join(' ')}
     ORDER BY n.id`;

  const [startRows, reachedRows] = await Promise.all([
    db.query<NodeRow>(startSql, s.values),
    db.query<ReachedRow>(sql, p.values),
  ]);
  const start = startRows.rows.map(nodeOf);
  const paths = new Map<string, { nodeIds: string[]; edgeIds: string[] }>();
  for (const node of start) paths.set(node.id, { nodeIds: [node.id], edgeIds: [] });
  const edges = new Map<string, EdgeRecord>();
  const reached: TraversalStep[] = [];
  for (const row of reachedRows.rows) {
    const edge = edgeOf(
      Object.fromEntries(
        Object.entries(row)
          .filter(([key]) => key.startsWith('edge_'))
          .map(([key, value]) => [key.slice('edge_'.length), value]),
      ) as unknown as EdgeRow,
    );
    const up = paths.get(row.parent_id)!;
    const path = { nodeIds: [...up.nodeIds, row.id], edgeIds: [...up.edgeIds, edge.id] };
    paths.set(row.id, path);
    edges.set(edge.id, edge);
    reached.push({ node: nodeOf(row), depth: Number(row.depth), path });
  }
  const sortedEdges = [...edges.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { start, reached, edges: sortedEdges };
}
