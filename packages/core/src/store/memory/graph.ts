import { conflict, notFound } from '../../errors/strata-error.ts';
import { isVisible, type Scope, sameScope, tenantOf } from '../../scope/scope.ts';
import type { GraphDriver, TraversalStep } from '../contract.ts';
import { normalizeName } from '../normalize.ts';
import type { EdgeRecord, NodeRecord } from '../records.ts';
import { paginate } from './pagination.ts';
import type { SyncSubStore } from './sync-sub-store.ts';
import { type MemoryTables, nodeKeyOf } from './tables.ts';
import { readable } from './visibility.ts';

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

const byCreation = (a: { createdAt: number; id: string }, b: { createdAt: number; id: string }) =>
  a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export function graphSubStore(tables: MemoryTables): SyncSubStore<GraphDriver> {
  const visibleNode = (scope: Scope, id: string): NodeRecord | undefined => {
    const node = tables.nodes.get(id);
    return node && isVisible(node.scope, scope) ? node : undefined;
  };
  const visibleEdge = (scope: Scope, id: string): EdgeRecord | undefined => {
    const edge = tables.edges.get(id);
    return edge && isVisible(edge.scope, scope) ? edge : undefined;
  };
  const edgesOf = (nodeId: string): EdgeRecord[] =>
    [...(tables.edgesByNode.get(nodeId) ?? [])].map((id) => tables.edges.get(id)!);

  return {
    upsertNode({ node }) {
      const existingId = tables.nodeByKey.get(nodeKeyOf(node));
      const existing = existingId === undefined ? undefined : tables.nodes.get(existingId);
      if (existing) {
        const record: NodeRecord = {
          ...existing,
          aliases: mergeAliases(existing.name, existing.aliases, node.aliases),
          properties: { ...existing.properties, ...node.properties },
          status: 'active',
          updatedAt: node.at,
        };
        tables.nodes.set(record.id, record);
        return record;
      }
      if (tables.nodes.has(node.id)) throw conflict(`node "${node.id}" already exists`, { id: node.id });
      const record: NodeRecord = {
        id: node.id,
        scope: node.scope,
        type: node.type,
        name: node.name,
        aliases: mergeAliases(node.name, [], node.aliases),
        properties: node.properties,
        status: 'active',
        accessLevel: node.accessLevel,
        provenance: node.provenance,
        createdAt: node.at,
        updatedAt: node.at,
      };
      tables.nodes.set(record.id, record);
      return record;
    },

    getNodes({ scope, ids, accessLevel }) {
      const out: NodeRecord[] = [];
      for (const id of new Set(ids)) {
        const node = tables.nodes.get(id);
        if (node && readable(node, scope, accessLevel)) out.push(node);
      }
      return out;
    },

    findNodes({ scope, accessLevel, names, types, status }) {
      const index = tables.nodesByName.get(tenantOf(scope));
      if (!index) return [];
      const statuses = new Set(status);
      const typeSet = types ? new Set(types) : undefined;
      const ids = new Set<string>();
      for (const name of names) for (const id of index.get(normalizeName(name)) ?? []) ids.add(id);
      const out: NodeRecord[] = [];
      for (const id of ids) {
        const node = tables.nodes.get(id)!;
        if (!statuses.has(node.status) || (typeSet && !typeSet.has(node.type))) continue;
        if (readable(node, scope, accessLevel)) out.push(node);
      }
      return out.sort(byCreation);
    },

    listNodes({ scope, accessLevel, types, status, limit, cursor }) {
      const statuses = new Set(status);
      const typeSet = types ? new Set(types) : undefined;
      const items: NodeRecord[] = [];
      for (const node of tables.nodes.tenantRows(tenantOf(scope))) {
        if (!statuses.has(node.status) || (typeSet && !typeSet.has(node.type))) continue;
        if (readable(node, scope, accessLevel)) items.push(node);
      }
      return paginate({
        listing: 'nodes',
        items,
        keyOf: (n) => [n.createdAt, n.id],
        directions: ['asc', 'asc'],
        limit,
        cursor,
      });
    },

    updateNode({ scope, id, patch, at }) {
      const node = visibleNode(scope, id);
      if (!node) throw notFound('node', id);
      const record: NodeRecord = { ...node, updatedAt: at };
      if (patch.status !== undefined) record.status = patch.status;
      if (patch.aliases !== undefined) record.aliases = mergeAliases(node.name, [], patch.aliases);
      if (patch.properties !== undefined) record.properties = { ...node.properties, ...patch.properties };
      tables.nodes.set(id, record);
      return record;
    },

    deleteNodes({ scope, ids }) {
      let deleted = 0;
      for (const id of new Set(ids)) {
        if (!visibleNode(scope, id)) continue;
        for (const edge of edgesOf(id)) tables.edges.delete(edge.id);
        tables.nodes.delete(id);
        deleted += 1;
      }
      return { deleted };
    },

    addEdge({ edge }) {
      for (const end of [edge.from, edge.to]) if (!visibleNode(edge.scope, end)) throw notFound('node', end);
      const duplicate = edgesOf(edge.from).find(
        (e) =>
          e.status === 'active' &&
          e.from === edge.from &&
          e.to === edge.to &&
          e.relation === edge.relation &&
          sameScope(e.scope, edge.scope),
      );
      if (duplicate) return duplicate;
      if (tables.edges.has(edge.id)) throw conflict(`edge "${edge.id}" already exists`, { id: edge.id });
      const record: EdgeRecord = { ...edge, status: 'active' };
      tables.edges.set(record.id, record);
      return record;
    },

    listEdges({ scope, accessLevel, nodeIds, direction, relations, status, limit, cursor }) {
      const statuses = new Set(status);
      const relationSet = relations ? new Set(relations) : undefined;
      const nodes = nodeIds ? new Set(nodeIds) : undefined;
      const candidates = nodes
        ? new Set([...nodes].flatMap((id) => edgesOf(id)))
        : tables.edges.tenantRows(tenantOf(scope));
      const items: EdgeRecord[] = [];
      for (const edge of candidates) {
        if (!statuses.has(edge.status) || (relationSet && !relationSet.has(edge.relation))) continue;
        if (nodes) {
          const touches =
            (direction !== 'in' && nodes.has(edge.from)) || (direction !== 'out' && nodes.has(edge.to));
          if (!touches) continue;
        }
        if (readable(edge, scope, accessLevel)) items.push(edge);
      }
      return paginate({
        listing: 'edges',
        items,
        keyOf: (e) => [e.createdAt, e.id],
        directions: ['asc', 'asc'],
        limit,
        cursor,
      });
    },

    updateEdge({ scope, id, patch }) {
      const edge = visibleEdge(scope, id);
      if (!edge) throw notFound('edge', id);
      const record: EdgeRecord = { ...edge };
      if (patch.status !== undefined) record.status = patch.status;
      if (patch.validTo !== undefined) record.validTo = patch.validTo;
      if (patch.confidence !== undefined) record.confidence = patch.confidence;
      if (patch.properties !== undefined) record.properties = { ...edge.properties, ...patch.properties };
      tables.edges.set(id, record);
      return record;
    },

    deleteEdges({ scope, ids }) {
      let deleted = 0;
      for (const id of new Set(ids)) if (visibleEdge(scope, id) && tables.edges.delete(id)) deleted += 1;
      return { deleted };
    },

    traverse({ scope, accessLevel, start, direction, relations, maxHops, limit }) {
      const relationSet = relations ? new Set(relations) : undefined;
      const nodeOk = (node: NodeRecord | undefined): node is NodeRecord =>
        node !== undefined && node.status === 'active' && readable(node, scope, accessLevel);
      const edgeOk = (edge: EdgeRecord) =>
        edge.status === 'active' &&
        (!relationSet || relationSet.has(edge.relation)) &&
        readable(edge, scope, accessLevel);

      const startNodes = [...new Set(start)]
        .map((id) => tables.nodes.get(id))
        .filter(nodeOk)
        .sort((a, b) => (a.id < b.id ? -1 : 1));
      const paths = new Map<string, { nodeIds: string[]; edgeIds: string[] }>();
      for (const node of startNodes) paths.set(node.id, { nodeIds: [node.id], edgeIds: [] });

      const reached: TraversalStep[] = [];
      let frontier = startNodes.map((node) => node.id);
      for (let depth = 1; depth <= maxHops && frontier.length > 0 && reached.length < limit; depth++) {
        const next: string[] = [];
        for (const id of frontier) {
          const path = paths.get(id)!;
          const edges = edgesOf(id)
            .filter(edgeOk)
            .sort((a, b) => (a.id < b.id ? -1 : 1));
          for (const edge of edges) {
            let neighbor: string | undefined;
            if (direction !== 'in' && edge.from === id) neighbor = edge.to;
            else if (direction !== 'out' && edge.to === id) neighbor = edge.from;
            if (neighbor === undefined || paths.has(neighbor)) continue;
            const node = tables.nodes.get(neighbor);
            if (!nodeOk(node)) continue;
            const step = {
              node,
              depth,
              path: { nodeIds: [...path.nodeIds, neighbor], edgeIds: [...path.edgeIds, edge.id] },
            };
            paths.set(neighbor, step.path);
            reached.push(step);
            next.push(neighbor);
          }
        }
        frontier = next.sort();
      }

      const returned = reached
        .sort((a, b) => a.depth - b.depth || (a.node.id < b.node.id ? -1 : 1))
        .slice(0, limit);
      const edgeIds = new Set(returned.flatMap((step) => step.path.edgeIds));
      const edges = [...edgeIds].sort().map((id) => tables.edges.get(id)!);
      return { start: startNodes, reached: returned, edges };
    },
  };
}
