import { normalizeText } from '../store/normalize.ts';
import type { EpisodeRecord, MessageRecord } from '../store/records.ts';
import { splitSentences } from '../working/extractive-summarizer.ts';
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
