/**
 * Fusing ranked candidate lists (keyword, vector, in-time-window searches) into one relevance
 * score per id. Drivers return raw scores on different scales (BM25 is unbounded, cosine is
 * -1..1), so fusion uses per-list normalised scores, never the raw numbers together.
 */

export interface RankedList {
  /** e.g. `keyword`, `vector`, `keyword@window`. */
  name: string;
  weight: number;
  /** Best first. */
  items: Array<{ id: string; score: number }>;
}

export interface FusedScore {
  /** 0..1: the share of the best possible fused score. */
  fused: number;
  /** 1-based rank in each list that returned the id. */
  ranks: Record<string, number>;
  /** Raw score in each list that returned the id. */
  scores: Record<string, number>;
}

/**
 * Weighted score fusion: each list's scores are scaled to 0..1 by its best score (so a list whose
 * best match is weak still contributes in proportion), then summed with the list weights and
 * normalised by the total weight of the non-empty lists.
 */
export function weightedFusion(lists: RankedList[]): Map<string, FusedScore> {
  const out = new Map<string, FusedScore>();
  const total = lists.reduce((sum, l) => sum + (l.items.length > 0 ? l.weight : 0), 0);
  for (const list of lists) {
    const top = Math.max(0, ...list.items.map((i) => i.score));
    list.items.forEach((item, index) => {
      const entry = entryFor(out, item.id);
      if (entry.ranks[list.name] !== undefined) return;
      entry.ranks[list.name] = index + 1;
      entry.scores[list.name] = item.score;
      const normalised = top > 0 ? Math.max(0, item.score) / top : 0;
      entry.fused += (list.weight * normalised) / (total || 1);
    });
  }
  return out;
}

function entryFor(map: Map<string, FusedScore>, id: string): FusedScore {
  let entry = map.get(id);
  if (!entry) {
    entry = { fused: 0, ranks: {}, scores: {} };
    map.set(id, entry);
  }
  return entry;
}
