import type { RecalledEpisode, RecalledFact, RecalledPath } from '../engine/types.ts';
import { escapeMemoryText } from '../text/render-context.ts';
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

/**
 * The block's connections: every edge of the included paths once, each in its own direction and
 * in plain words, with the edges that leave one node by one relation on one line (`gRPC migration
 * affects auth, client SDK, billing`), in the order the paths come. A path's chain is kept in
 * `explain()`; the block lists what it connects, which costs about half as many tokens.
 */
export function connectionLines(paths: ReadonlyArray<{ path: PathCandidate }>): string[] {
  const lines = new Map<string, { head: string; targets: string[] }>();
  const seen = new Set<string>();
  for (const { path } of paths) {
    const names = new Map(path.nodes.map((n) => [n.id, n.name]));
    for (const edge of path.edges) {
      if (seen.has(edge.id)) continue;
      seen.add(edge.id);
      const key = `${edge.from}\u0000${edge.relation}`;
      const target = names.get(edge.to) ?? edge.to;
      const line = lines.get(key);
      if (line) line.targets.push(target);
      else
        lines.set(key, {
          head: `${names.get(edge.from) ?? edge.from} ${edge.relation.replaceAll('_', ' ')}`,
          targets: [target],
        });
    }
  }
  return [...lines.values()].map((l) => escapeMemoryText(`${l.head} ${l.targets.join(', ')}`));
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
