/**
 * Metadata keys the engine writes on stored records and callers may not set themselves. They live
 * here, below the layers, so input validation can reserve them without importing the layers.
 */

/**
 * The access level of a message in the working buffer. `observe` with `access` records it in the
 * message's metadata under this key (only when above 0, so unrestricted messages are stored as
 * before); callers may not set it themselves. Every read of the buffer on a reader's behalf keeps
 * to messages at or below the reader's level, and the thread's rolling summary, which every reader
 * of the thread sees, only ever holds unrestricted messages.
 */
export const MESSAGE_ACCESS_KEY = 'strata:accessLevel';

/** Fact metadata: ids of the episodes that index the fact. */
export const FACT_INDEX_KEY = 'indexEpisodeIds';
/** Most index texts per fact. */
export const MAX_INDEX_TEXTS = 256;

/** Extra episodes that restated a fact's value, kept in `fact.metadata` (the newest last). */
export const SOURCE_EPISODES_KEY = 'sourceEpisodeIds';
