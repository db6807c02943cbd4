import { contentWords } from '../text/terms.ts';
import { splitSentences } from '../working/extractive-summarizer.ts';
import { findProtectedLiterals, type ProtectedLiteral } from '../working/protected-literals.ts';

/**
 * The rolling summary as recall shows it: whole sentences, each kept or left out, never cut.
 *
 * A summary line is `Speaker: sentence sentence …` (the extractive summarizer's form) or free
 * text; each line is split into sentences, and a line is shown with the sentences still kept
 * (its speaker label first). A sentence is *protected* when it carries a literal (number, amount,
 * date, name) that no current fact holds: memory keeps such literals word for word, so when the
 * summary must shrink, unprotected sentences go first, and protected ones only when nothing else
 * is left to trim (bare numbers before names, names before amounts, dates and codes).
 */

export interface SummarySentence {
  /** Index in `SummaryView.sentences` (oldest first). */
  index: number;
  /** The summary line it belongs to. */
  line: number;
  text: string;
  /** Carries a literal that no current fact holds. */
  protected: boolean;
  /**
   * How much is lost if it goes: 0 unprotected; for a protected sentence, its strongest unstored
   * literal: 1 a bare number, 2 a name, 3 an amount, a date or a code.
   */
  weight: number;
  /** Query terms it holds (0 without a query). */
  relevance: number;
  /**
   * Stands in for a recalled episode that it repeats word for word (the episode is then left out):
   * kept like a protected sentence.
   */
  anchored: boolean;
  /** Its normalised words, for matching against episodes. */
  key: string;
}

export interface SummaryView {
  /** Per summary line, its speaker label (`Maria`) or '' for free text. */
  labels: string[];
  sentences: SummarySentence[];
}

/** `Speaker: …` at the start of a line: a short label without sentence punctuation. */
const LABEL = /^([^\s:.!?][^:.!?\n]{0,59}): (.+)$/u;

/**
 * Splits a summary into lines and sentences and marks the protected ones. `heldByFacts` tells
 * whether a literal is stored as a current fact.
 */
export function summaryView(
  summary: string,
  heldByFacts: (literal: string) => boolean,
  query?: string,
): SummaryView {
  const queryTerms = new Set(query ? contentWords(query) : []);
  const labels: string[] = [];
  const sentences: SummarySentence[] = [];
  for (const raw of summary.split('\n')) {
    const line = raw.trim();
    if (line.length === 0) continue;
    const match = LABEL.exec(line);
    const label = match ? match[1]! : '';
    const body = match ? match[2]! : line;
    const lineIndex = labels.length;
    labels.push(label);
    for (const text of splitSentences(body)) {
      let weight = 0;
      for (const literal of findProtectedLiterals(text)) {
        if (!heldByFacts(literal.text)) weight = Math.max(weight, literalWeight(literal));
      }
      let relevance = 0;
      if (queryTerms.size > 0)
        for (const term of new Set(contentWords(text))) if (queryTerms.has(term)) relevance++;
      sentences.push({
        index: sentences.length,
        line: lineIndex,
        text,
        protected: weight > 0,
        weight,
        relevance,
        anchored: false,
        key: sentenceKey(text),
      });
    }
  }
  return { labels, sentences };
}

/** The summary lines holding the `kept` sentences (unescaped), each with its label. */
export function summaryLines(view: SummaryView, kept: ReadonlySet<number>): string[] {
  const lines: string[] = [];
  let current = -1;
  for (const s of view.sentences) {
    if (!kept.has(s.index)) continue;
    if (s.line === current) lines[lines.length - 1] += ` ${s.text}`;
    else {
      const label = view.labels[s.line]!;
      lines.push(label ? `${label}: ${s.text}` : s.text);
      current = s.line;
    }
  }
  return lines;
}

/**
 * Which sentence to drop next when the summary must shrink: unprotected sentences first, then,
 * only when `protectedToo`, protected and anchored ones, weakest literal first (an anchored
 * sentence counts as a name at least); within each, the one sharing fewest terms with the query,
 * then the oldest.
 */
export function nextToDrop(
  view: SummaryView,
  kept: ReadonlySet<number>,
  protectedToo: boolean,
): SummarySentence | undefined {
  let best: SummarySentence | undefined;
  let bestWeight = 0;
  for (const s of view.sentences) {
    if (!kept.has(s.index) || ((s.protected || s.anchored) && !protectedToo)) continue;
    const weight = s.anchored ? Math.max(2, s.weight) : s.weight;
    if (!best || weight < bestWeight || (weight === bestWeight && s.relevance < best.relevance)) {
      best = s;
      bestWeight = weight;
    }
  }
  return best;
}

function literalWeight(literal: ProtectedLiteral): number {
  if (literal.kind === 'amount' || literal.kind === 'date') return 3;
  if (literal.kind === 'number') return /\p{L}/u.test(literal.text) ? 3 : 1;
  return 2;
}

/** Lower-case words of a sentence joined by single spaces: how sentences are matched across layers. */
export function sentenceKey(text: string): string {
  return (
    text
      .normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu)
      ?.join(' ') ?? ''
  );
}
