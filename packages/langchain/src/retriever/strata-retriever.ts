import type { CallbackManagerForRetrieverRun } from '@langchain/core/callbacks/manager';
import { Document } from '@langchain/core/documents';
import { BaseRetriever, type BaseRetrieverInput } from '@langchain/core/retrievers';
import {
  type Layer,
  type Memory,
  type Principal,
  parseScope,
  type RecalledEpisode,
  type RecalledFact,
  type RecalledItem,
  type RecalledPath,
  type Scope,
} from '@strata-memory/core';
import {
  budgetSchema,
  memoryInstanceSchema,
  parseArgs,
  principalSchema,
} from '@strata-memory/core/integration';
import { z } from 'zod/v4';

export type RetrievableLayer = Extract<Layer, 'facts' | 'episodes' | 'graph'>;

export interface StrataRetrieverOptions extends BaseRetrieverInput {
  /** The engine (`createMemory(...)`). */
  memory: Memory;
  /** Whose memory to search, e.g. `{ userId }`. */
  scope: Scope;
  /** Layers to search. Default facts, episodes and graph. */
  layers?: RetrievableLayer[];
  /** Token budget of what one query returns. Default: the engine's `policy.defaultBudgetTokens`. */
  budget?: { tokens: number };
  /** Most episodes to consider. */
  maxEpisodes?: number;
  /** Who is asking: only items at or below its access level are returned. */
  principal?: Principal;
}

/** Where a document came from and why it was returned. */
export interface StrataDocumentMetadata {
  [key: string]: unknown;
  id: string;
  layer: RetrievableLayer;
  /** Plain-language reason it matched, e.g. `keyword + vector match`. */
  reason: string;
  scores: RecalledItem['scores'];
  tokens: number;
  sources: RecalledItem['sources'];
  fact?: {
    entityType: string;
    entity: string;
    key: string;
    value: unknown;
    confidence: number;
    status: string;
    version: number;
    stale: boolean;
    validFrom: string;
    provenance: RecalledFact['fact']['provenance'];
  };
  episode?: {
    text: string;
    role?: string;
    speaker?: string;
    occurredAt: string;
    importance: number;
    provenance: RecalledEpisode['episode']['provenance'];
  };
  graph?: {
    nodes: Array<{ id: string; name: string; type: string }>;
    edges: Array<{ id: string; from: string; to: string; relation: string }>;
  };
}

const optionsSchema = z
  .object({
    memory: memoryInstanceSchema,
    scope: z.unknown(),
    layers: z
      .array(z.enum(['facts', 'episodes', 'graph']))
      .min(1)
      .optional(),
    budget: budgetSchema.optional(),
    maxEpisodes: z.number().int().min(1).max(200).optional(),
    principal: principalSchema.optional(),
    callbacks: z.unknown().optional(),
    tags: z.array(z.string()).optional(),
    metadata: z.record(z.string(), z.unknown()).optional(),
    verbose: z.boolean().optional(),
  })
  .strict();

const DEFAULT_LAYERS: RetrievableLayer[] = ['facts', 'episodes', 'graph'];

const iso = (ms: number) => new Date(ms).toISOString();

/** One recalled item as a Document: the engine's rendered line, with layer, scores and provenance. */
export function recalledDocument(item: RecalledItem): Document<StrataDocumentMetadata> {
  const metadata: StrataDocumentMetadata = {
    id: item.id,
    layer: item.layer,
    reason: item.reason,
    scores: { ...item.scores },
    tokens: item.tokens,
    sources: { episodeIds: [...item.sources.episodeIds], messageIds: [...item.sources.messageIds] },
  };
  if (item.layer === 'facts') {
    const { fact, stale } = item as RecalledFact;
    metadata.fact = {
      entityType: fact.entityType,
      entity: fact.entityId,
      key: fact.key,
      value: fact.value,
      confidence: fact.confidence,
      status: fact.status,
      version: fact.version,
      stale,
      validFrom: iso(fact.validFrom),
      provenance: fact.provenance,
    };
  } else if (item.layer === 'episodes') {
    const { episode } = item as RecalledEpisode;
    metadata.episode = {
      text: episode.text,
      ...(episode.role ? { role: episode.role } : {}),
      ...(episode.speaker ? { speaker: episode.speaker } : {}),
      occurredAt: iso(episode.occurredAt),
      importance: episode.importance,
      provenance: episode.provenance,
    };
  } else {
    const { nodes, edges } = item as RecalledPath;
    metadata.graph = {
      nodes: nodes.map((n) => ({ id: n.id, name: n.name, type: n.type })),
      edges: edges.map((e) => ({ id: e.id, from: e.from, to: e.to, relation: e.relation })),
    };
  }
  return new Document({ pageContent: item.text, metadata, id: item.id });
}

/**
 * A LangChain retriever over Strata memory: each query is one `memory.recall` (hybrid keyword +
 * vector search over episodes, facts, graph paths, within a token budget), and each recalled item
 * becomes a Document whose `pageContent` is the engine's rendered line (escaped data) and whose
 * metadata carries its layer, scores, reason and provenance. Best first.
 */
export class StrataRetriever extends BaseRetriever<StrataDocumentMetadata> {
  override lc_namespace = ['strata', 'retrievers'];

  static override lc_name(): string {
    return 'StrataRetriever';
  }

  readonly scope: Scope;
  readonly #memory: Memory;
  readonly #layers: RetrievableLayer[];
  readonly #budget: { tokens: number } | undefined;
  readonly #maxEpisodes: number | undefined;
  readonly #principal: Principal | undefined;

  constructor(options: StrataRetrieverOptions) {
    const parsed = parseArgs(optionsSchema, options, 'StrataRetriever');
    super({
      ...(options.callbacks ? { callbacks: options.callbacks } : {}),
      ...(parsed.tags ? { tags: parsed.tags } : {}),
      ...(parsed.metadata ? { metadata: parsed.metadata } : {}),
      ...(parsed.verbose !== undefined ? { verbose: parsed.verbose } : {}),
    });
    this.scope = parseScope(parsed.scope, 'StrataRetriever: scope');
    this.#memory = parsed.memory;
    this.#layers = parsed.layers ?? DEFAULT_LAYERS;
    this.#budget = parsed.budget;
    this.#maxEpisodes = parsed.maxEpisodes;
    this.#principal = parsed.principal;
  }

  override async _getRelevantDocuments(
    query: string,
    _runManager?: CallbackManagerForRetrieverRun,
  ): Promise<Document<StrataDocumentMetadata>[]> {
    const context = await this.#memory.recall(this.scope, {
      query,
      layers: this.#layers,
      ...(this.#budget ? { budget: this.#budget } : {}),
      ...(this.#maxEpisodes ? { maxEpisodes: this.#maxEpisodes } : {}),
      ...(this.#principal ? { principal: this.#principal } : {}),
    });
    return context.items.map(recalledDocument);
  }
}
