import type { AuditTrail } from '../engine/audit-log.ts';
import { findAllFacts, isOverdue } from '../facts/fact-reads.ts';
import { type Scope, sameScope } from '../scope/scope.ts';
import type { Store, StoreTransaction } from '../store/contract.ts';
import type { FactRecord } from '../store/records.ts';

/**
 * Staleness: an active fact stored at the scope and unconfirmed for more than `staleAfterDays`
 * is flagged `stale` (still the current value; recall renders it with a caveat). Restating or
 * confirming the value clears the flag.
 */
export async function planStale(
  store: Store,
  args: { scope: Scope; now: number; staleAfterDays: number },
): Promise<{ stale: FactRecord[]; checked: number }> {
  const facts = (await findAllFacts(store, { scope: args.scope, status: ['active'] })).filter((f) =>
    sameScope(f.scope, args.scope),
  );
  const stale = facts
    .filter((f) => isOverdue(f, args.now, args.staleAfterDays))
    .sort((a, b) => (a.id < b.id ? -1 : 1));
  return { stale, checked: facts.length };
}

export async function applyStale(tx: StoreTransaction, fact: FactRecord, audit: AuditTrail): Promise<void> {
  await tx.facts.update({ scope: fact.scope, id: fact.id, patch: { status: 'stale' } });
  audit.add({
    scope: fact.scope,
    action: 'fact.stale',
    subjectType: 'fact',
    subjectId: fact.id,
    details: {
      entityType: fact.entityType,
      entityId: fact.entityId,
      key: fact.key,
      lastConfirmedAt: fact.lastConfirmedAt,
    },
  });
}
