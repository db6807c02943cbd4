import { describe, expect, it } from 'vitest';
import { StrataError } from '../errors/strata-error.ts';
import {
  isInSubtree,
  isVisible,
  normalizeScope,
  parseScope,
  type Scope,
  scopeColumns,
  tenantOf,
  visibilityFilter,
} from './scope.ts';

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
      org: ['acme'],
      user: ['', 'a'],
      agent: [''],
      thread: ['', 't1'],
    });
    expect(visibilityFilter({ userId: 'u', threadId: 't' })).toEqual({
      tenant: 'user:u',
      org: [''],
      user: ['u'],
      agent: [''],
      thread: ['', 't'],
    });
  });

  it('filters exactly the rows isVisible allows, for every pair of scopes', () => {
    const values = [undefined, 'x', 'y'];
    const scopes = values.flatMap((orgId) =>
      values.flatMap((userId) =>
        values.flatMap((agentId) =>
          values.flatMap((threadId) =>
            (orgId ?? userId ?? agentId ?? threadId)
              ? [normalizeScope({ orgId, userId, agentId, threadId })]
              : [],
          ),
        ),
      ),
    );
    const passes = (row: Scope, reader: Scope) => {
      const f = visibilityFilter(reader);
      const c = scopeColumns(row);
      return (
        c.tenant === f.tenant &&
        f.org.includes(c.org) &&
        f.user.includes(c.user) &&
        f.agent.includes(c.agent) &&
        f.thread.includes(c.thread)
      );
    };
    for (const reader of scopes) {
      for (const row of scopes)
        expect(passes(row, reader), JSON.stringify({ row, reader })).toBe(isVisible(row, reader));
    }
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
