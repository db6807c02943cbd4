import { afterEach, describe, expect, it, vi } from 'vitest';
import { StrataError } from '../errors/strata-error.ts';
import { type MemoryErrorEvent, memoryFailurePolicy } from './failure-policy.ts';

const scope = { userId: 'u1' };
const outage = () => new StrataError({ code: 'store_unavailable', message: 'store is down' });
const fail = (error: unknown) => async () => {
  throw error;
};

afterEach(() => {
  vi.restoreAllMocks();
});

describe('memoryFailurePolicy', () => {
  it('continue (default): a failed recall is reported and yields undefined; a good one its result', async () => {
    const events: MemoryErrorEvent[] = [];
    const policy = memoryFailurePolicy({ reportError: (event) => events.push(event) });
    expect(policy.onError).toBe('continue');
    expect(await policy.recall(scope, async () => 'context')).toBe('context');
    expect(await policy.recall(scope, fail(outage()))).toBeUndefined();
    expect(events).toEqual([{ phase: 'recall', error: expect.any(StrataError), scope }]);
  });

  it('throw: a failed recall fails the call with the engine error', async () => {
    const policy = memoryFailurePolicy({ onError: 'throw', reportError: () => {} });
    await expect(policy.recall(scope, fail(outage()))).rejects.toSatisfy((e) =>
      StrataError.hasCode(e, 'store_unavailable'),
    );
  });

  it('a scope error fails the call under either policy', async () => {
    const events: MemoryErrorEvent[] = [];
    const policy = memoryFailurePolicy({ reportError: (event) => events.push(event) });
    for (const code of ['invalid_scope', 'not_found'] as const) {
      await expect(policy.recall(scope, fail(new StrataError({ code, message: code })))).rejects.toSatisfy(
        (e) => StrataError.hasCode(e, code),
      );
    }
    expect(events).toEqual([]);
  });

  it('a failed observation is reported, never thrown, even under throw', async () => {
    const events: MemoryErrorEvent[] = [];
    const policy = memoryFailurePolicy({ onError: 'throw', reportError: (event) => events.push(event) });
    await policy.observe(scope, fail(outage()));
    await policy.observe(undefined, fail(new StrataError({ code: 'invalid_scope', message: 'no scope' })));
    expect(events.map((e) => [e.phase, 'scope' in e])).toEqual([
      ['observe', true],
      ['observe', false],
    ]);
  });

  it('warns by default, and warns about a reporter that throws instead of breaking the call', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    await memoryFailurePolicy().recall(scope, fail(outage()));
    expect(String(warn.mock.calls[0]![0])).toBe(
      '[strata-memory] recall failed; the call went on without memory: store is down',
    );
    await memoryFailurePolicy({
      reportError: () => {
        throw new Error('reporter bug');
      },
    }).observe(scope, fail(outage()));
    expect(String(warn.mock.calls[1]![0])).toContain('reporter bug');
  });

  it('validates its options', () => {
    expect(() => memoryFailurePolicy({ onError: 'ignore' as never }, 'strataMiddleware')).toThrow(/onError/);
    expect(() => memoryFailurePolicy({ reportError: 'log' as never })).toThrow(StrataError);
  });
});
