/**
 * Internal knobs of the recall pipeline. Each stage can be switched off or re-weighted so its
 * contribution can be measured (ablations in the retrieval benchmark); the defaults are the
 * shipped behaviour. Not part of `RecallOptions`: callers tune memory through `MemoryPolicy`.
 */
export interface RecallTuning {
  /** Keyword (BM25) candidates. */
  keyword: boolean;
  /** Vector candidates (needs an embedder and a store with vector search). */
  vector: boolean;
  keywordWeight: number;
  vectorWeight: number;
  /**
   * Score the candidates only keyword search found with the cosine of their stored embeddings, so
   * every candidate has both scores in fusion (else a missing vector score counts as zero).
   */
  completeVectorScores: boolean;
  /** Candidates fetched from each search (before fusion, re-scoring, neighbours and MMR). */
  candidatePool: number;
  /** 0..1: how much recency decay counts (0 = ignored, 1 = final score scaled by it fully). */
  recencyWeight: number;
  /** 0..1: how much importance counts around the 0.5 default. */
  importanceWeight: number;
  /** Lift for often-recalled episodes (0 = ignored). */
  accessWeight: number;
  /** Resolve time expressions in the query and boost episodes in the window. */
  timeWindows: boolean;
  /** Largest multiplier for an episode inside the named window. */
  timeBoost: number;
  /**
   * 0..1: share of its value an episode loses for the part of its words that sit in questions
   * ("What do you enjoy doing outdoors?" echoes the query's words but states nothing). The turn
   * that answers it still gets the question's whole match as context (0 = ignored).
   */
  questionPenalty: number;
  /** Lift for episodes said by a speaker the query names (0 = ignored). */
  speakerBoost: number;
  /**
   * When the query names a speaker of the candidates, search keywords again without the name (it
   * matches every turn that addresses that person) and let `speakerBoost` carry it instead.
   */
  speakerNamesOutOfKeywords: boolean;
  /**
   * A name used only as an owner ("What do Melanie's kids like?") does not make its speaker the one
   * the query asks about when another speaker is named plainly ("What did Jon say about Gina's
   * store?" is after Jon's turns); else every speaker the query names counts alike.
   */
  ownerNames: boolean;
  /** 0..1: how much the share of the query's terms an episode holds counts. */
  coverageWeight: number;
  /**
   * Weigh each query term in that share by its rarity among the candidates (idf), so holding the
   * word few candidates share ("pottery") counts more than holding one most of them do (a name
   * the conversation keeps using); else every term counts alike.
   */
  coverageIdf: boolean;
  /**
   * Lift for an episode holding the query's adjacent term pairs in the same order ("support
   * group", "charity race"): up to this share when it holds them all (0 = ignored).
   */
  proximityWeight: number;
  /**
   * 0..1: lift for episodes from a conversation stretch (same thread, turns within
   * `contextGapMs` of each other) that holds other strong candidates.
   */
  sessionWeight: number;
  /** Best hits whose neighbouring turns (same thread, close in time) join the candidates. */
  contextHits: number;
  /** More hits: the best candidates by query match alone (without priors such as the speaker's). */
  contextMatchHits: number;
  /** >0: a candidate next to a hit adds this share of the hit's carried score (0: keeps the higher). */
  contextSum: number;
  /** Turns taken on each side of a hit. */
  contextTurns: number;
  /** A neighbour's score: the hit's times this, per turn of distance. */
  contextDecay: number;
  /** Neighbours further apart in time than this are another conversation. */
  contextGapMs: number;
  /**
   * 0..1: share of its value an episode loses when it states a fact value that was since
   * superseded (it is still shown, with a caveat naming the current value, when there is room).
   */
  outdatedPenalty: number;
  /**
   * 0..1: share of the long-term budget (what the working window leaves) reserved for facts,
   * filled by value before any episode or graph path; facts beyond it compete with them by density.
   */
  factShare: number;
  /** Without `maxEpisodes`, let the budget size the episode cap (see `defaultMaxEpisodes`). */
  budgetScaledEpisodes: boolean;
  /** Maximal-marginal-relevance re-ranking against redundancy. */
  mmr: boolean;
  mmrLambda: number;
  /**
   * 0..1: how similar MMR deems two turns of one conversation stretch whatever their words, so
   * the picks spread over the conversations that hold evidence (0 = content similarity only).
   */
  mmrStretchSimilarity: number;
  /** `density`: value per token; `rank`: best value first until the budget is full. */
  packing: 'density' | 'rank';
  /** Tokens added to each item when computing density (dampens the pull of tiny items). */
  tokenPrior: number;
  /** Graph traversal depth from the entities the query names. */
  graphMaxHops: number;
  /** Most graph paths considered. */
  graphMaxPaths: number;
}

export const defaultRecallTuning: Readonly<RecallTuning> = Object.freeze({
  keyword: true,
  vector: true,
  keywordWeight: 1,
  vectorWeight: 0.8,
  completeVectorScores: true,
  candidatePool: 120,
  recencyWeight: 0.15,
  importanceWeight: 0.3,
  accessWeight: 0.1,
  timeWindows: true,
  timeBoost: 0.6,
  questionPenalty: 0.5,
  speakerBoost: 1,
  speakerNamesOutOfKeywords: true,
  ownerNames: true,
  coverageWeight: 0.3,
  coverageIdf: true,
  proximityWeight: 0.5,
  sessionWeight: 0.3,
  contextHits: 8,
  contextMatchHits: 2,
  contextSum: 0,
  contextTurns: 2,
  contextDecay: 0.8,
  contextGapMs: 3_600_000,
  outdatedPenalty: 0.5,
  factShare: 0.5,
  budgetScaledEpisodes: true,
  mmr: true,
  mmrLambda: 0.9,
  mmrStretchSimilarity: 0,
  packing: 'density',
  tokenPrior: 40,
  graphMaxHops: 2,
  graphMaxPaths: 12,
});
