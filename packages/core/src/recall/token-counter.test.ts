import { describe, expect, it } from 'vitest';
import { PORT_SPECIFICATION_VERSION, type Tokenizer } from '../ports/ports.ts';
import { seededRandom } from '../test/index.ts';
import { defaultTokenizer } from '../tokenizer/tokenizer.ts';
import { TokenCounter } from './token-counter.ts';

// Pieces chosen to stress the pre-tokenizer at line ends and starts: punctuation runs, digits,
// contractions, trailing spaces, slashes, CJK, emoji, a carriage return, markup the block escapes.
const PIECES = [
  'Caroline',
  "it's",
  "we'll",
  ' ',
  '  ',
  '.',
  '...',
  '!?',
  '-',
  '- [2023-05-08]',
  ':',
  '4,200',
  '$',
  '12345',
  '/',
  '//',
  '漢字',
  '👍🏽',
  'é',
  '&amp;',
  '⏎',
  '\r',
  '\t',
  'Relevant past episodes:',
  '</memory>',
];

/** A line starting with a piece that is neither whitespace nor a slash, then anything. */
function line(next: () => number): string {
  const starts = PIECES.filter((p) => !/^[\s/]/u.test(p));
  let text = starts[Math.floor(next() * starts.length)]!;
  const parts = Math.floor(next() * 6);
  for (let i = 0; i < parts; i++) text += PIECES[Math.floor(next() * PIECES.length)];
  return text;
}

describe('TokenCounter.countLines', () => {
  const tokenizer = defaultTokenizer();
  /** The default tokenizer, recording every text it is asked to count in `seen`. */
  const recording = (seen: string[]): Tokenizer => ({
    ...tokenizer,
    count: (text) => {
      seen.push(text);
      return tokenizer.count(text);
    },
  });

  it('equals counting the joined text, for every block of lines the default tokenizer declares separable', () => {
    const next = seededRandom(7);
    const counted: string[] = [];
    const spy = recording(counted);
    for (let block = 0; block < 400; block++) {
      const lines = Array.from({ length: 2 + Math.floor(next() * 8) }, () => line(next));
      counted.length = 0;
      const sum = new TokenCounter(spy).countLines(lines);
      // Counted line by line, never as a whole...
      expect(counted).not.toContain(lines.join('\n'));
      // ...and still the whole text's count.
      expect(sum, JSON.stringify(lines)).toBe(tokenizer.count(lines.join('\n')));
    }
  });

  it('adds cached line counts for a separable block and counts the whole text otherwise', () => {
    const seen: string[] = [];
    const spy = recording(seen);
    const counter = new TokenCounter(spy);
    const block = ['<memory>', 'Facts:', '- supplier x · lead time: 30 days', '</memory>'];
    const expected = tokenizer.count(block.join('\n'));
    expect(counter.countLines(block)).toBe(expected);
    expect(seen).toEqual(['<memory>\n', 'Facts:\n', '- supplier x · lead time: 30 days\n', '</memory>']);
    seen.length = 0;
    expect(counter.countLines(block)).toBe(expected);
    expect(seen).toEqual([]);

    // A line starting with whitespace or a slash, or an empty line, can merge with the break before it.
    for (const odd of [' indented', '/path', '']) {
      seen.length = 0;
      const lines = ['Facts:', odd, 'end'];
      expect(counter.countLines(lines)).toBe(tokenizer.count(lines.join('\n')));
      expect(seen).toEqual([lines.join('\n')]);
    }
  });

  it('counts whole blocks for a tokenizer that does not declare itself line separable', () => {
    const seen: string[] = [];
    const words: Tokenizer = {
      specificationVersion: PORT_SPECIFICATION_VERSION,
      id: 'words',
      count: (text) => {
        seen.push(text);
        return text.split(/\s+/).filter(Boolean).length;
      },
      truncate: (text) => text,
    };
    const counter = new TokenCounter(words);
    expect(counter.countLines(['a b', 'c'])).toBe(3);
    expect(seen).toEqual(['a b\nc']);
    expect(counter.countLines([])).toBe(0);
  });
});
