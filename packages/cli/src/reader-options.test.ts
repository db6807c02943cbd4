import { InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import { integerOption, listOption, unitOption } from './reader-options.ts';

describe('option parsers', () => {
  it('integerOption accepts whole numbers in range and refuses the rest as a usage error', () => {
    const parse = integerOption(1, 10);
    expect(parse('1')).toBe(1);
    expect(parse('10')).toBe(10);
    for (const value of ['0', '11', '2.5', 'lots', '']) {
      expect(() => parse(value), value).toThrow(InvalidArgumentError);
    }
  });

  it('unitOption accepts 0 to 1 only', () => {
    expect(unitOption('0')).toBe(0);
    expect(unitOption('0.75')).toBe(0.75);
    for (const value of ['-0.1', '1.5', 'high', ' ']) {
      expect(() => unitOption(value), value).toThrow(InvalidArgumentError);
    }
  });

  it('listOption splits on commas and drops empty items', () => {
    expect(listOption('fact.insert, review.add,,')).toEqual(['fact.insert', 'review.add']);
  });
});
