import { StrataError } from '@strata-memory/core';
import { describe, expect, it } from 'vitest';
import { parseBoundScope, resolveScope } from './request-scope.ts';

const resolve = (bound: Parameters<typeof resolveScope>[0]['bound'], request: unknown) =>
  resolveScope({ bound, request, where: 'test', requestArgument: 'providerOptions.strata' });

function scopeError(fn: () => unknown): StrataError {
  try {
    fn();
  } catch (error) {
    if (StrataError.hasCode(error, 'invalid_scope')) return error;
    throw error;
  }
  throw new Error('expected an invalid_scope error');
}

describe('resolveScope', () => {
  it('uses the bound scope when the request has none', () => {
    expect(resolve({ userId: 'u1' }, undefined)).toEqual({ userId: 'u1' });
  });

  it('uses the request scope when nothing is bound', () => {
    expect(resolve(undefined, { userId: 'u1', threadId: 't1' })).toEqual({ userId: 'u1', threadId: 't1' });
  });

  it('lets a request add levels the bound scope leaves unset', () => {
    expect(resolve({ orgId: 'acme' }, { userId: 'u1', threadId: 't1' })).toEqual({
      orgId: 'acme',
      userId: 'u1',
      threadId: 't1',
    });
  });

  it('accepts a request repeating a bound level with the same value', () => {
    expect(resolve({ orgId: 'acme' }, { orgId: 'acme', userId: 'u1' })).toEqual({
      orgId: 'acme',
      userId: 'u1',
    });
  });

  it('refuses a request that changes a bound level', () => {
    const error = scopeError(() => resolve({ orgId: 'acme', userId: 'u1' }, { userId: 'u2' }));
    expect(error.message).toContain('providerOptions.strata.userId');
    expect(error.details).toEqual({ level: 'userId' });
  });

  it('fails without any scope instead of using a default tenant', () => {
    const error = scopeError(() => resolve(undefined, undefined));
    expect(error.message).toContain('no scope for this request');
  });

  it('rejects a malformed request scope', () => {
    scopeError(() => resolve(undefined, {}));
    scopeError(() => resolve(undefined, { userId: '' }));
    scopeError(() => resolve(undefined, { userId: 'u1', tenant: 'x' }));
    scopeError(() => resolve(undefined, 'u1'));
  });
});

describe('parseBoundScope', () => {
  it('validates a bound scope up front', () => {
    expect(parseBoundScope(undefined, 'test')).toBeUndefined();
    expect(parseBoundScope({ userId: 'u1', agentId: undefined }, 'test')).toEqual({ userId: 'u1' });
    scopeError(() => parseBoundScope({ userId: 'a\u0000b' }, 'test'));
  });
});
