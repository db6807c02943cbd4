import { describe, expect, it } from 'vitest';
import { estimateImportance } from './importance.ts';

describe('estimateImportance', () => {
  const filler = [
    'hi',
    'Hello there!',
    'thanks',
    'Thank you so much!',
    'ok',
    'sounds good',
    'lol',
    'yes',
    'Good morning team',
  ];
  it.each(filler)('scores greeting or filler %j at the floor', (text) => {
    expect(estimateImportance(text)).toBe(0.05);
  });

  const ordered: Array<[lower: string, higher: string]> = [
    ['I had lunch today.', 'We decided to ship on May 3.'],
    ['The meeting went fine.', 'The invoice is $4,200.'],
    ['Let us talk later.', 'I prefer email for updates.'],
    ['That makes sense to me.', 'No, the lead time is actually 30 days, not 45.'],
    ['we talked about the project', 'We talked with Maria about the project'],
    ['hi', 'can you check it?'],
  ];
  it.each(ordered)('ranks %j below %j', (lower, higher) => {
    expect(estimateImportance(lower)).toBeLessThan(estimateImportance(higher));
  });

  it('is deterministic and stays within 0.05..1', () => {
    const text = 'We decided on May 3 that Maria pays $4,200 (12%) by Friday; I prefer net 30, always.';
    expect(estimateImportance(text)).toBe(estimateImportance(text));
    expect(estimateImportance(text)).toBeLessThanOrEqual(1);
    expect(estimateImportance(text)).toBeGreaterThan(0.8);
    expect(estimateImportance('')).toBe(0.05);
  });
});
