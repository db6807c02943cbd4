import { describe, expect, it } from 'vitest';
import type { Memory } from '../engine/types.ts';
import { createMemory } from '../memory/create-memory.ts';
import type { Scope } from '../scope/scope.ts';
import { memoryStore } from '../store/memory/memory-store.ts';
import type { EpisodeRecord } from '../store/records.ts';
import { manualClock, testEmbedder } from '../test/index.ts';
import { outdatedFactsOf } from './outdated-episodes.ts';

const maria: Scope = { orgId: 'acme', userId: 'maria' };
const session = (threadId: string): Scope => ({ ...maria, threadId });
const leadTime = { entity: 'Supplier X', key: 'lead time' };

function setup() {
  const clock = manualClock('2026-03-02T09:00:00Z');
  const store = memoryStore();
  return { clock, store, memory: createMemory({ store, clock, embedder: testEmbedder() }) };
}

async function episodeSaying(memory: Memory, text: string): Promise<EpisodeRecord> {
  const all = await memory.store.episodes.list({
    scope: maria,
    status: ['active', 'merged', 'archived'],
    limit: 1000,
  });
  const found = all.items.find((e) => e.text === text);
  if (!found) throw new Error(`no episode says "${text}"`);
  return found;
}

/** `[stated value, current value]` of each marker, for one episode. */
async function markersOf(memory: Memory, text: string): Promise<Array<[unknown, unknown]>> {
  return outdatedFactsOf(await episodeSaying(memory, text)).map((m) => [m.statedValue, m.currentValue]);
}

describe('outdated-episode markers', () => {
  it('carry what recall needs to say "lead time is now 30 days" after a correction via facts.correct', async () => {
    const { memory, clock } = setup();
    await memory.observe(session('s1'), {
      id: 'm1',
      role: 'user',
      content: "Supplier X's lead time is 45 days.",
    });
    clock.advanceDays(2);
    const { fact, previous } = await memory.facts.correct(maria, {
      ...leadTime,
      value: '30 days',
      principal: { id: 'maria' },
    });
    const [marker] = outdatedFactsOf(await episodeSaying(memory, "Supplier X's lead time is 45 days."));
    expect(marker).toEqual({
      factId: previous!.id,
      entityType: 'entity',
      entityId: 'supplier x',
      key: 'lead time',
      statedValue: '45 days',
      currentFactId: fact.id,
      currentValue: '30 days',
      supersededAt: clock.now(),
      corrected: true,
    });
  });

  it('are set when an approved what-if supersedes a fact', async () => {
    const { memory } = setup();
    await memory.observe(session('s1'), { role: 'user', content: 'Construction suppliers are paid net 60.' });
    const { review } = await memory.observe(session('s2'), {
      role: 'user',
      content: 'What if we extended terms to 90 days?',
    });
    expect(await markersOf(memory, 'Construction suppliers are paid net 60.')).toEqual([]);
    await memory.review.approve(maria, review[0]!.id, { principal: { id: 'cfo' } });
    expect(await markersOf(memory, 'Construction suppliers are paid net 60.')).toEqual([
      ['net 60', '90 days'],
    ]);
    // The what-if itself states the value that is now current.
    expect(await markersOf(memory, 'What if we extended terms to 90 days?')).toEqual([]);
  });

  it('cover every episode that restated the old value, not only the first', async () => {
    const { memory, clock } = setup();
    await memory.observe(session('s1'), { role: 'user', content: "Supplier X's lead time is 45 days." });
    clock.advanceDays(1);
    const restated = await memory.observe(session('s2'), {
      role: 'user',
      content: 'The lead time for Supplier X is 45 days.',
    });
    expect(restated.facts.confirmed).toHaveLength(1);
    clock.advanceDays(1);
    await memory.observe(session('s3'), {
      role: 'user',
      content: 'No, the lead time is actually 30 days, not 45.',
    });
    expect(await markersOf(memory, "Supplier X's lead time is 45 days.")).toEqual([['45 days', '30 days']]);
    expect(await markersOf(memory, 'The lead time for Supplier X is 45 days.')).toEqual([
      ['45 days', '30 days'],
    ]);
    expect(await markersOf(memory, 'No, the lead time is actually 30 days, not 45.')).toEqual([]);
  });

  it('follow later changes, and go away when the stated value is current again', async () => {
    const { memory, clock } = setup();
    await memory.observe(session('s1'), { role: 'user', content: "Supplier X's lead time is 45 days." });
    clock.advanceDays(1);
    await memory.observe(session('s2'), { role: 'user', content: "Supplier X's lead time is 30 days." });
    const firstSupersede = clock.now();
    clock.advanceDays(1);
    await memory.observe(session('s3'), { role: 'user', content: "Supplier X's lead time is 20 days." });
    expect(await markersOf(memory, "Supplier X's lead time is 45 days.")).toEqual([['45 days', '20 days']]);
    expect(await markersOf(memory, "Supplier X's lead time is 30 days.")).toEqual([['30 days', '20 days']]);
    // The first caveat keeps when the value it states stopped being current.
    const [first] = outdatedFactsOf(await episodeSaying(memory, "Supplier X's lead time is 45 days."));
    expect(first!.supersededAt).toBe(firstSupersede);
    expect(first!.corrected).toBe(false);

    clock.advanceDays(1);
    await memory.facts.remember(maria, { ...leadTime, value: '45 days' });
    expect(await markersOf(memory, "Supplier X's lead time is 45 days.")).toEqual([]);
    expect(await markersOf(memory, "Supplier X's lead time is 30 days.")).toEqual([['30 days', '45 days']]);
    expect(await markersOf(memory, "Supplier X's lead time is 20 days.")).toEqual([['20 days', '45 days']]);
  });

  it('are removed when the fact is forgotten', async () => {
    const { memory } = setup();
    await memory.observe(session('s1'), { role: 'user', content: "Supplier X's lead time is 45 days." });
    const { fact } = await memory.facts.correct(maria, { ...leadTime, value: '30 days' });
    expect(await markersOf(memory, "Supplier X's lead time is 45 days.")).toHaveLength(1);
    expect(await memory.forgetItem(maria, fact.id)).toEqual({ deleted: true, layer: 'facts' });
    const episode = await episodeSaying(memory, "Supplier X's lead time is 45 days.");
    expect(outdatedFactsOf(episode)).toEqual([]);
    expect(JSON.stringify(episode.metadata)).not.toContain('30 days');
  });

  it('reach the episode a source was merged into', async () => {
    const { memory, store } = setup();
    await memory.observe(session('s1'), { role: 'user', content: "Supplier X's lead time is 45 days." });
    const source = await episodeSaying(memory, "Supplier X's lead time is 45 days.");
    // As consolidation would: the source merged into an equivalent episode.
    const [kept] = await store.episodes.put({
      episodes: [
        {
          id: 'ep_kept',
          scope: maria,
          text: 'Supplier X lead time: 45 days',
          occurredAt: source.occurredAt + 1,
          provenance: { source: 'observation', at: source.occurredAt + 1 },
        },
      ],
    });
    await store.episodes.update({
      scope: maria,
      id: source.id,
      patch: { status: 'merged', mergedInto: kept!.id },
    });
    await memory.facts.correct(maria, { ...leadTime, value: '30 days' });
    expect(await markersOf(memory, 'Supplier X lead time: 45 days')).toEqual([['45 days', '30 days']]);
  });

  it('ignore entries that are not markers', () => {
    const episode = {
      metadata: {
        outdatedFacts: { fact_old: 'fact_new', fact_bad: { factId: 'fact_bad' } },
        other: 1,
      },
    };
    expect(outdatedFactsOf(episode)).toEqual([]);
    expect(outdatedFactsOf({ metadata: {} })).toEqual([]);
    expect(outdatedFactsOf({ metadata: { outdatedFacts: ['x'] } })).toEqual([]);
  });
});
