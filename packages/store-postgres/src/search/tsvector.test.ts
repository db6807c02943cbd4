import { describe, expect, it } from 'vitest';
import { anyTermQuery, documentVector, queryTerms } from './tsvector.ts';

const query = (text: string) => anyTermQuery(queryTerms(text));

describe('documentVector', () => {
  it('lists each term once with its word positions', () => {
    expect(documentVector('payment terms: payment due')).toEqual({
      vector: "'payment':1,3 'term':2 'due':4",
      length: 4,
      lexemes: ['payment', 'term', 'due'],
    });
  });

  it('is empty for text without terms', () => {
    expect(documentVector('the, of and...')).toEqual({ vector: '', length: 0, lexemes: [] });
  });

  it('keeps at most 256 positions per lexeme and clamps positions at 16383', () => {
    const { vector, length } = documentVector(Array.from({ length: 20_000 }, () => 'alpha').join(' '));
    expect(length).toBe(20_000);
    const positions = vector.slice("'alpha':".length).split(',');
    expect(positions).toHaveLength(256);
    expect(Number(positions[255])).toBe(256);
    const long = documentVector(`${'filler '.repeat(16_400)}omega`).vector;
    expect(long).toContain("'omega':16383");
  });
});

describe('anyTermQuery', () => {
  it('turns plain text into an OR of quoted terms', () => {
    expect(query('lead time for Supplier X')).toBe("'lead' | 'time' | 'supplier' | 'x'");
  });

  it('treats operator characters as text, never as syntax', () => {
    expect(query(`"quoted" OR -neg* & !bang | (paren) <-> 'x':*`)).toBe(
      "'quot' | 'neg' | 'bang' | 'paren' | 'x'",
    );
  });

  it('returns undefined when nothing searchable is left', () => {
    expect(query('the of and')).toBeUndefined();
    expect(query('!!! ---')).toBeUndefined();
    expect(query('')).toBeUndefined();
  });

  it('repeats each term once', () => {
    expect(query('net net net terms')).toBe("'net' | 'term'");
  });
});
