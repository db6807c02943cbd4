/** Documented input limits. Larger inputs fail with `payload_too_large` and store nothing. */
export const LIMITS = {
  /** Characters in a message, episode text, or summary. */
  maxTextChars: 200_000,
  /** Bytes of JSON in a fact value. */
  maxFactValueBytes: 16_384,
  /** Bytes of JSON in a state value, a proposal, or a metadata object. */
  maxJsonBytes: 1_000_000,
  /** Items in one batch call (messages, episodes, ids, audit entries). */
  maxBatch: 1_000,
  /** Page size. */
  maxLimit: 1_000,
  /** Vector dimensions. */
  maxDimensions: 4_096,
  /** Hops in a graph traversal. */
  maxHops: 6,
  /** Nesting levels of a JSON value (metadata, properties, a fact or state value, tool input). */
  maxJsonDepth: 64,
  /** Nesting levels of a whole call argument, JSON values inside it included. */
  maxInputDepth: 80,
  /** Characters in a type, key, relation or name. */
  maxNameChars: 512,
} as const;
