import { describe, expect, it } from 'vitest';
import { analyzeText, ENGLISH_STOP_WORDS } from './keyword-analyzer.ts';

describe('keyword analyzer', () => {
  it('lower-cases, drops stop words and Porter-stems English words', () => {
    expect(analyzeText('The Suppliers were shipping the Payments')).toEqual(['supplier', 'ship', 'payment']);
  });

  it('gives a word and its inflections the same term', () => {
    expect(analyzeText('running runs run')).toEqual(['run', 'run', 'run']);
    expect(analyzeText('connection connected connecting')).toEqual(['connect', 'connect', 'connect']);
  });

  it('treats operator characters and quotes as separators, never as syntax', () => {
    expect(analyzeText('"lead time" OR -supplier* NEAR(x y) col:value')).toEqual([
      'lead',
      'time',
      'supplier',
      'near',
      'x',
      'col',
      'valu',
    ]);
  });

  it('keeps numbers and folds Latin diacritics', () => {
    expect(analyzeText('Café 4,200 naïve')).toEqual(['cafe', '4', '200', 'naiv']);
  });

  it('indexes Han and Kana one character per term, Hangul and Arabic by word', () => {
    expect(analyzeText('東京の会社')).toEqual(['東', '京', 'の', '会', '社']);
    expect(analyzeText('안녕 세계')).toEqual(['안녕', '세계']);
    expect(analyzeText('مرحبا بالعالم')).toEqual(['مرحبا', 'بالعالم']);
  });

  it('reads ASCII text the same way with or without non-ASCII characters beside it', () => {
    const text = 'Shipping: 3 INVOICES, net-30 terms (draft) for ACME_corp';
    expect(analyzeText(`${text} ü`)).toEqual([...analyzeText(text), 'u']);
  });

  it('returns no terms for punctuation, emoji or stop words alone', () => {
    expect(analyzeText('')).toEqual([]);
    expect(analyzeText('!!! 🎉 ... "*"')).toEqual([]);
    expect(analyzeText('the and of to')).toEqual([]);
    expect(ENGLISH_STOP_WORDS.has('the')).toBe(true);
  });
});
