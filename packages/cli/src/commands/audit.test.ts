import { describe, expect, it } from 'vitest';
import { parseSince } from './audit.ts';

describe('parseSince', () => {
  it('reads an ISO date or time as ms since the epoch', () => {
    expect(parseSince('2026-05-01')).toBe(Date.UTC(2026, 4, 1));
    expect(parseSince('2026-05-01T09:30:00Z')).toBe(Date.UTC(2026, 4, 1, 9, 30));
  });

  it('refuses anything else with invalid_input', () => {
    for (const value of ['yesterday', '5', '2026-13-45', '']) {
      expect(() => parseSince(value), value).toThrow(expect.objectContaining({ code: 'invalid_input' }));
    }
  });
});
