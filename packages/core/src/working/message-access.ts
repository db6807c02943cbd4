import type { MessageRecord } from '../store/records.ts';

/**
 * The access level of a message in the working buffer. `observe` with `access` records it in the
 * message's metadata under this key (only when above 0, so unrestricted messages are stored as
 * before); callers may not set it themselves. Every read of the buffer on a reader's behalf keeps
 * to messages at or below the reader's level, and the thread's rolling summary, which every reader
 * of the thread sees, only ever holds unrestricted messages.
 */
export const MESSAGE_ACCESS_KEY = 'strata:accessLevel';

/** The minimum level a reader needs to see `message` (0: anyone). */
export function messageAccessLevel(message: Pick<MessageRecord, 'metadata'>): number {
  const level = message.metadata[MESSAGE_ACCESS_KEY];
  return typeof level === 'number' && Number.isInteger(level) && level > 0 ? level : 0;
}

/** The messages a reader at `level` may see, in the same order. */
export function visibleMessages<M extends Pick<MessageRecord, 'metadata'>>(
  messages: M[],
  level: number,
): M[] {
  return messages.filter((m) => messageAccessLevel(m) <= level);
}
