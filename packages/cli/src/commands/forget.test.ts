import { describe, expect, it } from 'vitest';
import { forgetScope } from './forget.ts';

describe('forgetScope', () => {
  it('builds the scope from level flags, or from --scope with flags added or overriding', () => {
    expect(forgetScope({ org: 'acme', user: 'maria' })).toEqual({ orgId: 'acme', userId: 'maria' });
    expect(forgetScope({ user: 'maria' })).toEqual({ userId: 'maria' });
    expect(forgetScope({ scope: 'org=acme', user: 'tom' })).toEqual({ orgId: 'acme', userId: 'tom' });
    expect(forgetScope({ scope: 'org=acme,user=maria', user: 'tom' })).toEqual({
      orgId: 'acme',
      userId: 'tom',
    });
  });

  it('refuses no scope at all, and a bad level value', () => {
    expect(() => forgetScope({})).toThrow(/--user/);
    expect(() => forgetScope({ yes: true })).toThrow(expect.objectContaining({ code: 'invalid_input' }));
    expect(() => forgetScope({ user: 'a,b' })).toThrow(expect.objectContaining({ code: 'invalid_input' }));
  });
});
