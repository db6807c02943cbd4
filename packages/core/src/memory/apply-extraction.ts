import type { AuditTrail } from '../engine/audit-log.ts';
import type { Engine } from '../engine/engine.ts';
import { isGroupReference, isSpeakerReference } from '../extract/entity-references.ts';
import { CURRENT, findAllFacts } from '../facts/fact-reads.ts';
import {
  describeIdentity,
  type FactIdentity,
  resolveEntityType,
  resolveFactReference,
} from '../facts/fact-references.ts';
import { writeFact } from '../facts/fact-writer.ts';
import { auditFactOutcome } from '../facts/facts-api.ts';
import { type FactProposal, proposeForReview } from '../facts/review-queue.ts';
import { findOrCreateNode } from '../graph/node-resolution.ts';
import type { ExtractedFact, ExtractedRelation, Extraction } from '../ports/ports.ts';
import type { Scope } from '../scope/scope.ts';
import type { StoreTransaction } from '../store/contract.ts';
import { normalizeName } from '../store/normalize.ts';
import type { EdgeRecord, FactRecord, NodeRecord, Provenance, ReviewItem } from '../store/records.ts';

/**
 * Turns an extractor's output into memory: facts (written, confirmed, superseded, or queued for
 * review), graph nodes and edges, each with provenance back to its message and episode.
 *
 * Routing: hypotheticals always go to review; anything below `policy.reviewThreshold` goes to
 * review; a statement that disagrees with a human-corrected value goes to review (`conflict`);
 * the rest is written.
 *
 * Which fact an item is about: a named entity keeps the type memory already has for its name
 * (`resolveEntityType`). A correction or a what-if refers to a fact already in memory, so its key
 * is matched against the current facts ("terms" → "construction suppliers · payment terms", see
 * `fact-references.ts`): one match and the item is about that fact (the review item records what
 * was said in `proposal.stated`); several and it is ambiguous: it goes to review with the
 * candidates and an `unresolved` note, and approving it needs the reviewer to name the fact.
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

type Owner =
  | { kind: 'participant'; entityType: string; entityId: string }
  | { kind: 'named'; entityType: string; entityId: string }
  | { kind: 'unnamed' };

/** The owner an extracted fact names: the speaker or the team (resolved to the scope's ids), a name, or none. */
function factOwner(fact: ExtractedFact, scope: Scope, message: ObservedMessage): Owner {
  if (isSpeakerReference(fact.entityType, fact.entity)) {
    return {
      kind: 'participant',
      entityType: 'user',
      entityId: normalizeName(scope.userId ?? message.name ?? 'user'),
    };
  }
  if (isGroupReference(fact.entityType, fact.entity)) {
    return { kind: 'participant', entityType: 'organization', entityId: normalizeName(scope.orgId ?? 'we') };
  }
  const entityId = normalizeName(fact.entity);
  if (entityId.length === 0) return { kind: 'unnamed' };
  return { kind: 'named', entityType: normalizeName(fact.entityType) || 'entity', entityId };
}

/** A statement's unnamed owner: the one entity that already has this key, if exactly one does. */
async function soleHolder(
  tx: StoreTransaction,
  args: { target: Scope; key: string },
): Promise<{ entityType: string; entityId: string } | undefined> {
  const holders = await findAllFacts(tx, { scope: args.target, key: args.key, status: CURRENT });
  const owners = new Map(holders.map((f) => [`${f.entityType}\u0000${f.entityId}`, f]));
  if (owners.size !== 1) return undefined;
  const only = [...owners.values()][0]!;
  return { entityType: only.entityType, entityId: only.entityId };
}

interface ResolvedFact {
  identity: FactIdentity;
  /** Level the review item needs: the message's, raised to that of the facts it names. */
  accessLevel: number;
  /** What the message said, when the engine resolved it to another entity or key. */
  stated?: FactIdentity;
  /** Set when the reference is ambiguous. */
  unresolved?: { note: string; candidates: FactIdentity[] };
}

const identityOf = (f: FactIdentity): FactIdentity => ({
  entityType: f.entityType,
  entityId: f.entityId,
  key: f.key,
});

/** Which fact an extracted item is about (see the module comment); undefined when it cannot be placed. */
async function resolveFact(
  tx: StoreTransaction,
  args: {
    scope: Scope;
    target: Scope;
    fact: ExtractedFact;
    key: string;
    message: ObservedMessage;
    readerLevel: number;
  },
): Promise<ResolvedFact | undefined> {
  const { fact, key, target, message } = args;
  const owner = factOwner(fact, args.scope, message);
  const base = { accessLevel: message.accessLevel };
  /** The fact as stated: a participant's as is, a named entity's under the type memory holds for it. */
  const asStated = async (named: Exclude<Owner, { kind: 'unnamed' }>): Promise<ResolvedFact> => {
    const entityType =
      named.kind === 'participant'
        ? named.entityType
        : await resolveEntityType(tx, {
            scope: target,
            entityType: named.entityType,
            entityId: named.entityId,
            key,
          });
    return { ...base, identity: { entityType, entityId: named.entityId, key } };
  };
  if (fact.kind === 'statement') {
    if (owner.kind !== 'unnamed') return asStated(owner);
    const holder = await soleHolder(tx, { target, key });
    return holder ? { ...base, identity: { ...holder, key } } : ownerless(base, key);
  }

  // A correction or a what-if: about a fact already in memory.
  const reference = await resolveFactReference(tx, {
    scope: target,
    ...(owner.kind === 'unnamed'
      ? {}
      : { owner: { entityType: owner.entityType, entityId: owner.entityId } }),
    key,
    anyOwner: fact.kind === 'hypothetical' && owner.kind === 'participant',
    accessLevel: Math.max(args.readerLevel, message.accessLevel),
  });
  const stated: FactIdentity | undefined =
    owner.kind === 'unnamed' ? undefined : { entityType: owner.entityType, entityId: owner.entityId, key };
  if (reference.kind === 'resolved') {
    const identity = identityOf(reference.fact);
    const same =
      stated !== undefined &&
      stated.entityId === identity.entityId &&
      stated.key === identity.key &&
      stated.entityType === identity.entityType;
    return {
      identity,
      accessLevel: Math.max(message.accessLevel, reference.fact.accessLevel),
      ...(same ? {} : { stated: stated ?? { entityType: 'entity', entityId: '', key } }),
    };
  }
  if (reference.kind === 'ambiguous') {
    const candidates = reference.candidates.map(identityOf);
    return {
      identity: stated ?? { entityType: 'entity', entityId: '', key },
      accessLevel: Math.max(message.accessLevel, ...reference.candidates.map((c) => c.accessLevel)),
      unresolved: {
        note: `"${key}" could be any of ${candidates.length} facts in memory (${candidates.map(describeIdentity).join('; ')}); approve it with the fact it means, or reject it`,
        candidates,
      },
    };
  }
  return owner.kind === 'unnamed' ? ownerless(base, key) : asStated(owner);
}

/** A statement that names no owner memory can place ("the deadline is 14 April"): reviewed, never dropped. */
function ownerless(base: { accessLevel: number }, key: string): ResolvedFact {
  return {
    ...base,
    identity: { entityType: 'entity', entityId: '', key },
    unresolved: {
      note: `"${key}" names no owner and memory holds no fact with that key; approve it with the fact it means, or reject it`,
      candidates: [],
    },
  };
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
    /** The access level of whoever is observing (what they may see decides what a reference may resolve to). */
    readerLevel: number;
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
    accessLevel = message.accessLevel,
  ) => {
    const { item, created } = await proposeForReview(tx, {
      scope: target,
      kind,
      reason,
      proposal,
      confidence,
      accessLevel,
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
    const resolved = key
      ? await resolveFact(tx, {
          scope: args.scope,
          target,
          fact,
          key,
          message,
          readerLevel: args.readerLevel,
        })
      : undefined;
    if (!resolved) {
      out.unresolved += 1;
      continue;
    }
    const { identity } = resolved;
    const evidence = fact.evidence ? fact.evidence.slice(0, MAX_EVIDENCE) : undefined;
    const proposal: FactProposal = {
      ...identity,
      value: fact.value,
      kind: fact.kind,
      ...(evidence ? { evidence } : {}),
      ...(resolved.stated ? { stated: resolved.stated } : {}),
      ...(resolved.unresolved
        ? { unresolved: resolved.unresolved.note, candidates: resolved.unresolved.candidates }
        : {}),
    };
    if (fact.kind === 'hypothetical') {
      await queue('fact', 'hypothetical', proposal, fact.confidence, message, resolved.accessLevel);
      continue;
    }
    if (resolved.unresolved || fact.confidence < threshold) {
      await queue('fact', 'low_confidence', proposal, fact.confidence, message, resolved.accessLevel);
      continue;
    }
    if (identity.entityId.length === 0) {
      out.unresolved += 1;
      continue;
    }
    const outcome = await writeFact(tx, {
      scope: target,
      ...identity,
      value: fact.value,
      confidence: fact.confidence,
      mode: fact.kind === 'correction' ? 'correction' : 'statement',
      accessLevel: message.accessLevel,
      provenance: provenanceOf(message),
      metadata: {
        ...(evidence ? { evidence } : {}),
        ...(resolved.stated ? { stated: { ...resolved.stated } } : {}),
      },
      at,
    });
    auditFactOutcome(audit, outcome);
    if (outcome.kind === 'protected') {
      await queue('fact', 'conflict', proposal, fact.confidence, message, resolved.accessLevel);
    } else if (outcome.kind === 'inserted') out.written.push(outcome.fact);
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

  const aliasesOf = new Map<string, string[]>();
  for (const entity of args.extraction.entities) {
    if (entity.aliases) aliasesOf.set(normalizeName(entity.name), entity.aliases);
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
    const from = await node(
      relation.from.name,
      relation.from.type,
      message,
      aliasesOf.get(normalizeName(relation.from.name)),
    );
    const to = await node(
      relation.to.name,
      relation.to.type,
      message,
      aliasesOf.get(normalizeName(relation.to.name)),
    );
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
