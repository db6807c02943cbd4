import type { RecalledEpisode, RecalledFact, RecalledPath } from '../engine/types.ts';
import type { EpisodeCandidate } from './episode-retrieval.ts';
import type { FactCandidate } from './fact-selection.ts';
import type { PathCandidate } from './graph-retrieval.ts';

/**
 * Long-term candidates (facts, episodes, graph paths) as the packer sees them, and as recall
 * returns them (`RecalledItem`s, with their sources for provenance and evaluation).
 */

/** `rule`: the relevance rule the candidate cleared (see `relevance-bar.ts`). */
export type LongTermCandidate =
  | { layer: 'facts'; id: string; tokens: number; value: number; rule?: string; fact: FactCandidate }
  | { layer: 'episodes'; id: string; tokens: number; value: number; rule?: string; episode: EpisodeCandidate }
  | { layer: 'graph'; id: string; tokens: number; value: number; rule?: string; path: PathCandidate };

/** The rendered (escaped) line of a candidate. */
export function lineOf(c: LongTermCandidate): string {
  return c.layer === 'facts' ? c.fact.text : c.layer === 'episodes' ? c.episode.text : c.path.text;
}

/** A path that is the start of another included path adds nothing: render only the longer one. */
export function dedupePrefixPaths(paths: Array<{ path: PathCandidate }>): string[] {
  const keys = paths.map((p) => p.path.edges.map((e) => e.id).join('>'));
  return paths
    .filter(
      (_, i) =>
        !keys.some(
          (other, j) => j !== i && other.length > keys[i]!.length && other.startsWith(`${keys[i]}>`),
        ),
    )
    .map((p) => p.path.text);
}

export function toRecalledItem(c: LongTermCandidate): RecalledFact | RecalledEpisode | RecalledPath {
  if (c.layer === 'facts') {
    const f = c.fact;
    const messageId = f.fact.provenance.messageId;
    const episodeId = f.fact.provenance.episodeId;
    return {
      layer: 'facts',
      id: f.fact.id,
      text: f.text,
      tokens: c.tokens,
      scores: { keyword: round(f.relevance), final: round(f.value) },
      reason: f.reason,
      sources: { episodeIds: episodeId ? [episodeId] : [], messageIds: messageId ? [messageId] : [] },
      fact: f.fact,
      stale: f.stale,
    };
  }
  if (c.layer === 'episodes') {
    const e = c.episode;
    const messageId = e.episode.provenance.messageId;
    return {
      layer: 'episodes',
      id: e.episode.id,
      text: e.text,
      tokens: c.tokens,
      scores: { ...e.scores, final: round(e.value) },
      reason: e.reason,
      sources: { episodeIds: [e.episode.id], messageIds: messageId ? [messageId] : [] },
      episode: e.episode,
    };
  }
  const p = c.path;
  const episodeIds = new Set<string>();
  const messageIds = new Set<string>();
  for (const item of [...p.edges, ...p.nodes]) {
    if (item.provenance.episodeId) episodeIds.add(item.provenance.episodeId);
    if (item.provenance.messageId) messageIds.add(item.provenance.messageId);
  }
  return {
    layer: 'graph',
    id: p.id,
    text: p.text,
    tokens: c.tokens,
    scores: p.scores,
    reason: p.reason,
    sources: { episodeIds: [...episodeIds], messageIds: [...messageIds] },
    nodes: p.nodes,
    edges: p.edges,
  };
}

function round(x: number): number {
  return Math.round(x * 10_000) / 10_000;
}
