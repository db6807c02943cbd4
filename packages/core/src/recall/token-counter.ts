import type { Tokenizer } from '../ports/ports.ts';

/** Texts kept per generation; the cache holds up to two generations. */
const GENERATION_SIZE = 20_000;

/**
 * Token counts of texts that recur between recalls (fact lines, episode lines, messages): each is
 * counted once while it stays in use. Two generations approximate least-recently-used eviction
 * in constant time: when the current one is full it becomes the previous one, and a text found
 * only in the previous one moves back to the current.
 */
export class TokenCounter {
  readonly #tokenizer: Tokenizer;
  #current = new Map<string, number>();
  #previous = new Map<string, number>();

  constructor(tokenizer: Tokenizer) {
    this.#tokenizer = tokenizer;
  }

  count(text: string): number {
    let n = this.#current.get(text);
    if (n !== undefined) return n;
    n = this.#previous.get(text) ?? this.#tokenizer.count(text);
    if (this.#current.size >= GENERATION_SIZE) {
      this.#previous = this.#current;
      this.#current = new Map();
    }
    this.#current.set(text, n);
    return n;
  }

  /**
   * Tokens of `lines` joined by line breaks. With a `lineSeparable` tokenizer and lines it holds
   * for, that is the sum of each line's count with its line break (the last without), each
   * remembered like any text; otherwise the joined text is counted.
   */
  countLines(lines: readonly string[]): number {
    if (lines.length === 0) return 0;
    if (!this.#tokenizer.lineSeparable || !lines.every(separable))
      return this.#tokenizer.count(lines.join('\n'));
    let total = 0;
    for (let i = 0; i < lines.length - 1; i++) total += this.count(`${lines[i]}\n`);
    return total + this.count(lines[lines.length - 1]!);
  }
}

/** A line that counts on its own after a line break: not empty, not starting with whitespace or `/`. */
function separable(line: string, index: number): boolean {
  return line.length > 0 && (index === 0 || !/^[\s/]/u.test(line));
}
