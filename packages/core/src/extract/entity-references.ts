/**
 * Entity names an extractor may use when a turn refers to its participants rather than naming
 * them. The engine resolves them against the observed scope:
 *
 * - `{ entityType: 'user', entity: 'speaker' }`: the person speaking ("my name is …", "I prefer …"),
 *   stored under `scope.userId` (else the speaker's name, else `user`).
 * - `{ entityType: 'organization', entity: 'we' }`: the speaker's team ("our budget is …"),
 *   stored under `scope.orgId` (else `we`).
 * - `entity: ''` (unresolved): the turn names an attribute but not its owner ("no, the lead time
 *   is 30 days"). The engine attaches it to the one entity memory already holds that key for, or
 *   skips it when that is ambiguous.
 */
export const SPEAKER_ENTITY = { entityType: 'user', entity: 'speaker' } as const;
export const GROUP_ENTITY = { entityType: 'organization', entity: 'we' } as const;
export const UNRESOLVED_ENTITY = '';

const SPEAKER_NAMES = new Set(['speaker', 'me', 'i', 'myself', 'self', 'user', 'the user']);
const GROUP_NAMES = new Set(['we', 'us', 'our team', 'our company', 'our organization', 'ours']);

export function isSpeakerReference(entityType: string, entity: string): boolean {
  return entityType.toLowerCase() === 'user' && SPEAKER_NAMES.has(entity.trim().toLowerCase());
}

export function isGroupReference(entityType: string, entity: string): boolean {
  const type = entityType.toLowerCase();
  return (type === 'organization' || type === 'team') && GROUP_NAMES.has(entity.trim().toLowerCase());
}
