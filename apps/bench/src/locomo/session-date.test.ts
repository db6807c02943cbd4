import { StrataError } from '@strata-memory/core';
import { describe, expect, it } from 'vitest';
import { parseSessionDate } from './session-date.ts';

describe('parseSessionDate', () => {
  it('reads the dataset format as UTC', () => {
    expect(parseSessionDate('1:56 pm on 8 May, 2023')).toBe(Date.UTC(2023, 4, 8, 13, 56));
    expect(parseSessionDate('10:37 am on 27 June, 2023')).toBe(Date.UTC(2023, 5, 27, 10, 37));
    expect(parseSessionDate('4:04 pm on 20 January, 2023')).toBe(Date.UTC(2023, 0, 20, 16, 4));
  });

  it('maps 12 am to midnight and 12 pm to noon', () => {
    expect(parseSessionDate('12:09 am on 13 September, 2023')).toBe(Date.UTC(2023, 8, 13, 0, 9));
    expect(parseSessionDate('12:30 pm on 13 September, 2023')).toBe(Date.UTC(2023, 8, 13, 12, 30));
  });

  it('tolerates case, spacing, a missing comma, month abbreviations and leap days', () => {
    expect(parseSessionDate('  9:05 PM on 1 Dec 2022 ')).toBe(Date.UTC(2022, 11, 1, 21, 5));
    expect(parseSessionDate('9:05 p.m. on 1 Sept, 2022')).toBe(Date.UTC(2022, 8, 1, 21, 5));
    expect(parseSessionDate('1:00 am on 29 February, 2024')).toBe(Date.UTC(2024, 1, 29, 1, 0));
  });

  it.each([
    '',
    'yesterday',
    '13:56 pm on 8 May, 2023',
    '0:56 am on 8 May, 2023',
    '1:60 pm on 8 May, 2023',
    '1:56 pm on 31 April, 2023',
    '1:56 pm on 29 February, 2023',
    '1:56 pm on 0 May, 2023',
    '1:56 pm on 8 Ma, 2023',
    '1:56 pm on 8 Mayday, 2023',
    '1:56 on 8 May, 2023',
    '2023-05-08T13:56:00Z',
  ])('rejects %j with invalid_input', (text) => {
    let caught: unknown;
    try {
      parseSessionDate(text);
    } catch (error) {
      caught = error;
    }
    expect(StrataError.hasCode(caught, 'invalid_input')).toBe(true);
  });
});
