import { normalizeName } from '@strata-memory/core/store';
import { describe, expect, it } from 'vitest';
import { itemPath, parsePath } from './item-path.ts';

const labels = [
  'memories',
  'User 123',
  '  padded  ',
  'a/b',
  '100%',
  '"quoted"',
  '(brackets)',
  'ÜBER',
  'ﬁ ligature',
  'Ａ full width',
  '東京',
  '🙂',
  'tab\there',
  '...dots-inside...',
  '-_-',
];

describe('itemPath', () => {
  it('survives the engine’s name folding unchanged, so case and punctuation stay distinct', () => {
    for (const label of labels) {
      const path = itemPath(['ns', label], label);
      expect(normalizeName(path)).toBe(path);
      expect(parsePath(path)).toEqual({ namespace: ['ns', label], key: label });
    }
    expect(new Set(['Ada', 'ada', 'ADA'].map((k) => itemPath(['users'], k))).size).toBe(3);
  });

  it('keeps plain labels readable', () => {
    expect(itemPath(['users', 'user_123', 'memories'], '6f1c2b7e-2d4a')).toBe(
      'users/user_123/memories/6f1c2b7e-2d4a',
    );
    expect(itemPath(['Users'], 'a b')).toBe('%55sers/a%20b');
  });

  it('recognises only paths it made', () => {
    expect(parsePath('single')).toBeUndefined();
    expect(parsePath('a//b')).toBeUndefined();
    expect(parsePath('A/b')).toBeUndefined();
    expect(parsePath('a/%zz')).toBeUndefined();
  });
});
