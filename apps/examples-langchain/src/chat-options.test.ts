import { StrataError } from '@strata-memory/core';
import { describe, expect, it } from 'vitest';
import { chatOptions } from './chat-options.ts';

describe('chat options', () => {
  it('reads the README command, with the -- that pnpm passes through', () => {
    const expected = { db: '/tmp/ada.db', user: 'ada' };
    expect(chatOptions(['--', '--user', 'ada', '--db', '/tmp/ada.db'])).toEqual(expected);
    expect(chatOptions(['--user', 'ada', '--db', '/tmp/ada.db'])).toEqual(expected);
    expect(chatOptions(['--session', 'monday'])).toEqual({
      db: '.strata/agent.db',
      user: 'me',
      session: 'monday',
    });
  });

  it('prints the usage for --help', () => {
    const printed: string[] = [];
    expect(chatOptions(['--help'], (text) => void printed.push(text))).toBeUndefined();
    expect(printed.join('')).toContain('--user <id>');
  });

  it('fails with invalid_input on an unknown option or a stray argument', () => {
    for (const argv of [['--usr', 'ada'], ['ada'], ['--user']]) {
      let caught: unknown;
      try {
        chatOptions(argv, () => {});
      } catch (error) {
        caught = error;
      }
      expect(StrataError.hasCode(caught, 'invalid_input')).toBe(true);
    }
  });
});
