import { describe, expect, it } from 'vitest';
import { StrataError } from '../errors/strata-error.ts';
import { parseBoundScope, resolveRequestScope } from './request-scope.ts';

const where = 'strataMiddleware';
const requestArgument = 'providerOptions.strata';

function scopeError(fn: () => unknown): StrataError {
  try {
    fn();
  } catch (error) {
    if (StrataError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a StrataError');
}

describe('resolveRequestScope', () => {
  it('adds the levels a request names to the bound scope', () => {
    expect(
      resolveRequestScope({
        bound: { orgId: 'acme' },
        request: { userId: 'u1', threadId: 't1' },
        where,
        requestArgument,
      }),
    ).toEqual({ orgId: 'acme', userId: 'u1', threadId: 't1' });
    expect(
      resolveRequestScope({ bound: { orgId: 'acme' }, request: { orgId: 'acme' }, where, requestArgument }),
    ).toEqual({
      orgId: 'acme',
    });
  });

  it('uses the bound scope alone, or the request alone', () => {
    expect(
      resolveRequestScope({ bound: { userId: 'u1' }, request: undefined, where, requestArgument }),
    ).toEqual({
      userId: 'u1',
    });
    expect(
      resolveRequestScope({ bound: undefined, request: { userId: 'u2' }, where, requestArgument }),
    ).toEqual({
      userId: 'u2',
    });
  });

  it('refuses a request that changes a bound level, names no scope, or is malformed', () => {
    const changed = scopeError(() =>
      resolveRequestScope({ bound: { orgId: 'acme' }, request: { orgId: 'other' }, where, requestArgument }),
    );
    expect(changed.code).toBe('invalid_scope');
    expect(changed.message).toContain('providerOptions.strata.orgId differs');
    expect(changed.details).toEqual({ level: 'orgId' });
    const none = scopeError(() =>
      resolveRequestScope({ bound: undefined, request: null, where, requestArgument }),
    );
    expect(none.code).toBe('invalid_scope');
    expect(none.message).toMatch(/^strataMiddleware: no scope/);
    expect(
      scopeError(() =>
        resolveRequestScope({ bound: undefined, request: { teamId: 'x' }, where, requestArgument }),
      ).code,
    ).toBe('invalid_scope');
    expect(
      scopeError(() => resolveRequestScope({ bound: undefined, request: {}, where, requestArgument })).code,
    ).toBe('invalid_scope');
  });
});

describe('parseBoundScope', () => {
  it('validates a bound scope at construction', () => {
    expect(parseBoundScope(undefined, where)).toBeUndefined();
    expect(parseBoundScope({ orgId: 'acme', userId: undefined }, where)).toEqual({ orgId: 'acme' });
    expect(scopeError(() => parseBoundScope({}, where)).message).toContain('strataMiddleware: scope');
  });
});
