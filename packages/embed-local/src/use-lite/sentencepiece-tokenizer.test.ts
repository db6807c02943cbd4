import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { sentencePieceTokenizer, type Vocabulary } from './sentencepiece-tokenizer.ts';
import { USE_LITE_WEIGHTS_PACKAGE } from './weights-package.ts';

// Ids 0..5 are reserved, as in the real vocabulary.
const reserved: Vocabulary = [
  ['<unk>', 0],
  ['<s>', 0],
  ['</s>', 0],
  ['x1', 0],
  ['x2', 0],
  ['x3', 0],
];

describe('sentencePieceTokenizer', () => {
  it('picks the most likely segmentation, not the greedy longest match', () => {
    const vocabulary: Vocabulary = [
      ...reserved,
      ['▁ab', -1], // 6
      ['c', -1], // 7
      ['▁a', -1], // 8
      ['bc', -0.5], // 9
      ['▁abc', -5], // 10
      // Single symbols, unlikely, so every position is reachable (as in a real vocabulary).
      ['▁', -10],
      ['a', -10],
      ['b', -10],
    ];
    const tokenizer = sentencePieceTokenizer(vocabulary);
    // ▁a + bc = -1.5 beats ▁ab + c = -2 and ▁abc = -5.
    expect(tokenizer.encode('abc')).toEqual([8, 9]);
  });

  it('marks word starts with ▁, applies NFKC, and never emits reserved ids', () => {
    const vocabulary: Vocabulary = [...reserved, ['▁', -2], ['▁fi', -1], ['▁a', -1], ['<s>', -0.1]];
    const tokenizer = sentencePieceTokenizer(vocabulary);
    // "ﬁ" (U+FB01) normalises to "fi"; the space becomes "▁".
    expect(tokenizer.encode('\uFB01 a')).toEqual([7, 8]);
    // "<s>" is reserved id 1 and also piece 9: only the non-reserved id can come out.
    expect(tokenizer.encode('<s>')).not.toContain(1);
  });

  it('maps uncovered characters to id 0 and merges a run of them', () => {
    const vocabulary: Vocabulary = [...reserved, ['▁a', -1], ['▁', -3]];
    const tokenizer = sentencePieceTokenizer(vocabulary);
    expect(tokenizer.encode('a')).toEqual([6]);
    expect(tokenizer.encode('a 😀😀')).toEqual([6, 7, 0]);
    expect(tokenizer.encode('')).toEqual([]);
  });

  it('segments real text into pieces that spell it back', () => {
    const require = createRequire(import.meta.url);
    const vocabPath = require.resolve(`${USE_LITE_WEIGHTS_PACKAGE}/dist/vocab.json`);
    const vocabulary = JSON.parse(readFileSync(vocabPath, 'utf8')) as Vocabulary;
    const tokenizer = sentencePieceTokenizer(vocabulary);
    const text = 'I went to a support group yesterday and it was so powerful.';
    const ids = tokenizer.encode(text);
    expect(ids.length).toBeGreaterThan(5);
    expect(ids.every((id) => id >= 6 && id < vocabulary.length)).toBe(true);
    expect(ids.map((id) => vocabulary[id]![0]).join('')).toBe(`▁${text.replaceAll(' ', '▁')}`);
  });

  it('keeps the first maxTokens ids of a long text without segmenting all of it', () => {
    const require = createRequire(import.meta.url);
    const vocabPath = require.resolve(`${USE_LITE_WEIGHTS_PACKAGE}/dist/vocab.json`);
    const tokenizer = sentencePieceTokenizer(JSON.parse(readFileSync(vocabPath, 'utf8')) as Vocabulary);
    const long = 'Caroline researched adoption agencies and counselling programmes. '.repeat(400);
    const full = tokenizer.encode(long);
    expect(full.length).toBeGreaterThan(2000);
    expect(tokenizer.encode(long, 37)).toEqual(full.slice(0, 37));
    expect(tokenizer.encode('short text', 100)).toEqual(tokenizer.encode('short text'));
  });
});
