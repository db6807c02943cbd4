import { describe, expect, it } from 'vitest';
import { Params } from './params.ts';
import { exactScopeSql, subtreeSql, visibleByIdSql, visibleSql, visibleUsers } from './scope-filter.ts';

describe('visibleSql', () => {
  it('lets a thread read its own level and every ancestor, never a sibling', () => {
    const p = new Params();
    const sql = visibleSql({ orgId: 'acme', userId: 'ann', threadId: 't1' }, p);
    // Every row of tenant org:acme has org_id acme: the tenant's own level is never unset.
    expect(sql).toBe(
      "tenant_id = $1 AND org_id = $2 AND user_id IN ('', $3) AND agent_id = '' AND thread_id IN ('', $4)",
    );
    expect(p.values).toEqual(['org:acme', 'acme', 'ann', 't1']);
  });

  it('requires unset levels of the reader to be unset on the row', () => {
    const p = new Params();
    expect(visibleSql({ userId: 'u' }, p, 'e')).toBe(
      "e.tenant_id = $1 AND e.org_id = '' AND e.user_id = $2 AND e.agent_id = '' AND e.thread_id = ''",
    );
    expect(p.values).toEqual(['user:u', 'u']);
  });

  it('finds rows by id with the tenant and the ids in the key, the levels where no index serves them', () => {
    const p = new Params();
    expect(visibleByIdSql({ orgId: 'acme', userId: 'ann' }, ['a', 'b'], p, 'e')).toBe(
      "e.tenant_id = $1 AND e.id = ANY($2::text[]) AND (e.org_id = $3 AND e.user_id IN ('', $4) AND e.agent_id = '' AND e.thread_id = '') IS TRUE",
    );
    expect(p.values).toEqual(['org:acme', ['a', 'b'], 'acme', 'ann']);
    const one = new Params();
    expect(visibleByIdSql({ userId: 'u' }, 'x', one)).toBe(
      "tenant_id = $1 AND id = $2 AND (org_id = '' AND user_id = $3 AND agent_id = '' AND thread_id = '') IS TRUE",
    );
  });

  it('narrows a read to one of the user-level values it sees, one branch of a search split by user', () => {
    const scope = { orgId: 'acme', userId: 'ann', threadId: 't1' };
    expect(visibleUsers(scope)).toEqual(['', 'ann']);
    // The tenant's root is never unset: a user-rooted reader sees its own user only.
    expect(visibleUsers({ userId: 'ann', threadId: 't1' })).toEqual(['ann']);
    expect(visibleUsers({ orgId: 'acme' })).toEqual(['']);
    const above = new Params();
    expect(visibleSql(scope, above, undefined, '')).toBe(
      "tenant_id = $1 AND org_id = $2 AND user_id = '' AND agent_id = '' AND thread_id IN ('', $3)",
    );
    const own = new Params();
    expect(visibleSql(scope, own, 'w', 'ann')).toBe(
      "w.tenant_id = $1 AND w.org_id = $2 AND w.user_id = $3 AND w.agent_id = '' AND w.thread_id IN ('', $4)",
    );
    expect(own.values).toEqual(['org:acme', 'acme', 'ann', 't1']);
  });

  it('never splices values into the SQL text', () => {
    const p = new Params();
    const sql = visibleSql({ userId: "x' OR '1'='1" }, p);
    expect(sql).not.toContain('OR');
    expect(p.values).toContain("x' OR '1'='1");
  });
});

describe('subtreeSql and exactScopeSql', () => {
  it('subtree matches the levels set and leaves the others free', () => {
    const p = new Params();
    expect(subtreeSql({ orgId: 'acme', userId: 'ann' }, p)).toBe(
      'tenant_id = $1 AND org_id = $2 AND user_id = $3',
    );
    expect(p.values).toEqual(['org:acme', 'acme', 'ann']);
  });

  it('exact scope pins all five columns', () => {
    const p = new Params();
    expect(exactScopeSql({ agentId: 'a' }, p)).toBe(
      'tenant_id = $1 AND org_id = $2 AND user_id = $3 AND agent_id = $4 AND thread_id = $5',
    );
    expect(p.values).toEqual(['agent:a', '', '', 'a', '']);
  });
});
