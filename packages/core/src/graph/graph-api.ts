import { AuditTrail } from '../engine/audit-log.ts';
import { actorOf, type Engine, longTermScopeOf, readLevel, writeLevel } from '../engine/engine.ts';
import {
  impactSchema,
  principalOptionsSchema,
  relateSchema,
  supersedeSchema,
  traverseSchema,
  upsertNodeSchema,
} from '../engine/input-schemas.ts';
import type { GraphApi, NodeRef, Principal } from '../engine/types.ts';
import { notFound } from '../errors/strata-error.ts';
import { parseScope, type Scope } from '../scope/scope.ts';
import type { StoreTransaction } from '../store/contract.ts';
import { parseArgs } from '../store/define-store.ts';
import { normalizeName } from '../store/normalize.ts';
import type { NodeRecord, Provenance } from '../store/records.ts';
import { withTransaction } from '../store/with-transaction.ts';
import { findContradictions } from './contradictions.ts';
import { impactOf } from './impact.ts';
import { findOrCreateNode, resolveNodeRef } from './node-resolution.ts';

const DEFAULT_IMPACT_HOPS = 3;

function apiProvenance(scope: Scope, principal: Principal | undefined, at: number): Provenance {
  return {
    source: 'api',
    at,
    ...(scope.threadId ? { threadId: scope.threadId } : {}),
    ...(principal ? { principalId: principal.id } : {}),
  };
}

/** Supersedes every active edge touching `nodeId`; returns their ids. */
export async function supersedeEdgesOf(
  tx: StoreTransaction,
  args: { scope: Scope; nodeId: string; at: number; reason: string },
): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  const edges = [];
  do {
    const page = await tx.graph.listEdges({
      scope: args.scope,
      nodeIds: [args.nodeId],
      direction: 'both',
      status: ['active'],
      limit: 1000,
      ...(cursor ? { cursor } : {}),
    });
    edges.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  for (const edge of edges) {
    await tx.graph.updateEdge({
      scope: args.scope,
      id: edge.id,
      patch: { status: 'superseded', validTo: args.at, properties: { supersededReason: args.reason } },
    });
    ids.push(edge.id);
  }
  return ids;
}

export function createGraphApi(engine: Engine): GraphApi {
  const { store, clock, policy } = engine;

  async function refOrCreate(
    tx: StoreTransaction,
    args: {
      scope: Scope;
      ref: NodeRef;
      accessLevel: number;
      provenance: Provenance;
      at: number;
      readLevel: number;
    },
  ): Promise<NodeRecord> {
    if (args.ref.id !== undefined)
      return resolveNodeRef(tx, { scope: args.scope, ref: args.ref, accessLevel: args.readLevel });
    const { node } = await findOrCreateNode(tx, {
      scope: args.scope,
      name: args.ref.name!,
      type: args.ref.type ?? 'entity',
      accessLevel: args.accessLevel,
      provenance: args.provenance,
      at: args.at,
    });
    return node;
  }

  return {
    async upsertNode(scopeInput, input) {
      const scope = parseScope(scopeInput);
      const parsed = parseArgs(upsertNodeSchema, input, 'graph.upsertNode');
      readLevel(engine, parsed.principal);
      const target = longTermScopeOf(scope, policy);
      const at = clock.now();
      const audit = new AuditTrail({ actor: actorOf(parsed.principal), at });
      return withTransaction(store, async (tx) => {
        const node = await tx.graph.upsertNode({
          node: {
            scope: target,
            type: parsed.type ?? 'entity',
            name: parsed.name,
            aliases: parsed.aliases ?? [],
            properties: parsed.properties ?? {},
            accessLevel: writeLevel(engine, parsed.access),
            provenance: apiProvenance(scope, parsed.principal, at),
            at,
          },
        });
        audit.add({ scope: target, action: 'node.upsert', subjectType: 'node', subjectId: node.id });
        await audit.flush(tx);
        return node;
      });
    },

    async relate(scopeInput, input) {
      const scope = parseScope(scopeInput);
      const parsed = parseArgs(relateSchema, input, 'graph.relate');
      const level = readLevel(engine, parsed.principal);
      const target = longTermScopeOf(scope, policy);
      const at = clock.now();
      const accessLevel = writeLevel(engine, parsed.access);
      const provenance = apiProvenance(scope, parsed.principal, at);
      const audit = new AuditTrail({ actor: actorOf(parsed.principal), at });
      return withTransaction(store, async (tx) => {
        const from = await refOrCreate(tx, {
          scope: target,
          ref: parsed.from,
          accessLevel,
          provenance,
          at,
          readLevel: level,
        });
        const to = await refOrCreate(tx, {
          scope: target,
          ref: parsed.to,
          accessLevel,
          provenance,
          at,
          readLevel: level,
        });
        const edge = await tx.graph.addEdge({
          edge: {
            scope: target,
            from: from.id,
            to: to.id,
            relation: normalizeName(parsed.relation).replace(/\s+/g, '_'),
            properties: parsed.properties ?? {},
            confidence: parsed.confidence ?? 1,
            validFrom: at,
            createdAt: at,
            accessLevel: Math.max(accessLevel, from.accessLevel, to.accessLevel),
            provenance,
          },
        });
        audit.add({
          scope: target,
          action: 'edge.add',
          subjectType: 'edge',
          subjectId: edge.id,
          details: { relation: edge.relation },
        });
        await audit.flush(tx);
        return edge;
      });
    },

    async traverse(scopeInput, input) {
      const scope = parseScope(scopeInput);
      const parsed = parseArgs(traverseSchema, input, 'graph.traverse');
      const accessLevel = readLevel(engine, parsed.principal);
      const refs = Array.isArray(parsed.from) ? parsed.from : [parsed.from];
      const start: string[] = [];
      for (const ref of refs) start.push((await resolveNodeRef(store, { scope, ref, accessLevel })).id);
      return store.graph.traverse({
        scope,
        accessLevel,
        start: [...new Set(start)],
        direction: parsed.direction ?? 'out',
        ...(parsed.relations
          ? { relations: parsed.relations.map((r) => normalizeName(r).replace(/\s+/g, '_')) }
          : {}),
        maxHops: parsed.maxHops ?? 2,
      });
    },

    async impact(scopeInput, input) {
      const scope = parseScope(scopeInput);
      const parsed = parseArgs(impactSchema, input, 'graph.impact');
      const accessLevel = readLevel(engine, parsed.principal);
      const node = await resolveNodeRef(store, { scope, ref: parsed.node, accessLevel });
      return impactOf(store, { scope, accessLevel, node, maxHops: parsed.maxHops ?? DEFAULT_IMPACT_HOPS });
    },

    async contradictions(scopeInput, options) {
      const scope = parseScope(scopeInput);
      const { principal } = parseArgs(principalOptionsSchema, options, 'graph.contradictions: options') ?? {};
      return findContradictions(store, { scope, accessLevel: readLevel(engine, principal) });
    },

    async supersede(scopeInput, input) {
      const scope = parseScope(scopeInput);
      const parsed = parseArgs(supersedeSchema, input, 'graph.supersede');
      const accessLevel = readLevel(engine, parsed.principal);
      const at = clock.now();
      const reason = parsed.reason ?? 'superseded';
      const audit = new AuditTrail({ actor: actorOf(parsed.principal), at });
      await withTransaction(store, async (tx) => {
        const [node] = await tx.graph.getNodes({ scope, ids: [parsed.id], accessLevel });
        if (node) {
          await tx.graph.updateNode({
            scope,
            id: node.id,
            patch: { status: 'superseded', properties: { supersededReason: reason, supersededAt: at } },
            at,
          });
          const edgeIds = await supersedeEdgesOf(tx, { scope, nodeId: node.id, at, reason });
          audit.add({
            scope: node.scope,
            action: 'graph.supersede',
            subjectType: 'node',
            subjectId: node.id,
            details: { reason, edges: edgeIds },
          });
        } else {
          const edge = await tx.graph.updateEdge({
            scope,
            id: parsed.id,
            patch: { status: 'superseded', validTo: at, properties: { supersededReason: reason } },
          });
          // Not visible at the caller's level: undo by failing the transaction, report not found.
          if (edge.accessLevel > accessLevel) throw notFound('node or edge', parsed.id);
          audit.add({
            scope: edge.scope,
            action: 'graph.supersede',
            subjectType: 'edge',
            subjectId: edge.id,
            details: { reason },
          });
        }
        await audit.flush(tx);
      });
    },
  };
}
