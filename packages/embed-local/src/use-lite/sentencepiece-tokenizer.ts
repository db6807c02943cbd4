/**
 * The unigram SentencePiece tokenizer that Universal Sentence Encoder lite was trained with, as
 * TensorFlow.js ships it (`@tensorflow-models/universal-sentence-encoder`, Apache-2.0): NFKC,
 * spaces become `▁`, then a Viterbi search over the vocabulary's log-probabilities picks the most
 * likely segmentation. Characters no piece covers become the unknown id 0 (runs of them merge).
 */

/** `[piece, log-probability]`, indexed by token id, as in the weights package's `vocab.json`. */
export type Vocabulary = ReadonlyArray<readonly [string, number]>;

const WORD_START = '\u2581';
/** Ids 0..5 are `<unk>`, `<s>`, `</s>` and three extra ids: never produced by matching text. */
const RESERVED_IDS = 6;
const UNKNOWN_ID = 0;

interface TrieNode {
  children: Map<string, TrieNode>;
  /** Token id when a piece ends here. */
  id: number;
  score: number;
  /** Length of the piece in code points. */
  length: number;
}

function trieNode(): TrieNode {
  return { children: new Map(), id: -1, score: 0, length: 0 };
}

export interface SentencePieceTokenizer {
  readonly vocabularySize: number;
  /**
   * Token ids of `text`; with `maxTokens`, only the first `maxTokens` (the same ids as the full
   * encoding's first ones, found without segmenting the whole of a long text).
   */
  encode(text: string, maxTokens?: number): number[];
}

export function sentencePieceTokenizer(vocabulary: Vocabulary): SentencePieceTokenizer {
  const root = trieNode();
  let longestPiece = 1;
  for (let id = RESERVED_IDS; id < vocabulary.length; id++) {
    const [piece, score] = vocabulary[id]!;
    const symbols = Array.from(piece);
    longestPiece = Math.max(longestPiece, symbols.length);
    let node = root;
    for (const symbol of symbols) {
      let next = node.children.get(symbol);
      if (next === undefined) {
        next = trieNode();
        node.children.set(symbol, next);
      }
      node = next;
    }
    node.id = id;
    node.score = score;
    node.length = symbols.length;
  }

  function encode(text: string, maxTokens = Number.POSITIVE_INFINITY): number[] {
    const ids = segment(prefixFor(text, maxTokens));
    return ids.length > maxTokens ? ids.slice(0, maxTokens) : ids;
  }

  // Pieces never cross a space (only a leading ▁ joins a piece), so each word segments on its own:
  // cutting a long text at a space past what `maxTokens` pieces can cover keeps the first ids intact.
  function prefixFor(text: string, maxTokens: number): string {
    const reach = maxTokens * longestPiece * 2; // two UTF-16 units per symbol at most
    if (!Number.isFinite(reach) || text.length <= reach) return text;
    const space = text.indexOf(' ', reach);
    return space === -1 ? text : text.slice(0, space);
  }

  function segment(text: string): number[] {
    const normalized = text.normalize('NFKC');
    if (normalized.length === 0) return [];
    const symbols = Array.from(WORD_START + normalized.replaceAll(' ', WORD_START));
    const n = symbols.length;
    // best[end]: the best total log-probability of a segmentation of symbols[0, end); 0 = none yet.
    const best = new Float64Array(n + 1);
    // A position no piece reaches falls back to one unknown symbol, as in the reference.
    const bestId = new Int32Array(n + 1).fill(UNKNOWN_ID);
    const bestLength = new Int32Array(n + 1).fill(1);
    // Pieces ending at each position, grouped by where they start (start ascending, as the lattice
    // of the reference implementation is walked).
    const ending: Array<Array<{ start: number; id: number; score: number; length: number }>> = Array.from(
      { length: n + 1 },
      () => [],
    );
    for (let start = 0; start < n; start++) {
      let node = root.children.get(symbols[start]!);
      let matched = false;
      for (let i = start; node !== undefined; ) {
        if (node.id >= 0) {
          ending[start + node.length]!.push({ start, id: node.id, score: node.score, length: node.length });
          matched = true;
        }
        i += 1;
        node = i < n ? node.children.get(symbols[i]!) : undefined;
      }
      if (!matched) ending[start + 1]!.push({ start, id: UNKNOWN_ID, score: 0, length: 1 });
    }
    for (let end = 1; end <= n; end++) {
      const pieces = ending[end]!.sort((a, b) => a.start - b.start);
      for (const piece of pieces) {
        const score = piece.score + best[end - piece.length]!;
        if (best[end] === 0 || score >= best[end]!) {
          best[end] = score;
          bestId[end] = piece.id;
          bestLength[end] = piece.length;
        }
      }
    }
    const reversed: number[] = [];
    for (let end = n; end > 0; end -= bestLength[end]!) reversed.push(bestId[end]!);
    const ids: number[] = [];
    let previousUnknown = false;
    for (let i = reversed.length - 1; i >= 0; i--) {
      const id = reversed[i]!;
      if (!(previousUnknown && id === UNKNOWN_ID)) ids.push(id);
      previousUnknown = id === UNKNOWN_ID;
    }
    return ids;
  }

  return { vocabularySize: vocabulary.length, encode };
}
