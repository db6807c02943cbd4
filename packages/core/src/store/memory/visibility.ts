import { isVisible, type Scope } from '../../scope/scope.ts';

/**
 * The read filter every in-memory listing applies: core's `isVisible` (the item's scope is the
 * reader's or an ancestor's, in the same tenant) and, when the reader gives an access level, the
 * item's is at or below it. A cheap per-level pre-check rejects most invisible rows first.
 */
export function readable(
  item: { scope: Scope; accessLevel?: number },
  reader: Scope,
  accessLevel?: number,
): boolean {
  if (accessLevel !== undefined && (item.accessLevel ?? 0) > accessLevel) return false;
  const s = item.scope;
  if (s.threadId !== undefined && s.threadId !== reader.threadId) return false;
  if (s.agentId !== undefined && s.agentId !== reader.agentId) return false;
  if (s.userId !== undefined && s.userId !== reader.userId) return false;
  if (s.orgId !== undefined && s.orgId !== reader.orgId) return false;
  return isVisible(s, reader);
}
