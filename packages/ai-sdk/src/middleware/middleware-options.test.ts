import { StrataError } from '@strata-memory/core';
import { describe, expect, it } from 'vitest';
import { newMemory } from '../../test/memory-fixtures.ts';
import { strataMiddleware } from './strata-middleware.ts';

describe('strataMiddleware option errors', () => {
  it('a near-miss option suggests the option it meant', () => {
    let error: unknown;
    try {
      strataMiddleware({ memory: newMemory(), scpe: { userId: 'ada' } } as never);
    } catch (caught) {
      error = caught;
    }
    expect(StrataError.hasCode(error, 'invalid_input')).toBe(true);
    expect((error as Error).message).toContain('did you mean scope?');
    const details = StrataError.from(error)?.details as { issues: { suggestion?: string }[] } | undefined;
    expect(details?.issues[0]?.suggestion).toBe('scope');
  });
});
