import { MESSAGE_ACCESS_KEY } from '../engine/metadata-keys.ts';
import type { MessageRecord } from '../store/records.ts';

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
