import { describe, expect, it } from 'vitest';
import { StrataError } from '../errors/strata-error.ts';
import { createMemory } from '../memory/create-memory.ts';
import type { Scope } from '../scope/scope.ts';
import { memoryStore } from '../store/memory/memory-store.ts';
import { manualClock } from '../test/index.ts';

const job: Scope = { orgId: 'acme', agentId: 'inbox-bot' };

function setup() {
  const clock = manualClock();
  const store = memoryStore();
  return { clock, store, memory: createMemory({ store, clock }) };
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (StrataError.isInstance(error)) return error.code;
    throw error;
  }
  return 'resolved';
}

describe('state checkpoints', () => {
  it('sets, reads, versions and deletes a checkpoint', async () => {
    const { memory } = setup();
    expect(await memory.state.get(job, 'cursor')).toBeNull();
    const first = await memory.state.set(job, 'cursor', { lastUid: 41 });
    expect(first).toMatchObject({ key: 'cursor', value: { lastUid: 41 }, version: 1 });
    const second = await memory.state.set(job, 'cursor', { lastUid: 57 }, { expectedVersion: 1 });
    expect(second.version).toBe(2);
    expect(await codeOf(memory.state.set(job, 'cursor', { lastUid: 60 }, { expectedVersion: 1 }))).toBe(
      'conflict',
    );
    expect((await memory.state.get(job, 'cursor'))!.value).toEqual({ lastUid: 57 });
    expect(await memory.state.delete(job, 'cursor')).toBe(true);
    expect(await memory.state.delete(job, 'cursor')).toBe(false);
  });

  it('rejects bad keys, values and scopes', async () => {
    const { memory } = setup();
    expect(await codeOf(memory.state.set(job, '', 1))).toBe('invalid_input');
    expect(await codeOf(memory.state.set(job, 'k', Number.NaN as never))).toBe('invalid_input');
    expect(await codeOf(memory.state.get({} as Scope, 'k'))).toBe('invalid_scope');
  });
});

describe('idempotency ledger', () => {
  it('claims a key once; a done key is never claimed again, even after its lease', async () => {
    const { memory, clock } = setup();
    const first = await memory.ledger.claim(job, 'msg_abc123', { owner: 'run-1', leaseMs: 60_000 });
    expect(first.claimed).toBe(true);
    expect((await memory.ledger.claim(job, 'msg_abc123', { owner: 'run-2' })).claimed).toBe(false);
    await memory.ledger.complete(job, 'msg_abc123', { owner: 'run-1', result: { archived: true } });
    clock.advanceDays(30);
    const later = await memory.ledger.claim(job, 'msg_abc123', { owner: 'run-3' });
    expect(later).toMatchObject({ claimed: false, entry: { status: 'done', result: { archived: true } } });
  });

  it('lets another owner take over a claim whose lease expired, and release() frees a claim', async () => {
    const { memory, clock } = setup();
    await memory.ledger.claim(job, 'k', { owner: 'crashed', leaseMs: 1_000 });
    expect((await memory.ledger.claim(job, 'k', { owner: 'next' })).claimed).toBe(false);
    clock.advance(1_001);
    expect((await memory.ledger.claim(job, 'k', { owner: 'next' })).claimed).toBe(true);
    expect(await memory.ledger.release(job, 'k', { owner: 'someone-else' })).toBe(false);
    expect(await memory.ledger.release(job, 'k', { owner: 'next' })).toBe(true);
    expect((await memory.ledger.claim(job, 'k', { owner: 'third' })).claimed).toBe(true);
  });

  it('once() runs a handler only the first time and returns the stored result afterwards', async () => {
    const { memory } = setup();
    let runs = 0;
    const handle = async () => {
      runs += 1;
      return { archived: 'msg_abc123' };
    };
    expect(await memory.ledger.once(job, 'msg_abc123', handle)).toEqual({
      ran: true,
      result: { archived: 'msg_abc123' },
    });
    expect(await memory.ledger.once(job, 'msg_abc123', handle)).toEqual({
      ran: false,
      result: { archived: 'msg_abc123' },
    });
    expect(runs).toBe(1);
  });

  it('once() releases the claim when the handler throws, so a later run retries', async () => {
    const { memory } = setup();
    await expect(
      memory.ledger.once(job, 'k', async () => {
        throw new Error('IMAP timeout');
      }),
    ).rejects.toThrow('IMAP timeout');
    const retry = await memory.ledger.once(job, 'k', async () => 'ok');
    expect(retry).toEqual({ ran: true, result: 'ok' });
  });

  it('once() never runs a key twice for concurrent callers', async () => {
    const { memory } = setup();
    let runs = 0;
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        memory.ledger.once(job, 'msg_1', async () => {
          runs += 1;
          await new Promise((resolve) => setTimeout(resolve, 5));
          return runs;
        }),
      ),
    );
    expect(runs).toBe(1);
    expect(results.filter((r) => r.ran)).toHaveLength(1);
  });

  it('rejects a non-JSON handler result, releasing the claim', async () => {
    const { memory } = setup();
    expect(await codeOf(memory.ledger.once(job, 'k', async () => (() => 1) as never))).toBe('invalid_input');
    expect((await memory.ledger.claim(job, 'k', { owner: 'x' })).claimed).toBe(true);
  });
});
