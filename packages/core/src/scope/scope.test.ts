import { describe, expect, it } from 'vitest';
import { StrataError } from '../errors/strata-error.ts';
import { isInSubtree, isVisible, parseScope, tenantOf, visibilityFilter } from './scope.ts';

describe('scope visibility', () => {
  const org = { orgId: 'acme' };
  const userA = { orgId: 'acme', userId: 'a' };
  const userB = { orgId: 'acme', userId: 'b' };
  const threadA = { orgId: 'acme', userId: 'a', threadId: 't1' };

  it('lets a scope see itself and its ancestors', () => {
    expect(isVisible(org, threadA)).toBe(true);
    expect(isVisible(userA, threadA)).toBe(true);
    expect(isVisible(threadA, threadA)).toBe(true);
  });

  it('never lets a scope see a sibling or a descendant', () => {
    expect(isVisible(userB, threadA)).toBe(false);
    expect(isVisible(threadA, userA)).toBe(false);
    expect(isVisible({ userId: 'a' }, userA)).toBe(false);
  });

  it('roots tenants at the first level set', () => {
    expect(tenantOf(threadA)).toBe('org:acme');
    expect(tenantOf({ userId: 'u', threadId: 't' })).toBe('user:u');
  });

  it('builds the SQL filter that matches isVisible', () => {
    const f = visibilityFilter(threadA);
    expect(f).toEqual({
      tenant: 'org:acme',
      org: ['', 'acme'],
      user: ['', 'a'],
      agent: [''],
      thread: ['', 't1'],
    });
  });

  it('matches subtrees for forget', () => {
    expect(isInSubtree(threadA, userA)).toBe(true);
    expect(isInSubtree(userB, userA)).toBe(false);
    expect(isInSubtree(org, userA)).toBe(false);
  });

  it('rejects empty and malformed scopes with invalid_scope', () => {
    for (const bad of [{}, { userId: '' }, { userId: 'a\u0000' }, { tenant: 'x' }, null]) {
      try {
        parseScope(bad);
        expect.unreachable(`accepted ${JSON.stringify(bad)}`);
      } catch (error) {
        expect(StrataError.hasCode(error, 'invalid_scope')).toBe(true);
      }
    }
  });
});
