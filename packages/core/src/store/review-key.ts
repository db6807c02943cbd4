import { createHash } from 'node:crypto';
import type { Metadata } from './records.ts';

/**
 * What a review item proposes, as a key: two items with the same key propose the same change (a
 * fact: entity, key, value and kind; an edge: both names, case aside, relation and kind), whatever
 * their evidence, confidence or reason. The engine queues a proposal once while it is pending, and
 * finds the pending one by this key (`review.list({ dedupeKey })`), however long the queue.
 */
export function reviewDedupeKey(kind: 'fact' | 'edge', proposal: Metadata): string {
  const identity =
    kind === 'fact'
      ? ['fact', proposal.entityType, proposal.entityId, proposal.key, proposal.value, proposal.kind]
      : [
          'edge',
          nameOf(proposal.from)?.toLowerCase(),
          proposal.relation,
          nameOf(proposal.to)?.toLowerCase(),
          proposal.kind,
        ];
  return createHash('sha256').update(JSON.stringify(identity)).digest('hex');
}

function nameOf(end: unknown): string | undefined {
  const name = (end as { name?: unknown } | undefined)?.name;
  return typeof name === 'string' ? name : undefined;
}
