import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemory, type Memory, type Scope } from '@strata-memory/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sqliteStore } from './index.ts';

/**
 * What a user expects memory to hold after saying everyday sentences, with the default offline
 * extractor, on a real SQLite file: facts, their histories, graph edges and review items.
 */

const ada: Scope = { orgId: 'acme', userId: 'ada', threadId: 'notes' };

let folder: string;
let memory: Memory;

beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'strata-everyday-'));
  memory = createMemory({ store: sqliteStore({ path: join(folder, 'memory.db') }) });
});
afterEach(async () => {
  await memory.close();
  rmSync(folder, { recursive: true, force: true });
});

async function say(scope: Scope, ...turns: string[]): Promise<void> {
  for (const content of turns) {
    const result = await memory.observe(scope, { role: 'user', content });
    expect(result.extraction.ok).toBe(true);
  }
}

const speaker = (key: string) => ({ entityType: 'user', entity: 'ada', key });
const currentValue = async (scope: Scope, key: { entityType: string; entity: string; key: string }) =>
  (await memory.facts.get(scope, key))?.value;

describe('everyday sentences, remembered offline', () => {
  it("keeps the speaker's name, city and diet", async () => {
    await say(ada, 'My name is Ada and I live in Porto.', "I'm vegetarian.");
    expect(await currentValue(ada, speaker('name'))).toBe('Ada');
    expect(await currentValue(ada, speaker('home city'))).toBe('Porto');
    expect(await currentValue(ada, speaker('diet'))).toBe('vegetarian');
  });

  it('keeps a named project deadline', async () => {
    await say(ada, 'The Atlas project deadline is 14 April.');
    expect(await currentValue(ada, { entityType: 'entity', entity: 'atlas project', key: 'deadline' })).toBe(
      '14 April',
    );
  });

  it('keeps a cutoff corrected twice as one key with its history', async () => {
    await say(
      ada,
      'The shipping cutoff for the Berlin warehouse is 4 pm.',
      'Correction: the Berlin warehouse shipping cutoff is 3 pm, not 4 pm.',
      'Actually it changed again, the Berlin warehouse cutoff is now 2:30 pm.',
    );
    const facts = await memory.facts.list(ada);
    const cutoffs = facts.filter((f) => f.entityId === 'berlin warehouse');
    expect(cutoffs.map((f) => [f.key, f.value])).toEqual([['shipping cutoff', '2:30 pm']]);
    const history = await memory.facts.history(ada, {
      entityType: cutoffs[0]!.entityType,
      entity: 'berlin warehouse',
      key: 'shipping cutoff',
    });
    expect(history.map((f) => f.value)).toEqual(['4 pm', '3 pm', '2:30 pm']);
  });

  it("keeps a vendor's renewal schedule", async () => {
    await say(ada, "Vendor Orion's support contract renews on the first of each quarter.");
    expect(
      await currentValue(ada, { entityType: 'entity', entity: 'orion', key: 'support contract renews' }),
    ).toBe('the first of each quarter');
  });

  it('keeps a decision, and finds what breaks if the choice is dropped', async () => {
    await say(
      ada,
      'We chose NATS over Kafka for the event bus; billing and notifications depend on the event bus.',
    );
    const decision = { entityType: 'entity', entity: 'event bus', key: 'decision' };
    expect(await currentValue(ada, decision)).toBe('NATS');
    const impact = await memory.graph.impact(ada, { node: { name: 'NATS' }, maxHops: 3 });
    expect(impact.affected.map((a) => a.node.name).sort()).toEqual(['billing', 'event bus', 'notifications']);
  });

  it('sends statements without an owner, questions and plans to review with their sentence', async () => {
    const sentences = [
      'The acquisition target is Initech.',
      'The deadline is 14 April.',
      'Is the Lisbon offsite budget $40,000?',
      'We plan to move the all-hands to Thursdays next quarter.',
    ];
    await say(ada, ...sentences);
    expect(await memory.facts.list(ada)).toEqual([]);
    const pending = await memory.review.list(ada, { status: ['pending'] });
    expect(pending.map((r) => [r.proposal.value, r.proposal.evidence])).toEqual([
      ['Initech', sentences[0]],
      ['14 April', sentences[1]],
      ['$40,000', sentences[2]],
      ['Thursdays', sentences[3]],
    ]);
  });
});
