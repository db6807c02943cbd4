import { StrataError } from '@strata-memory/core';
import { describe, expect, it } from 'vitest';
import { parseScopeOption, resolveRunScope } from './run-scope.ts';

const WHERE = 'test';

function code(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    if (StrataError.isInstance(error)) return error.code;
    throw error;
  }
  return undefined;
}

describe('resolveRunScope', () => {
  it('takes levels from the context and the thread from configurable.thread_id', () => {
    const scope = resolveRunScope(
      {},
      { context: { userId: 'u1', unrelated: 3 }, configurable: { thread_id: 't1' } },
      WHERE,
    );
    expect(scope).toEqual({ userId: 'u1', threadId: 't1' });
  });

  it('adds the run’s levels to a bound scope', () => {
    const option = parseScopeOption({ orgId: 'acme' }, WHERE);
    expect(resolveRunScope(option, { context: { userId: 'u1' } }, WHERE)).toEqual({
      orgId: 'acme',
      userId: 'u1',
    });
    expect(resolveRunScope(option, {}, WHERE)).toEqual({ orgId: 'acme' });
  });

  it('never lets a run change a bound level', () => {
    const option = parseScopeOption({ orgId: 'acme', userId: 'u1' }, WHERE);
    expect(code(() => resolveRunScope(option, { context: { userId: 'u2' } }, WHERE))).toBe('invalid_scope');
    expect(code(() => resolveRunScope(option, { context: { orgId: 'other' } }, WHERE))).toBe('invalid_scope');
  });

  it('fails without any scope, with a malformed level, or with two different threads', () => {
    expect(code(() => resolveRunScope({}, {}, WHERE))).toBe('invalid_scope');
    expect(code(() => resolveRunScope({}, { context: { userId: 42 } }, WHERE))).toBe('invalid_scope');
    expect(code(() => resolveRunScope({}, { context: { userId: '' } }, WHERE))).toBe('invalid_scope');
    expect(
      code(() =>
        resolveRunScope(
          {},
          { context: { userId: 'u', threadId: 'a' }, configurable: { thread_id: 'b' } },
          WHERE,
        ),
      ),
    ).toBe('invalid_scope');
  });

  it('uses a scope function’s result as the whole scope, validated', () => {
    const option = parseScopeOption(
      ({ context }: { context?: unknown }) => ({ userId: (context as { user_id: string }).user_id }),
      WHERE,
    );
    expect(resolveRunScope(option, { context: { user_id: 'u9' } }, WHERE)).toEqual({ userId: 'u9' });
    expect(
      code(() =>
        resolveRunScope(
          parseScopeOption(() => undefined, WHERE),
          {},
          WHERE,
        ),
      ),
    ).toBe('invalid_scope');
    expect(
      code(() =>
        resolveRunScope(
          parseScopeOption(() => ({ teamId: 'x' }), WHERE),
          {},
          WHERE,
        ),
      ),
    ).toBe('invalid_scope');
  });

  it('rejects a malformed bound scope at construction', () => {
    expect(code(() => parseScopeOption({}, WHERE))).toBe('invalid_scope');
    expect(code(() => parseScopeOption({ userId: 'u', extra: 1 }, WHERE))).toBe('invalid_scope');
  });
});
