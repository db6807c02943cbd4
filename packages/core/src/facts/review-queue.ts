import type { Scope } from '../scope/scope.ts';
import { sameScope } from '../scope/scope.ts';
import type { StoreTransaction } from '../store/contract.ts';
import type { JsonValue, Metadata, Provenance, ReviewItem, ReviewReason } from '../store/records.ts';
import { reviewDedupeKey } from '../store/review-key.ts';

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
  const existing = await pendingProposal(tx, args.scope, args.kind, proposal);
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

/** Items stored without a key (by an earlier version) are compared with it among the oldest this many. */
const LEGACY_ITEMS_READ = 1_000;

/**
 * The pending item at exactly `scope` that proposes the same change, found by its key; items an
 * earlier version stored without a key are compared among the oldest `LEGACY_ITEMS_READ` of them,
 * as that version did.
 */
async function pendingProposal(
  tx: StoreTransaction,
  scope: Scope,
  kind: 'fact' | 'edge',
  proposal: Metadata,
): Promise<ReviewItem | undefined> {
  const wanted = reviewDedupeKey(kind, proposal);
  const same = (item: ReviewItem) => item.kind === kind && sameScope(item.scope, scope);
  const keyed = await tx.review.list({ scope, status: ['pending'], dedupeKey: wanted, limit: 100 });
  const found = keyed.items.find(same);
  if (found) return found;
  const legacy = await tx.review.list({
    scope,
    status: ['pending'],
    dedupeKey: null,
    limit: LEGACY_ITEMS_READ,
  });
  return legacy.items.find((item) => same(item) && reviewDedupeKey(item.kind, item.proposal) === wanted);
}
