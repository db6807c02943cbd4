import type { JsonValue, MessageRole } from '../store/records.ts';

/**
 * The engine's other ports, version 1. Core ships deterministic offline implementations of each;
 * adapters bridge framework models (AI SDK, LangChain, Mastra) into `Embedder` and `CompletionModel`.
 */
export const PORT_SPECIFICATION_VERSION = 'v1';

/**
 * What a text is embedded for: `document` for what is stored (episodes), `query` for what is
 * searched with. Models with asymmetric embeddings (a query instruction or prefix) embed the two
 * differently; symmetric models ignore it.
 */
export type EmbedPurpose = 'query' | 'document';

/** Turns texts into vectors. Implementations should return unit-length vectors. */
export interface Embedder {
  readonly specificationVersion: typeof PORT_SPECIFICATION_VERSION;
  /** Model identity, e.g. `use-lite-512` or `openai:text-embedding-3-small`. Stored with episodes. */
  readonly id: string;
  /** Vector length. */
  readonly dimensions: number;
  /** Most texts per `embed` call; the engine splits larger batches. */
  readonly maxBatchSize: number;
  /**
   * The cosine similarity texts unrelated to each other reach with this model, at most in about
   * 99 pairs out of 100 (measured on unrelated everyday texts). With a query, recall lets an
   * episode into the block only when it shares a keyword with the query, lies in the time window
   * the query names, is next to such an episode, or has at least this similarity: a query about
   * nothing stored gets no episode. Unset: every vector match counts.
   */
  readonly unrelatedSimilarity?: number;
  /**
   * Same order and count as `texts`. `purpose` says whether the texts are stored (`document`,
   * what `observe` passes) or searched with (`query`, what recall passes); absent means `document`.
   */
  embed(args: { texts: string[]; purpose?: EmbedPurpose; signal?: AbortSignal }): Promise<number[][]>;
}

/** Counts tokens the way the target model does (approximately is fine; consistently is required). */
export interface Tokenizer {
  readonly specificationVersion: typeof PORT_SPECIFICATION_VERSION;
  readonly id: string;
  count(text: string): number;
  /** The longest prefix of `text` within `maxTokens`. */
  truncate(text: string, maxTokens: number): string;
  /**
   * True when a text made of non-empty lines joined by `\n`, each after the first starting with
   * neither whitespace nor `/`, counts as the sum of its lines, each counted with its line break
   * (the last without): true of tiktoken's encodings, whose pre-tokenizer never lets a piece run
   * past such a line break. Lets the engine count a rendered block from cached line counts instead
   * of the whole block again. Leave it unset when unsure: the engine then counts whole blocks.
   */
  readonly lineSeparable?: boolean;
}

/** Where the engine reads time. Swap in a manual clock to simulate "100 days later". */
export interface Clock {
  now(): number;
}

/** A message as extractors and summarizers see it. */
export interface TurnMessage {
  id: string;
  role: MessageRole;
  content: string;
  /** Speaker name, when known. */
  name?: string;
  at: number;
}

/** A fact an extractor read from a turn. Names are display form; the engine normalises them. */
export interface ExtractedFact {
  entityType: string;
  entity: string;
  key: string;
  value: JsonValue;
  /** 0..1 */
  confidence: number;
  /**
   * `statement`: asserted. `correction`: replaces an earlier value ("no, it's 30 not 45").
   * `hypothetical`: a question or what-if; never stored as fact without review.
   */
  kind: 'statement' | 'correction' | 'hypothetical';
  /** The id of the message it came from. */
  messageId: string;
  /** The words it was read from. */
  evidence?: string;
}

export interface ExtractedEntity {
  name: string;
  type: string;
  aliases?: string[];
  messageId: string;
}

export interface ExtractedRelation {
  from: { name: string; type: string };
  to: { name: string; type: string };
  /** lower snake case: `depends_on`, `affects`, `supersedes`, `decided_by`, `replaces`. */
  relation: string;
  confidence: number;
  kind: 'statement' | 'correction' | 'hypothetical';
  messageId: string;
  evidence?: string;
}

export interface Extraction {
  facts: ExtractedFact[];
  entities: ExtractedEntity[];
  relations: ExtractedRelation[];
}

/** Reads facts, entities and relations from a turn. One call per observed turn at most. */
export interface Extractor {
  readonly specificationVersion: typeof PORT_SPECIFICATION_VERSION;
  readonly id: string;
  /** `rules` never calls a model; `model` makes one call per `extract`. */
  readonly kind: 'rules' | 'model';
  extract(args: {
    /** The new messages of this turn. */
    messages: TurnMessage[];
    /** A few earlier messages for context (not to extract from). */
    context: TurnMessage[];
    /** Names of entities memory already knows, to reuse instead of inventing variants. */
    knownEntities: string[];
    signal?: AbortSignal;
  }): Promise<Extraction>;
}

/** Folds messages that fell out of the working window into a rolling summary. */
export interface Summarizer {
  readonly specificationVersion: typeof PORT_SPECIFICATION_VERSION;
  readonly id: string;
  summarize(args: {
    previousSummary?: string;
    messages: TurnMessage[];
    maxTokens: number;
    /**
     * Literals (numbers, amounts, dates, names) from `messages` that are not stored as facts; each
     * must appear word for word in the summary, or the engine rejects it.
     */
    mustKeep: string[];
    signal?: AbortSignal;
  }): Promise<{ summary: string }>;
}

/**
 * The smallest model interface the LLM extractor and summarizer need: a prompt in, text out.
 * Adapters build one from an AI SDK `LanguageModel`, a LangChain chat model or a Mastra model.
 */
export interface CompletionModel {
  readonly specificationVersion: typeof PORT_SPECIFICATION_VERSION;
  readonly id: string;
  complete(args: {
    system: string;
    prompt: string;
    /** When set, the model is asked for JSON matching this JSON Schema. */
    jsonSchema?: Record<string, unknown>;
    signal?: AbortSignal;
  }): Promise<string>;
}
