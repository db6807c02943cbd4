import { isSpeakerReference } from '../extract/entity-references.ts';
import { indexEpisodeIdsOf } from '../facts/fact-index.ts';
import { outdatedFactsOf } from '../facts/outdated-episodes.ts';
import { contentWords } from '../text/terms.ts';
import { factValueText } from './fact-selection.ts';
import type { LongTermCandidate } from './long-term-items.ts';

/**
 * What may enter the block: relevance decides, the budget is only a ceiling. Scores are not
 * comparable across corpora, so each bar is relative to the best candidate of its layer, which
 * the ranking already judged the closest match to this query.
 *
 * - An episode clears the bar when it matches the query at all (a keyword, the time window the
 *   query names, a vector similarity above what unrelated text reaches with the embedder, or it is
 *   next to such an episode; see `Embedder.unrelatedSimilarity`) and its value is at least
 *   `EPISODE_BAR` of the best such episode's. A query about nothing stored gets no episode.
 * - A fact clears it when its query relevance is at least `FACT_BAR` of the best fact's, when the
 *   episode it came from cleared the episode bar (a paraphrase the fact's words miss), or when it
 *   is about the user the agent is talking to (their name, city, diet: the profile any answer
 *   may need).
 * - Graph paths start from entities the query names (see `graph-retrieval.ts`): they clear it.
 * - An episode that states a fact value since superseded is not quoted: the current fact is
 *   what the block shows; the old value stays in `facts.history` and in `explain()`.
 * - A fact's index texts (`facts.remember(…, { index })`) stand for the fact: when one clears the
 *   episode bar the fact does too.
 * - An episode whose statement included facts or connections already show (they came from it, or it
 *   is the text a fact is indexed by, and they hold most of its words) is not repeated beside them.
 * - An episode that cleared the bar only as the neighbour of a hit is context for that hit: when the
 *   block shows the hit as facts or connections, the episode is judged on its own match and value
 *   (and a fact it stated is not let in through it).
 *
 * Without a query there is nothing to be relevant to, and every candidate competes for the budget.
 */

/** An episode enters with at least this share of the best episode's value. */
export const EPISODE_BAR = 0.5;
/** A fact enters with at least this share of the best fact's query relevance. */
export const FACT_BAR = 0.3;
/** An episode is shown by the facts and connections from it when they hold this share of its content words. */
const SAME_STATEMENT = 2 / 3;

export interface BarResult {
  facts: LongTermCandidate[];
  others: LongTermCandidate[];
  /** Left out before packing, with why. */
  below: Array<{ item: LongTermCandidate; reason: string }>;
}

export function applyRelevanceBar(args: {
  facts: LongTermCandidate[];
  others: LongTermCandidate[];
  query?: string;
  /** The user the agent is talking to: their own profile facts are always relevant. */
  userId?: string;
}): BarResult {
  if (args.query === undefined) {
    for (const c of [...args.facts, ...args.others]) c.rule = 'no query: no relevance bar';
    return { facts: args.facts, others: args.others, below: [] };
  }
  const below: BarResult['below'] = [];
  const others: LongTermCandidate[] = [];

  const episodes = args.others.filter((c) => c.layer === 'episodes' && c.episode.matched);
  const best = Math.max(0, ...episodes.map((c) => c.value));
  const episodeBar = best * EPISODE_BAR;
  const matched = new Set<string>();
  for (const c of args.others) {
    if (c.layer === 'graph') {
      c.rule = 'path from an entity the query names';
      others.push(c);
      continue;
    }
    if (c.layer !== 'episodes') continue;
    const outdated = outdatedFactsOf(c.episode.episode);
    if (!c.episode.matched) {
      below.push({
        item: c,
        reason:
          'unrelated to the query: no keyword of it, outside the time it names, and a vector similarity unrelated text reaches',
      });
      continue;
    }
    if (c.value < episodeBar || best <= 0) {
      below.push({
        item: c,
        reason: `below the relevance bar: ${fixed(c.value)} < ${fixed(episodeBar)} (${EPISODE_BAR} of the best episode, ${fixed(best)})`,
      });
      continue;
    }
    matched.add(c.id);
    if (outdated.length > 0) {
      const keys = outdated.map((o) => `${o.entityId} · ${o.key}`).join(', ');
      below.push({ item: c, reason: `states a value since superseded (${keys}); the current fact is shown` });
      continue;
    }
    c.rule = `cleared the relevance bar: ${fixed(c.value)} ≥ ${fixed(episodeBar)} (${EPISODE_BAR} of the best episode)`;
    others.push(c);
  }

  // Facts that are relevant in their own right first: what they show decides which episodes
  // carried only by a neighbour still stand (below), and those decide which facts they promote.
  const facts: LongTermCandidate[] = [];
  const pending: Array<LongTermCandidate & { layer: 'facts' }> = [];
  for (const c of args.facts) {
    if (c.layer !== 'facts') continue;
    const relevance = c.fact.relevance;
    const record = c.fact.fact;
    if (
      record.entityType === 'user' &&
      (record.entityId === args.userId || isSpeakerReference('user', record.entityId))
    ) {
      c.rule = "cleared the relevance bar: the user's own profile";
      facts.push(c);
    } else if (relevance > 0 && relevance >= FACT_BAR) {
      c.rule = `cleared the relevance bar: query relevance ${fixed(relevance)} ≥ ${FACT_BAR} of the best fact's`;
      facts.push(c);
    } else pending.push(c);
  }

  // An episode that cleared the bar only through the hit next to it is context for that hit; when
  // the block shows the hit as facts or connections, the episode is judged on its own.
  const shownFirst = statementsByEpisode([...facts, ...others]);
  const textOf = new Map(
    args.others.flatMap((c) => (c.layer === 'episodes' ? [[c.id, c.episode.episode.text]] : [])),
  );
  const standing: LongTermCandidate[] = [];
  for (const c of others) {
    const carried = c.layer === 'episodes' ? c.episode.carried : undefined;
    const hitText = carried ? textOf.get(carried.hitId) : undefined;
    const shown = carried ? shownFirst.get(carried.hitId) : undefined;
    if (
      carried &&
      hitText !== undefined &&
      shown &&
      covers(shown.words, hitText) &&
      (!carried.ownMatched || carried.ownRelevance < episodeBar)
    ) {
      matched.delete(c.id);
      below.push({
        item: c,
        reason: `context for ${carried.hitId}, which the block shows as ${shown.lines.map((l) => `"${l}"`).join(', ')}; on its own below the relevance bar`,
      });
    } else standing.push(c);
  }

  for (const c of pending) {
    const record = c.fact.fact;
    const source = record.provenance.episodeId;
    if (source !== undefined && matched.has(source)) {
      c.rule = 'cleared the relevance bar: the episode it came from matches the query';
      facts.push(c);
    } else if (indexEpisodeIdsOf(record).some((id) => matched.has(id))) {
      c.rule = 'cleared the relevance bar: a text it is indexed by matches the query';
      facts.push(c);
    } else {
      below.push({
        item: c,
        reason: `below the relevance bar: query relevance ${fixed(c.fact.relevance)} < ${FACT_BAR} of the best fact's, and the episode it came from does not match the query`,
      });
    }
  }

  const order = new Map(args.facts.map((c, i) => [c.id, i]));
  facts.sort((a, b) => order.get(a.id)! - order.get(b.id)!);

  // An episode the block already shows as facts or connections is not repeated beside them.
  const shownAs = statementsByEpisode([...facts, ...others]);
  const kept: LongTermCandidate[] = [];
  for (const c of standing) {
    const shown = c.layer === 'episodes' ? shownAs.get(c.id) : undefined;
    if (shown && c.layer === 'episodes' && covers(shown.words, c.episode.episode.text)) {
      below.push({ item: c, reason: `shown as ${shown.lines.map((l) => `"${l}"`).join(', ')}` });
    } else kept.push(c);
  }
  return { facts, others: kept, below };
}

/**
 * For each source episode, the words and lines of the included facts and connections that came
 * from it or that it indexes.
 */
function statementsByEpisode(
  items: LongTermCandidate[],
): Map<string, { words: Set<string>; lines: string[] }> {
  const out = new Map<string, { words: Set<string>; lines: string[] }>();
  const add = (episodeId: string | undefined, text: string, line: string) => {
    if (episodeId === undefined) return;
    const entry = out.get(episodeId) ?? { words: new Set<string>(), lines: [] };
    out.set(episodeId, entry);
    for (const w of contentWords(text)) entry.words.add(w);
    if (!entry.lines.includes(line)) entry.lines.push(line);
  };
  for (const c of items) {
    if (c.layer === 'facts') {
      const f = c.fact.fact;
      const statement = `${f.entityId} ${f.key} ${factValueText(f.value)}`;
      for (const episodeId of [f.provenance.episodeId, ...indexEpisodeIdsOf(f)])
        add(episodeId, statement, c.fact.text);
    } else if (c.layer === 'graph') {
      for (const edge of c.path.edges) {
        const from = c.path.nodes.find((n) => n.id === edge.from)?.name ?? '';
        const to = c.path.nodes.find((n) => n.id === edge.to)?.name ?? '';
        add(edge.provenance.episodeId, `${from} ${edge.relation} ${to}`, c.path.text);
      }
    }
  }
  return out;
}

/** Whether `words` hold most of the content words of `text`. */
function covers(words: ReadonlySet<string>, text: string): boolean {
  const own = new Set(contentWords(text));
  if (own.size === 0) return false;
  let shared = 0;
  for (const w of own) if (words.has(w)) shared++;
  return shared / own.size >= SAME_STATEMENT;
}

function fixed(x: number): string {
  return x.toFixed(2);
}
