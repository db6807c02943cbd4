/** The memories `bench peers` compares, each driven through its own published package. */
export const PEER_NAMES = [
  'mem0',
  'mastra',
  'langgraph-memory',
  'langgraph-postgres',
  'strata-sqlite',
  'strata-postgres',
  'strata-memory',
] as const;
export type PeerName = (typeof PEER_NAMES)[number];

/** Peers that need a PostgreSQL server (`STRATA_PG_URL`); without it they are not run. */
export const SERVER_PEERS: readonly PeerName[] = ['langgraph-postgres', 'strata-postgres'];

/** True for Strata's own rows, which get a ratio against the best other peer. */
export function isStrata(peer: PeerName): boolean {
  return peer.startsWith('strata-');
}

/** One turn or message to remember, as every peer receives it. */
export interface PeerTurn {
  /** Unique across the whole corpus. */
  id: string;
  /** The owner of the memory (a LoCoMo conversation, a corpus user). */
  userId: string;
  /** The session or thread it was said in. */
  threadId: string;
  speaker: string;
  content: string;
  /** Epoch ms. */
  at: number;
}

/** One search result: the turns it came from and the text a prompt would get. */
export interface PeerHit {
  turnIds: string[];
  text: string;
}

/** What a peer puts in a prompt for a question within a token budget. */
export interface PeerContext {
  turnIds: string[];
  /** Tokens of the context, by the shared tokenizer. */
  tokens: number;
  /** The search results the context was made of, when it is one top-`CONTEXT_TOP_K` search. */
  hits?: PeerHit[];
}

export interface PeerSearchArgs {
  userId: string;
  /** A thread that holds nothing yet (the question's new session). */
  threadId: string;
  query: string;
}

/**
 * A memory under test, driven the way its documentation says. Adapters translate only: each call
 * is one call of the peer's own API.
 */
export interface PeerMemory {
  /** Package and version, e.g. `mem0ai 3.3.1`. */
  readonly label: string;
  /**
   * False when the peer returns its top k in another order than by rank (Mastra returns recalled
   * messages in conversation order): recall@k then asks for each k separately.
   */
  readonly rankedResults: boolean;
  /** Called once per conversation or user before its questions (Strata moves its clock). */
  beforeQuestions?(args: { userId: string; at: number }): Promise<void>;
  add(turn: PeerTurn): Promise<void>;
  /** The peer's top `k` for the query, best first when `rankedResults`. */
  search(args: PeerSearchArgs & { k: number }): Promise<PeerHit[]>;
  /** What the peer would put in the prompt, within `budget` tokens. */
  context(args: PeerSearchArgs & { budget: number }): Promise<PeerContext>;
  /** Bytes of its data on disk, undefined for an in-process memory. */
  diskBytes(): Promise<number | undefined>;
  /** Closes the memory and deletes its data. */
  close(): Promise<void>;
}
