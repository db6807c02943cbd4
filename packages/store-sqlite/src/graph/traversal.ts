import type { Scope, TraversalResult, TraversalStep } from '@strata-memory/core/store';
import type { Statements } from '../database/statements.ts';
import { allOf, type Clause, inClause, visibleClause } from '../sql/scope-sql.ts';
import { type EdgeRow, type NodeRow, toEdge, toNode } from './graph-rows.ts';

export interface TraverseArgs {
  scope: Scope;
  accessLevel?: number;
  start: string[];
  direction: 'out' | 'in' | 'both';
  relations?: string[];
  maxHops: number;
  limit: number;
}

/** Nodes and edges a traversal may use: visible, allowed, active (and of a listed relation). */
function liveClause(alias: string, args: TraverseArgs, relations: boolean): Clause {
  return allOf(
    visibleClause(args.scope, alias),
    { sql: `${alias}.status = 'active'`, params: [] },
    args.accessLevel === undefined
      ? undefined
      : { sql: `${alias}.access_level <= ?`, params: [args.accessLevel] },
    relations && args.relations ? inClause(`${alias}.relation`, args.relations) : undefined,
  );
}

/**
 * Breadth-first traversal in one recursive CTE.
 *
 * `steps` walks live edges from the start nodes up to `maxHops`, keeping each (node, depth) pair
 * once, so cycles cost at most one row per node and depth; `reach` keeps each node's least depth.
 * A node's path comes from the same choice a breadth-first walk makes when it visits the frontier
 * in id order and each node's edges in id order: its predecessor is the lowest-id node one hop
 * closer with a live edge to it, through that node's lowest-id such edge.
 */
export function traverse(sql: Statements, args: TraverseArgs): TraversalResult {
  const starts = [...new Set(args.start)];
  const startLive = allOf(liveClause('n', args, false), inClause('n.id', starts));
  const startRows = sql.all<NodeRow>(
    `SELECT n.* FROM nodes n WHERE ${startLive.sql} ORDER BY n.id`,
    startLive.params,
  );
  if (startRows.length === 0) return { start: [], reached: [], edges: [] };

  const edgeLive = liveClause('e', args, true);
  const nodeLive = liveClause('n', args, false);
  const steps: string[] = [];
  const stepParams: Clause['params'] = [];
  // One recursive term per direction followed, so each join uses the from_id / to_id index.
  if (args.direction !== 'in') {
    steps.push(`SELECT e.to_id, s.depth + 1 FROM steps s
      JOIN edges e ON e.from_id = s.node_id
      JOIN nodes n ON n.id = e.to_id
      WHERE s.depth < ? AND ${edgeLive.sql} AND ${nodeLive.sql}`);
    stepParams.push(args.maxHops, ...edgeLive.params, ...nodeLive.params);
  }
  if (args.direction !== 'out') {
    steps.push(`SELECT e.from_id, s.depth + 1 FROM steps s
      JOIN edges e ON e.to_id = s.node_id
      JOIN nodes n ON n.id = e.from_id
      WHERE s.depth < ? AND ${edgeLive.sql} AND ${nodeLive.sql}`);
    stepParams.push(args.maxHops, ...edgeLive.params, ...nodeLive.params);
  }
  const forward = 'e.from_id = p.node_id AND e.to_id = v.node_id';
  const backward = 'e.to_id = p.node_id AND e.from_id = v.node_id';
  const link =
    args.direction === 'out' ? forward : args.direction === 'in' ? backward : `(${forward}) OR (${backward})`;
  const startIds = startRows.map((r) => r.id);

  const rows = sql.all<{ node_id: string; depth: number; pred: string; edge_id: string }>(
    `WITH RECURSIVE
       steps(node_id, depth) AS (
         SELECT id, 0 FROM nodes WHERE ${inClause('id', startIds).sql}
         UNION
         ${steps.join('\nUNION\n')}
       ),
       reach(node_id, depth) AS (SELECT node_id, min(depth) FROM steps GROUP BY node_id),
       links AS (
         SELECT v.node_id, v.depth, p.node_id AS pred, e.id AS edge_id,
                row_number() OVER (PARTITION BY v.node_id ORDER BY p.node_id, e.id) AS choice
         FROM reach v
         JOIN reach p ON p.depth = v.depth - 1
         JOIN edges e ON ${link}
         WHERE v.depth >= 1 AND ${edgeLive.sql}
       )
     SELECT node_id, depth, pred, edge_id FROM links WHERE choice = 1 ORDER BY depth, node_id LIMIT ?`,
    [...startIds, ...stepParams, ...edgeLive.params, args.limit],
  );

  const nodeIds = rows.map((r) => r.node_id);
  const nodes = new Map(
    nodeIds.length === 0
      ? []
      : sql
          .all<NodeRow>(`SELECT * FROM nodes WHERE ${inClause('id', nodeIds).sql}`, nodeIds)
          .map((row) => [row.id, toNode(row)] as const),
  );
  const paths = new Map<string, { nodeIds: string[]; edgeIds: string[] }>();
  for (const id of startIds) paths.set(id, { nodeIds: [id], edgeIds: [] });
  const reached: TraversalStep[] = [];
  for (const row of rows) {
    const before = paths.get(row.pred)!;
    const path = { nodeIds: [...before.nodeIds, row.node_id], edgeIds: [...before.edgeIds, row.edge_id] };
    paths.set(row.node_id, path);
    reached.push({ node: nodes.get(row.node_id)!, depth: row.depth, path });
  }

  const edgeIds = [...new Set(reached.flatMap((step) => step.path.edgeIds))].sort();
  const edgeRows =
    edgeIds.length === 0
      ? []
      : sql.all<EdgeRow>(`SELECT * FROM edges WHERE ${inClause('id', edgeIds).sql}`, edgeIds);
  const edgesById = new Map(edgeRows.map((row) => [row.id, toEdge(row)]));
  return {
    start: startRows.map(toNode),
    reached,
    edges: edgeIds.map((id) => edgesById.get(id)!),
  };
}
