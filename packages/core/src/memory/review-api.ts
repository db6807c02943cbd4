import { z } from 'zod/v4';
import { AuditTrail } from '../engine/audit-log.ts';
import { actorOf, type Engine, readLevel } from '../engine/engine.ts';
import {
  idArgumentSchema,
  reviewApproveOptionsSchema,
  reviewDecisionOptionsSchema,
  reviewListOptionsSchema,
} from '../engine/input-schemas.ts';
import type { FactKey, Principal, ReviewApi } from '../engine/types.ts';
import { conflict, invalidInput, notFound } from '../errors/strata-error.ts';
import { resolveEntityType } from '../facts/fact-references.ts';
import { writeFact } from '../facts/fact-writer.ts';
import { auditFactOutcome } from '../facts/facts-api.ts';
import { findOrCreateNode } from '../graph/node-resolution.ts';
import { parseScope } from '../scope/scope.ts';
import type { StoreTransaction } from '../store/contract.ts';
import { parseArgs } from '../store/define-store.ts';
import { normalizeName } from '../store/normalize.ts';
import type { EdgeRecord, FactRecord, Provenance, ReviewItem } from '../store/records.ts';
import { withTransaction } from '../store/with-transaction.ts';

/**
 * The review queue's API: list what waits, approve (writes the proposed fact or edge as a human
 * decision) or reject. Deciding twice fails with `conflict`.
 */

const factProposalSchema = z.object({
  entityType: z.string().min(1),
  entityId: z.string(),
  key: z.string().min(1),
  value: z.json(),
  unresolved: z.string().optional(),
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

  /** The fact a proposal is written to: as proposed, or as the reviewer named it. */
  async function approvedIdentity(
    tx: StoreTransaction,
    item: ReviewItem,
    proposal: z.output<typeof factProposalSchema>,
    named: FactKey | undefined,
  ): Promise<{ entityType: string; entityId: string; key: string }> {
    if (named) {
      const entityId = normalizeName(named.entity);
      const key = normalizeName(named.key);
      if (entityId.length === 0 || key.length === 0) {
        throw invalidInput('review.approve: fact must name an entity and a key');
      }
      const entityType = named.entityType
        ? normalizeName(named.entityType)
        : await resolveEntityType(tx, { scope: item.scope, entityType: 'entity', entityId, key });
      return { entityType, entityId, key };
    }
    const entityId = normalizeName(proposal.entityId);
    if (proposal.unresolved !== undefined || entityId.length === 0) {
      throw invalidInput(
        `review item "${item.id}" does not say which fact its ${proposal.key} belongs to${proposal.unresolved ? `: ${proposal.unresolved}` : ''}; approve it with { fact: { entity, key } } or reject it`,
        { id: item.id, ...(item.proposal.candidates ? { candidates: item.proposal.candidates } : {}) },
      );
    }
    return { entityType: proposal.entityType, entityId, key: proposal.key };
  }

  /** Writes an approved item; `identity` is where a fact proposal goes (from `approvedIdentity`). */
  async function approveIn(
    tx: StoreTransaction,
    item: ReviewItem,
    principal: Principal | undefined,
    at: number,
    audit: AuditTrail,
    identity: { entityType: string; entityId: string; key: string } | undefined,
  ): Promise<{ fact?: FactRecord; edge?: EdgeRecord }> {
    const provenance: Provenance = {
      ...item.provenance,
      source: 'human',
      at,
      ...(principal ? { principalId: principal.id } : {}),
    };
    if (item.kind === 'fact' && identity) {
      const proposal = parseArgs(factProposalSchema, item.proposal, 'review.approve: proposal');
      const outcome = await writeFact(tx, {
        scope: item.scope,
        ...identity,
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
      const parsed = parseArgs(reviewApproveOptionsSchema, options, 'review.approve: options') ?? {};
      const accessLevel = readLevel(engine, parsed.principal);
      const at = clock.now();
      const audit = new AuditTrail({ actor: actorOf(parsed.principal), at });
      return withTransaction(store, async (tx) => {
        const pending = await pendingItem(tx, { scope, id, accessLevel });
        if (parsed.fact && pending.kind !== 'fact') {
          throw invalidInput(`review item "${id}" proposes an edge; fact applies to fact proposals only`);
        }
        // Checked before deciding, so an item that cannot be written stays pending.
        const identity =
          pending.kind === 'fact'
            ? await approvedIdentity(
                tx,
                pending,
                parseArgs(factProposalSchema, pending.proposal, 'review.approve: proposal'),
                parsed.fact,
              )
            : undefined;
        const item = await tx.review.decide({
          scope,
          id,
          status: 'approved',
          by: actorOf(parsed.principal),
          at,
          ...(parsed.note !== undefined ? { note: parsed.note } : {}),
        });
        const written = await approveIn(tx, pending, parsed.principal, at, audit, identity);
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
