import { describe, expect, it } from 'vitest';
import { STRATA_OPTIONS_KEY, strataProviderOptions } from './request-scope.ts';

describe('strataProviderOptions', () => {
  it('puts the set levels of a scope under the strata key', () => {
    expect(STRATA_OPTIONS_KEY).toBe('strata');
    expect(
      strataProviderOptions({ orgId: 'acme', userId: 'u1', agentId: undefined, threadId: 't1' }),
    ).toEqual({
      strata: { orgId: 'acme', userId: 'u1', threadId: 't1' },
    });
  });
});
