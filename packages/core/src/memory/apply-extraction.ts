import { isGroupReference, isSpeakerReference } from '../extract/entity-references.ts';
import { CURRENT, findAllFacts } from '../facts/fact-reads.ts';
import { writeFact } from '../facts/fact-writer.ts';
import { auditFactOutcome } from '../facts/facts-api.ts';
import { proposeForReview } from '../facts/review-queue.ts';
import { findOrCreateNode } from '../graph/node-resolution.ts';
import type { ExtractedFact, ExtractedRelation, Extraction } from '../ports/ports.ts';
import type { Scope } from '../scope/scope.ts';
import type { StoreTransaction } from '../store/contract.ts';
import { normalizeName } from '../store/normalize.ts';
import type { EdgeRecord, FactRecord, NodeRecord, Provenance, ReviewItem } from '../store/records.ts';
import type { AuditTrail } from './audit-log.ts';
import type { Engine } from './engine.ts';

/**
 * Turns an extractor's output into memory: facts (written, confirmed, superseded, or queued for
 * review), graph nodes and edges, each with provenance back to its message and episode.
 *
 * Routing: hypotheticals always go to review; anything below `policy.reviewThreshold` goes to
 * review; a statement that disagrees with a human-corrected value goes to review (`conflict`);
 * the rest is written.
 */

export interface ObservedMessage {
  messageId: string;
  episodeId?: string;
  principalId?: string;
  accessLevel: number;
  name?: string;
}

export interface AppliedExtraction {
  written: FactRecord[];
  superseded: FactRecord[];
  confirmed: FactRecord[];
  review: ReviewItem[];
  nodes: NodeRecord[];
  edges: EdgeRecord[];
  /** Facts skipped because their entity could not be resolved. */
  unresolved: number;
}

const MAX_EVIDENCE = 500;

/** The stored entity for an extracted one, resolving `speaker`, `we` and unnamed owners. */
async function resolveEntity(
  tx: StoreTransaction,
  args: { scope: Scope; target: Scope; fact: ExtractedFact; key: string; message: ObservedMessage },
): Promise<{ entityType: string; entityId: string } | undefined> {
  const { fact, scope } = args;
  if (isSpeakerReference(fact.entityType, fact.entity)) {
    return { entityType: 'user', entityId: normalizeName(scope.userId ?? args.message.name ?? 'user') };
  }
  if (isGroupReference(fact.entityType, fact.entity)) {
    return { entityType: 'organization', entityId: normalizeName(scope.orgId ?? 'we') };
  }
  const entityId = normalizeName(fact.entity);
  if (entityId.length > 0) return { entityType: normalizeName(fact.entityType) || 'entity', entityId };
  // Unnamed owner: the one entity that already has this key, if exactly one does.
  const holders = await findAllFacts(tx, { scope: args.target, key: args.key, status: CURRENT });
  const owners = new Map(holders.map((f) => [`${f.entityType}\u0000${f.entityId}`, f]));
  if (owners.size !== 1) return undefined;
  const only = [...owners.values()][0]!;
  return { entityType: only.entityType, entityId: only.entityId };
}

function relationName(relation: string): string {
  return normalizeName(relation).replace(/\s+/g, '_');
}

export async function applyExtraction(
  tx: StoreTransaction,
  engine: Engine,
  args: {
    scope: Scope;
    target: Scope;
    extraction: Extraction;
    messages: ReadonlyMap<string, ObservedMessage>;
    fallbackMessageId: string;
    at: number;
    audit: AuditTrail;
  },
): Promise<AppliedExtraction> {
  const { target, at, audit } = args;
  const threshold = engine.policy.reviewThreshold;
  const out: AppliedExtraction = {
    written: [],
    superseded: [],
    confirmed: [],
    review: [],
    nodes: [],
    edges: [],
    unresolved: 0,
  };
  const messageOf = (id: string) => args.messages.get(id) ?? args.messages.get(args.fallbackMessageId)!;
  const provenanceOf = (message: ObservedMessage): Provenance => ({
    source: 'extraction',
    messageId: message.messageId,
    ...(message.episodeId ? { episodeId: message.episodeId } : {}),
    ...(args.scope.threadId ? { threadId: args.scope.threadId } : {}),
    ...(message.principalId ? { principalId: message.principalId } : {}),
    extractor: engine.extractor.id,
    at,
  });
  const queue = async (
    kind: 'fact' | 'edge',
    reason: ReviewItem['reason'],
    proposal: Parameters<typeof proposeForReview>[1]['proposal'],
    confidence: number,
    message: ObservedMessage,
  ) => {
    const { item, created } = await proposeForReview(tx, {
      scope: target,
      kind,
      reason,
      proposal,
      confidence,
      accessLevel: message.accessLevel,
      provenance: provenanceOf(message),
      at,
    });
    if (created) {
      audit.add({
        scope: target,
        action: 'review.add',
        subjectType: 'review',
        subjectId: item.id,
        details: { reason, kind },
      });
    }
    out.review.push(item);
  };

  for (const fact of args.extraction.facts) {
    const message = messageOf(fact.messageId);
    const key = normalizeName(fact.key);
    const entity = key
      ? await resolveEntity(tx, { scope: args.scope, target, fact, key, message })
      : undefined;
    if (!entity || !key) {
      out.unresolved += 1;
      continue;
    }
    const evidence = fact.evidence ? fact.evidence.slice(0, MAX_EVIDENCE) : undefined;
    const proposal = {
      ...entity,
      key,
      value: fact.value,
      kind: fact.kind,
      ...(evidence ? { evidence } : {}),
    };
    if (fact.kind === 'hypothetical') {
      await queue('fact', 'hypothetical', proposal, fact.confidence, message);
      continue;
    }
    if (fact.confidence < threshold) {
      await queue('fact', 'low_confidence', proposal, fact.confidence, message);
      continue;
    }
    const outcome = await writeFact(tx, {
      scope: target,
      ...entity,
      key,
      value: fact.value,
      confidence: fact.confidence,
      mode: fact.kind === 'correction' ? 'correction' : 'statement',
      accessLevel: message.accessLevel,
      provenance: provenanceOf(message),
      ...(evidence ? { metadata: { evidence } } : {}),
      at,
    });
    auditFactOutcome(audit, outcome);
    if (outcome.kind === 'protected') await queue('fact', 'conflict', proposal, fact.confidence, message);
    else if (outcome.kind === 'inserted') out.written.push(outcome.fact);
    else if (outcome.kind === 'confirmed') out.confirmed.push(outcome.fact);
    else {
      out.written.push(outcome.fact);
      out.superseded.push(outcome.previous);
    }
  }

  const nodes = new Map<string, NodeRecord>();
  const node = async (name: string, type: string, message: ObservedMessage, aliases?: string[]) => {
    const { node: record } = await findOrCreateNode(tx, {
      scope: target,
      name,
      type: normalizeName(type) || 'entity',
      ...(aliases ? { aliases } : {}),
      accessLevel: message.accessLevel,
      provenance: provenanceOf(message),
      at,
    });
    nodes.set(record.id, record);
    return record;
  };

  for (const entity of args.extraction.entities) {
    await node(entity.name, entity.type, messageOf(entity.messageId), entity.aliases);
  }

  for (const relation of args.extraction.relations) {
    await applyRelation(relation);
  }

  async function applyRelation(relation: ExtractedRelation) {
    const message = messageOf(relation.messageId);
    const name = relationName(relation.relation);
    const evidence = relation.evidence ? relation.evidence.slice(0, MAX_EVIDENCE) : undefined;
    const proposal = {
      from: relation.from,
      to: relation.to,
      relation: name,
      kind: relation.kind,
      ...(evidence ? { evidence } : {}),
    };
    if (relation.kind === 'hypothetical')
      return queue('edge', 'hypothetical', proposal, relation.confidence, message);
    if (relation.confidence < threshold)
      return queue('edge', 'low_confidence', proposal, relation.confidence, message);
    const from = await node(relation.from.name, relation.from.type, message);
    const to = await node(relation.to.name, relation.to.type, message);
    if (from.id === to.id) return;
    const edge = await tx.graph.addEdge({
      edge: {
        scope: target,
        from: from.id,
        to: to.id,
        relation: name,
        properties: evidence ? { evidence } : {},
        confidence: relation.confidence,
        validFrom: at,
        createdAt: at,
        accessLevel: Math.max(message.accessLevel, from.accessLevel, to.accessLevel),
        provenance: provenanceOf(message),
      },
    });
    if (edge.provenance.messageId === message.messageId && edge.createdAt === at) {
      audit.add({
        scope: target,
        action: 'edge.add',
        subjectType: 'edge',
        subjectId: edge.id,
        details: { relation: name },
      });
    }
    out.edges.push(edge);
  }

  out.nodes = [...nodes.values()];
  return out;
}
