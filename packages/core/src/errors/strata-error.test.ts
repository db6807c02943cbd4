import { describe, expect, it } from 'vitest';
import { invalidInput, StrataError } from './strata-error.ts';

describe('StrataError.from / hasCode', () => {
  it('finds the error itself', () => {
    const error = invalidInput('bad');
    expect(StrataError.from(error)).toBe(error);
    expect(StrataError.hasCode(error, 'invalid_input')).toBe(true);
    expect(StrataError.hasCode(error, 'not_found')).toBe(false);
  });

  it('sees through errors that wrap it as their cause, as frameworks do', () => {
    const inner = new StrataError({ code: 'invalid_scope', message: 'scope is required' });
    const wrapped = new Error('middleware failed', { cause: new Error('step failed', { cause: inner }) });
    wrapped.name = 'StrataError'; // a wrapper may copy the name without being one
    expect(StrataError.isInstance(wrapped)).toBe(false);
    expect(StrataError.from(wrapped)).toBe(inner);
    expect(StrataError.hasCode(wrapped, 'invalid_scope')).toBe(true);
  });

  it('is undefined for other errors, non-errors and cause cycles', () => {
    const a = new Error('a');
    const b = new Error('b', { cause: a });
    (a as { cause?: unknown }).cause = b;
    expect(StrataError.from(a)).toBeUndefined();
    expect(StrataError.from('text')).toBeUndefined();
    expect(StrataError.from(null)).toBeUndefined();
    expect(StrataError.hasCode(new Error('x'), 'internal')).toBe(false);
  });
});
