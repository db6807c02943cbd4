import { episodeIdFor } from '../episodic/episode-writer.ts';
import { sourceEpisodeIdsOf } from '../facts/outdated-episodes.ts';
import { normalizeText } from '../store/normalize.ts';
import type { EpisodeRecord, MessageRecord } from '../store/records.ts';
import { contentWords } from '../text/terms.ts';
import { splitSentences } from '../working/extractive-summarizer.ts';
import { CONFIDENT, type FactCandidate, factValueText } from './fact-selection.ts';
import { sentenceKey } from './summary-view.ts';

/**
 * One recall never shows the same words twice: an episode whose message is in the working window
 * (or says exactly what a message there says) is left out, and so is an episode whose every
 * sentence the rolling summary already holds word for word (the summary is then the cheaper
 * faithful form). The reverse case, a summary sentence that an included episode shows, is handled
 * when the block is assembled.
 */
export class ShownElsewhere {
  readonly #messages = new Set<string>();
  readonly #texts = new Set<string>();
  readonly #summary: ReadonlySet<string>;

  constructor(args: { messages: readonly MessageRecord[]; summarySentences: Iterable<string> }) {
    for (const m of args.messages) {
      this.#messages.add(`${m.scope.threadId ?? ''}\n${m.id}`);
      const text = normalizeText(m.content);
      if (text) this.#texts.add(text);
    }
    this.#summary = new Set([...args.summarySentences].filter((k) => k.length > 0));
  }

  /**
   * Why the episode adds nothing to this recall, or undefined when it does. When the summary holds
   * it, `sentences` are the summary sentence keys that stand in for it.
   */
  check(episode: EpisodeRecord): { reason: string; sentences?: string[] } | undefined {
    const { messageId, threadId } = episode.provenance;
    if (messageId && threadId !== undefined && this.#messages.has(`${threadId}\n${messageId}`)) {
      return { reason: 'its message is in the recent conversation' };
    }
    if (this.#texts.size > 0 && this.#texts.has(normalizeText(episode.text))) {
      return { reason: 'the recent conversation says the same' };
    }
    if (this.#summary.size > 0) {
      const keys = splitSentences(episode.text)
        .map(sentenceKey)
        .filter((k) => k.length > 0);
      if (keys.length > 0 && keys.every((k) => this.#summary.has(k))) {
        return { reason: 'the summary of this conversation holds it word for word', sentences: keys };
      }
    }
    return undefined;
  }
}

/**
 * Recent messages that say nothing the block's facts do not. A message qualifies when a confident
 * included fact (no confidence caveat) was read from it or confirmed by it and every content word
 * of it is in those facts or the words they were read from, or when it says exactly the words a
 * confident included fact was read from (a restatement folded into the earlier episode). The
 * facts are the current, structured form, so the message is not repeated beside them. Keyed by
 * message id, with the fact lines that show it.
 */
export function restatedByFacts(
  messages: readonly MessageRecord[],
  facts: readonly FactCandidate[],
): Map<string, string[]> {
  const bySource = new Map<string, { words: Set<string>; lines: string[] }>();
  const byEvidence = new Map<string, string[]>();
  for (const { fact, text } of facts) {
    if (fact.confidence < CONFIDENT) continue;
    const evidence = typeof fact.metadata.evidence === 'string' ? fact.metadata.evidence : '';
    if (evidence)
      byEvidence.set(normalizeText(evidence), [...(byEvidence.get(normalizeText(evidence)) ?? []), text]);
    const words = contentWords(`${fact.entityId} ${fact.key} ${factValueText(fact.value)} ${evidence}`);
    for (const episodeId of sourceEpisodeIdsOf(fact)) {
      const entry = bySource.get(episodeId) ?? { words: new Set<string>(), lines: [] };
      bySource.set(episodeId, entry);
      for (const w of words) entry.words.add(w);
      entry.lines.push(text);
    }
  }
  const out = new Map<string, string[]>();
  if (bySource.size === 0) return out;
  for (const m of messages) {
    if (m.role === 'system') continue;
    const same = byEvidence.get(normalizeText(m.content));
    if (same) {
      out.set(m.id, same);
      continue;
    }
    const entry = bySource.get(episodeIdFor(m.scope, m.id));
    if (!entry) continue;
    const own = contentWords(m.content);
    if (own.length > 0 && own.every((w) => entry.words.has(w))) out.set(m.id, entry.lines);
  }
  return out;
}
