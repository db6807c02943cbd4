import { describe, expect, it } from 'vitest';
import { indexTexts, parseFieldPath } from './index-text.ts';

const texts = (document: Record<string, unknown>, ...fields: string[]) =>
  indexTexts(
    document,
    fields.map((f) => parseFieldPath(f, 'test')),
  );

describe('indexTexts', () => {
  const doc = {
    title: 'Q4 report',
    meta: { author: 'Ada', year: 2025, draft: false, note: null },
    tags: ['finance', 'quarterly'],
    chapters: [{ title: 'Revenue', pages: 3 }, { title: 'Costs' }],
  };

  it('renders the whole document as path: value lines', () => {
    expect(texts(doc, '$')).toEqual([
      [
        'title: Q4 report',
        'meta.author: Ada',
        'meta.year: 2025',
        'meta.draft: false',
        'tags: finance, quarterly',
        'chapters[0].title: Revenue',
        'chapters[0].pages: 3',
        'chapters[1].title: Costs',
      ].join('\n'),
    ]);
  });

  it('selects fields, nested fields and list elements', () => {
    expect(texts(doc, 'title')).toEqual(['title: Q4 report']);
    expect(texts(doc, 'meta.author', 'meta.missing')).toEqual(['meta.author: Ada']);
    expect(texts(doc, 'chapters[*].title')).toEqual([
      'chapters[0].title: Revenue',
      'chapters[1].title: Costs',
    ]);
    expect(texts(doc, 'chapters[-1].title', 'tags[0]')).toEqual([
      'chapters[1].title: Costs',
      'tags[0]: finance',
    ]);
    expect(texts(doc, 'chapters[5].title', 'title[0]')).toEqual([]);
    expect(texts({ text: '   ' }, '$')).toEqual([]);
  });

  it('rejects syntax it does not support', () => {
    for (const field of ['', 'a..b', '{a,b}', 'a[x]', '*', 'a.*']) {
      expect(() => parseFieldPath(field, 'test')).toThrow(/unsupported index field/);
    }
  });
});
