import { describe, expect, it } from 'vitest';
import { evidenceSize, parseEvidence } from './evidence.ts';

const turns = new Set(['D1:3', 'D8:6', 'D9:17', 'D11:26']);

describe('parseEvidence', () => {
  it('keeps well-formed ids that name turns', () => {
    expect(parseEvidence(['D1:3', 'D8:6'], turns)).toEqual({ turns: ['D1:3', 'D8:6'], unresolved: [] });
  });

  it('splits an entry holding two ids on ";" and spaces ("D8:6; D9:17")', () => {
    expect(parseEvidence(['D8:6; D9:17'], turns)).toEqual({ turns: ['D8:6', 'D9:17'], unresolved: [] });
    expect(parseEvidence(['D8:6 D9:17'], turns)).toEqual({ turns: ['D8:6', 'D9:17'], unresolved: [] });
    expect(parseEvidence(['D8:6;D9:17;'], turns)).toEqual({ turns: ['D8:6', 'D9:17'], unresolved: [] });
  });

  it('counts malformed ids ("D:11:26", "D") and unknown turns as unresolved', () => {
    const evidence = parseEvidence(['D:11:26', 'D', 'D10:19', 'D1:3'], turns);
    expect(evidence).toEqual({ turns: ['D1:3'], unresolved: ['D:11:26', 'D', 'D10:19'] });
    expect(evidenceSize(evidence)).toBe(4);
  });

  it('counts a repeated id once', () => {
    expect(evidenceSize(parseEvidence(['D1:3', 'D1:3; D8:6', ' D8:6 '], turns))).toBe(2);
  });

  it('gives an empty evidence list size 0', () => {
    expect(evidenceSize(parseEvidence([], turns))).toBe(0);
    expect(evidenceSize(parseEvidence(['', ' ; '], turns))).toBe(0);
  });
});
