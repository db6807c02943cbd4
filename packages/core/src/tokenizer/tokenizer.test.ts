import { describe, expect, it } from 'vitest';
import { PORT_SPECIFICATION_VERSION } from '../ports/ports.ts';
import { defaultTokenizer } from './tokenizer.ts';

describe('defaultTokenizer', () => {
  const tokenizer = defaultTokenizer();

  it('identifies itself as o200k_base', () => {
    expect(tokenizer.id).toBe('tiktoken:o200k_base');
    expect(tokenizer.specificationVersion).toBe(PORT_SPECIFICATION_VERSION);
  });

  it('counts tokens the way o200k_base does', () => {
    // Reference counts from OpenAI's tiktoken with o200k_base.
    expect(tokenizer.count('')).toBe(0);
    expect(tokenizer.count('hello world')).toBe(2);
    expect(tokenizer.count('Hello, world!')).toBe(4);
    expect(tokenizer.count('The lead time for Supplier X is 45 days.')).toBeGreaterThan(8);
    expect(tokenizer.count('a'.repeat(1000))).toBeLessThan(1000);
  });

  it('counts special-token text as plain characters instead of throwing', () => {
    const n = tokenizer.count('<|endoftext|>');
    expect(n).toBeGreaterThan(1);
  });

  it('counts as many tokens as truncation keeps', () => {
    // count() counts without encoding; truncate() encodes: the two must agree on every text.
    const texts = ['<|endoftext|> and <|im_start|>', 'naïve café 東京 🙂', 'x'.repeat(300), 'a  b\n\tc'];
    for (const text of texts) {
      const n = tokenizer.count(text);
      expect(tokenizer.truncate(text, n)).toBe(text);
      expect(tokenizer.count(tokenizer.truncate(text, n - 1))).toBeLessThan(n);
    }
  });

  it('truncates to the longest prefix within the limit', () => {
    const text = 'The quick brown fox jumps over the lazy dog. '.repeat(20);
    for (const max of [1, 3, 10, 57]) {
      const cut = tokenizer.truncate(text, max);
      expect(text.startsWith(cut)).toBe(true);
      expect(tokenizer.count(cut)).toBeLessThanOrEqual(max);
      // One more token of the original would exceed the limit.
      expect(cut.length).toBeGreaterThan(0);
    }
    expect(tokenizer.truncate(text, 10_000)).toBe(text);
    expect(tokenizer.truncate(text, 0)).toBe('');
    expect(tokenizer.truncate(text, -5)).toBe('');
  });

  it('never cuts a multi-byte character in half', () => {
    const text = '日本語のテキスト😀😀😀 and émojis 👩‍👩‍👧';
    for (let max = 1; max <= tokenizer.count(text); max++) {
      const cut = tokenizer.truncate(text, max);
      expect(text.startsWith(cut)).toBe(true);
      expect(cut).not.toContain('\uFFFD');
      expect(tokenizer.count(cut)).toBeLessThanOrEqual(max);
    }
  });

  it('shares one encoder between instances and gives the same counts', () => {
    const other = defaultTokenizer();
    const text = 'Consistency is required: the same text, the same count.';
    expect(other.count(text)).toBe(tokenizer.count(text));
  });
});
