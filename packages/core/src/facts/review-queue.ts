import type { Scope } from '../scope/scope.ts';
import { sameScope } from '../scope/scope.ts';
import type { StoreTransaction } from '../store/contract.ts';
import type { JsonValue, Metadata, Provenance, ReviewItem, ReviewReason } from '../store/records.ts';

/**
 * Adding to the review queue: extractions below the confidence threshold, hypotheticals, and
 * statements that disagree with a human correction wait here for `review.approve` / `reject`
 * instead of becoming facts. The same proposal is queued once while it is pending.
 */

export interface FactProposal {
  entityType: string;
  /** '' when the owner could not be told (see `unresolved`). */
  entityId: string;
  key: string;
  value: JsonValue;
  kind: 'statement' | 'correction' | 'hypothetical';
  evidence?: string;
  /** What the message said, when the engine matched it to another entity or key ("we · terms"). */
  stated?: { entityType: string; entityId: string; key: string };
  /**
   * Why the engine could not tell which fact this is about (several current facts match). Such an
   * item is approved only with the fact named (`review.approve(…, { fact })`).
   */
  unresolved?: string;
  /** The current facts it may be about, when `unresolved`. */
  candidates?: Array<{ entityType: string; entityId: string; key: string }>;
}

export interface EdgeProposal {
  from: { name: string; type: string };
  to: { name: string; type: string };
  relation: string;
  kind: 'statement' | 'correction' | 'hypothetical';
  evidence?: string;
}

function proposalKey(kind: 'fact' | 'edge', proposal: Metadata): string {
  if (kind === 'fact') {
    return JSON.stringify([
      'fact',
      proposal.entityType,
      proposal.entityId,
      proposal.key,
      proposal.value,
      proposal.kind,
    ]);
  }
  const from = proposal.from as { name?: string; type?: string } | undefined;
  const to = proposal.to as { name?: string; type?: string } | undefined;
  return JSON.stringify([
    'edge',
    from?.name?.toLowerCase(),
    proposal.relation,
    to?.name?.toLowerCase(),
    proposal.kind,
  ]);
}

export async function proposeForReview(
  tx: StoreTransaction,
  args: {
    scope: Scope;
    kind: 'fact' | 'edge';
    reason: ReviewReason;
    proposal: FactProposal | EdgeProposal;
    confidence: number;
    accessLevel: number;
    provenance: Provenance;
    at: number;
  },
): Promise<{ item: ReviewItem; created: boolean }> {
  const proposal = JSON.parse(JSON.stringify(args.proposal)) as Metadata;
  const wanted = proposalKey(args.kind, proposal);
  const pending = await tx.review.list({ scope: args.scope, status: ['pending'], limit: 1000 });
  const existing = pending.items.find(
    (item) =>
      item.kind === args.kind &&
      sameScope(item.scope, args.scope) &&
      proposalKey(item.kind, item.proposal) === wanted,
  );
  if (existing) return { item: existing, created: false };
  const item = await tx.review.add({
    item: {
      scope: args.scope,
      kind: args.kind,
      reason: args.reason,
      proposal,
      confidence: args.confidence,
      accessLevel: args.accessLevel,
      provenance: args.provenance,
      createdAt: args.at,
    },
  });
  return { item, created: true };
}
