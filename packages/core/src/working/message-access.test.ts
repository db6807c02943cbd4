import { describe, expect, it } from 'vitest';
import { StrataError } from '../errors/strata-error.ts';
import { createMemory } from '../memory/create-memory.ts';
import type { Scope } from '../scope/scope.ts';
import { memoryStore } from '../store/memory/memory-store.ts';
import { manualClock } from '../test/index.ts';

/** The working buffer keeps to the reader's access level, like every other layer. */

const thread: Scope = { orgId: 'acme', userId: 'maria', threadId: 't1' };
const admin = { id: 'ops-lead', role: 'admin' };
const member = { id: 'maria', role: 'member' };
const SECRET = 'The acquisition of Globex closes on 12 March for $80M.';

function setup() {
  const clock = manualClock();
  const memory = createMemory({ store: memoryStore(), clock });
  return { clock, memory };
}

describe('working buffer access levels', () => {
  it('shows a turn observed with a minimum role only to readers at or above it', async () => {
    const { memory } = setup();
    await memory.observe(thread, [
      { role: 'user', content: 'What are the payment terms with Supplier X?' },
      { role: 'assistant', content: 'Supplier X is on net 60.' },
    ]);
    await memory.observe(thread, { role: 'user', content: SECRET, access: 'admin' }, { principal: admin });
    await memory.observe(thread, { role: 'user', content: 'Thanks, please draft the reminder.' });

    for (const reader of [undefined, member]) {
      const context = await memory.recall(thread, reader ? { principal: reader } : {});
      const working = context.sections.working.map((message) => message.content).join('\n');
      expect(working, reader?.role ?? 'no principal').toContain('net 60');
      expect(working).toContain('draft the reminder');
      expect(context.render()).not.toContain('Globex');
      expect(JSON.stringify(context.explain())).not.toContain('Globex');
    }
    const context = await memory.recall(thread, { principal: admin });
    expect(context.sections.working.map((message) => message.content).join('\n')).toContain('Globex');
  });

  it('never folds a restricted turn into the summary every reader of the thread sees', async () => {
    const { memory, clock } = setup();
    await memory.observe(thread, { role: 'user', content: SECRET, access: 'admin' }, { principal: admin });
    for (let i = 0; i < 40; i++) {
      clock.advance(60_000);
      await memory.observe(thread, {
        role: i % 2 === 0 ? 'user' : 'assistant',
        content: `Shipment ${i} of steel beams left the yard on time with invoice INV-${1000 + i}.`,
      });
    }
    // A small budget evicts the oldest turns into the rolling summary, for the admin and the member.
    for (const principal of [admin, member]) {
      const context = await memory.recall(thread, { principal, budget: { tokens: 300 } });
      expect(context.render(), principal.role).not.toContain('Globex');
    }
    const stored = await memory.store.threads.get({ scope: thread });
    expect(stored?.summary).toContain('INV-1000');
    expect(stored?.summary).not.toContain('Globex');
  });

  it('keeps the key that records a message level to the engine', async () => {
    const { memory } = setup();
    const error = await memory
      .observe(thread, { role: 'user', content: 'hi', metadata: { 'strata:accessLevel': 0 } })
      .catch((e: unknown) => e);
    expect(StrataError.hasCode(error, 'invalid_input')).toBe(true);
  });
});
