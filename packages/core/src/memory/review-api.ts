import { z } from 'zod/v4';
import { conflict, invalidInput, notFound } from '../errors/strata-error.ts';
import { writeFact } from '../facts/fact-writer.ts';
import { auditFactOutcome } from '../facts/facts-api.ts';
import { findOrCreateNode } from '../graph/node-resolution.ts';
import { parseScope } from '../scope/scope.ts';
import type { StoreTransaction } from '../store/contract.ts';
import { parseArgs } from '../store/define-store.ts';
import { normalizeName } from '../store/normalize.ts';
import type { EdgeRecord, FactRecord, Provenance, ReviewItem } from '../store/records.ts';
import { AuditTrail } from './audit-log.ts';
import { actorOf, type Engine, readLevel, withTransaction } from './engine.ts';
import { idArgumentSchema, reviewDecisionOptionsSchema, reviewListOptionsSchema } from './input-schemas.ts';
import type { Principal, ReviewApi } from './types.ts';

/**
 * The review queue's API: list what waits, approve (writes the proposed fact or edge as a human
 * decision) or reject. Deciding twice fails with `conflict`.
 */

const factProposalSchema = z.object({
  entityType: z.string().min(1),
  entityId: z.string(),
  key: z.string().min(1),
  value: z.json(),
});

const edgeProposalSchema = z.object({
  from: z.object({ name: z.string().min(1), type: z.string().min(1) }),
  to: z.object({ name: z.string().min(1), type: z.string().min(1) }),
  relation: z.string().min(1),
});

async function pendingItem(
  tx: StoreTransaction,
  args: { scope: ReturnType<typeof parseScope>; id: string; accessLevel: number },
): Promise<ReviewItem> {
  const [item] = await tx.review.get({ scope: args.scope, ids: [args.id], accessLevel: args.accessLevel });
  if (!item) throw notFound('review item', args.id);
  if (item.status !== 'pending') {
    throw conflict(`review item "${args.id}" was already ${item.status}`, {
      id: args.id,
      status: item.status,
    });
  }
  return item;
}

export function createReviewApi(engine: Engine): ReviewApi {
  const { store, clock } = engine;

  async function approveIn(
    tx: StoreTransaction,
    item: ReviewItem,
    principal: Principal | undefined,
    at: number,
    audit: AuditTrail,
  ): Promise<{ fact?: FactRecord; edge?: EdgeRecord }> {
    const provenance: Provenance = {
      ...item.provenance,
      source: 'human',
      at,
      ...(principal ? { principalId: principal.id } : {}),
    };
    if (item.kind === 'fact') {
      const proposal = parseArgs(factProposalSchema, item.proposal, 'review.approve: proposal');
      const entityId = normalizeName(proposal.entityId);
      if (entityId.length === 0) {
        throw invalidInput(
          `review item "${item.id}" does not say which entity its ${proposal.key} belongs to; reject it and use facts.remember instead`,
        );
      }
      const outcome = await writeFact(tx, {
        scope: item.scope,
        entityType: proposal.entityType,
        entityId,
        key: proposal.key,
        value: proposal.value,
        confidence: 1,
        mode: 'authoritative',
        accessLevel: item.accessLevel,
        provenance,
        metadata: { reviewItemId: item.id },
        at,
      });
      auditFactOutcome(audit, outcome);
      return outcome.kind === 'protected' ? {} : { fact: outcome.fact };
    }
    const proposal = parseArgs(edgeProposalSchema, item.proposal, 'review.approve: proposal');
    const end = (ref: { name: string; type: string }) =>
      findOrCreateNode(tx, {
        scope: item.scope,
        name: ref.name,
        type: normalizeName(ref.type) || 'entity',
        accessLevel: item.accessLevel,
        provenance,
        at,
      });
    const from = (await end(proposal.from)).node;
    const to = (await end(proposal.to)).node;
    const edge = await tx.graph.addEdge({
      edge: {
        scope: item.scope,
        from: from.id,
        to: to.id,
        relation: normalizeName(proposal.relation).replace(/\s+/g, '_'),
        confidence: 1,
        validFrom: at,
        createdAt: at,
        accessLevel: item.accessLevel,
        provenance,
        properties: { reviewItemId: item.id },
      },
    });
    audit.add({ scope: item.scope, action: 'edge.add', subjectType: 'edge', subjectId: edge.id });
    return { edge };
  }

  return {
    async list(scopeInput, options) {
      const scope = parseScope(scopeInput);
      const parsed = parseArgs(reviewListOptionsSchema, options, 'review.list: options') ?? {};
      const accessLevel = readLevel(engine, parsed.principal);
      const out: ReviewItem[] = [];
      let cursor: string | undefined;
      do {
        const page = await store.review.list({
          scope,
          accessLevel,
          status: parsed.status ?? ['pending'],
          limit: 1000,
          ...(cursor ? { cursor } : {}),
        });
        out.push(...page.items);
        cursor = page.nextCursor;
      } while (cursor);
      return out;
    },

    async approve(scopeInput, idInput, options) {
      const scope = parseScope(scopeInput);
      const id = parseArgs(idArgumentSchema, idInput, 'review.approve: id');
      const parsed = parseArgs(reviewDecisionOptionsSchema, options, 'review.approve: options') ?? {};
      const accessLevel = readLevel(engine, parsed.principal);
      const at = clock.now();
      const audit = new AuditTrail({ actor: actorOf(parsed.principal), at });
      return withTransaction(store, async (tx) => {
        const pending = await pendingItem(tx, { scope, id, accessLevel });
        const item = await tx.review.decide({
          scope,
          id,
          status: 'approved',
          by: actorOf(parsed.principal),
          at,
          ...(parsed.note !== undefined ? { note: parsed.note } : {}),
        });
        const written = await approveIn(tx, pending, parsed.principal, at, audit);
        audit.add({ scope: item.scope, action: 'review.approve', subjectType: 'review', subjectId: id });
        await audit.flush(tx);
        return { item, ...written };
      });
    },

    async reject(scopeInput, idInput, options) {
      const scope = parseScope(scopeInput);
      const id = parseArgs(idArgumentSchema, idInput, 'review.reject: id');
      const parsed = parseArgs(reviewDecisionOptionsSchema, options, 'review.reject: options') ?? {};
      const accessLevel = readLevel(engine, parsed.principal);
      const at = clock.now();
      const audit = new AuditTrail({ actor: actorOf(parsed.principal), at });
      return withTransaction(store, async (tx) => {
        await pendingItem(tx, { scope, id, accessLevel });
        const item = await tx.review.decide({
          scope,
          id,
          status: 'rejected',
          by: actorOf(parsed.principal),
          at,
          ...(parsed.note !== undefined ? { note: parsed.note } : {}),
        });
        audit.add({ scope: item.scope, action: 'review.reject', subjectType: 'review', subjectId: id });
        await audit.flush(tx);
        return item;
      });
    },
  };
}
