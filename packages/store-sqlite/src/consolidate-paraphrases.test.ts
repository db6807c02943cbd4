import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemory, type Memory, modelExtractor, type Scope } from '@strata-memory/core';
import {
  AISLE_SEAT_CONTROLS,
  AISLE_SEAT_PARAPHRASES,
  manualClock,
  scriptedModel,
} from '@strata-memory/core/test';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sqliteStore } from './index.ts';

const ada: Scope = { orgId: 'acme', userId: 'ada' };
const bob: Scope = { orgId: 'acme', userId: 'bob' };
const carol: Scope = { orgId: 'acme', userId: 'carol' };
const carolTrip: Scope = { ...carol, threadId: 'trip' };
const MINUTE = 60_000;

let folder: string;
let memory: Memory | undefined;

beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'strata-paraphrases-'));
});
afterEach(async () => {
  await memory?.close();
  memory = undefined;
  rmSync(folder, { recursive: true, force: true });
});

/**
 * A model that reads seat preferences the way an LLM would: any statement naming the aisle or the
 * window is the speaker's seat preference, a name is the speaker's name, a question is hypothetical.
 */
function seatModel() {
  return scriptedModel(({ prompt }) => {
    const text = prompt.slice(prompt.indexOf('NEW MESSAGES:'));
    const hypothetical = text.includes('?');
    const fact = (key: string, value: string) => ({
      message: 1,
      entityType: 'user',
      entity: 'speaker',
      key,
      value,
      confidence: hypothetical ? 0.3 : 0.9,
      kind: hypothetical ? 'hypothetical' : 'statement',
      evidence: text,
    });
    const facts = [];
    if (/aisle/i.test(text)) facts.push(fact('seat preference', 'aisle'));
    if (/window/i.test(text)) facts.push(fact('seat preference', 'window'));
    const name = /my name is (\w+)/i.exec(text);
    if (name) facts.push(fact('name', name[1]!));
    return JSON.stringify({ facts, entities: [], relations: [] });
  });
}

/** Observes each text as its own turn, a minute apart; returns the episode id of each. */
async function observeEach(
  target: Memory,
  scope: Scope,
  texts: readonly string[],
  clock: { advance(ms: number): void },
): Promise<string[]> {
  const ids: string[] = [];
  for (const content of texts) {
    clock.advance(MINUTE);
    const result = await target.observe(scope, { role: 'user', content });
    expect(result.episodes).toHaveLength(1);
    ids.push(result.episodes[0]!.id);
  }
  return ids;
}

function setup(extractor?: ReturnType<typeof modelExtractor>) {
  const clock = manualClock('2026-06-01T09:00:00Z');
  const store = sqliteStore({ path: join(folder, 'memory.db') });
  memory = createMemory({ store, clock, ...(extractor ? { extractor } : {}) });
  return { clock, store, memory };
}

describe('consolidation merges paraphrases that state the same fact', () => {
  it('folds 30 paraphrases into one episode, keeps them as confirmations, and keeps distinct statements apart', async () => {
    const { memory, clock } = setup(modelExtractor({ model: seatModel() }));
    const adaTrip = { ...ada, threadId: 'trip' };
    const [twoFactsId] = await observeEach(memory, adaTrip, AISLE_SEAT_CONTROLS.twoFacts, clock);
    const [questionId] = await observeEach(memory, adaTrip, AISLE_SEAT_CONTROLS.question, clock);
    const paraphraseIds = await observeEach(memory, adaTrip, AISLE_SEAT_PARAPHRASES, clock);
    const [bobId] = await observeEach(memory, { ...bob, threadId: 'trip' }, ['I prefer aisle seats.'], clock);
    const carolIds = await observeEach(memory, carolTrip, AISLE_SEAT_CONTROLS.window, clock);

    const aisle = await memory.facts.get(ada, { entity: 'ada', key: 'seat preference' });
    const window = await memory.facts.get(carol, { entity: 'carol', key: 'seat preference' });
    expect(aisle?.value).toBe('aisle');
    expect(window?.value).toBe('window');

    const plan = await memory.consolidate({ scope: { orgId: 'acme' }, dryRun: true });
    const newestParaphrase = paraphraseIds.at(-1)!;
    const adaMerge = plan.merged.find((m) => m.keptId === newestParaphrase);
    expect([...(adaMerge?.mergedIds ?? [])].sort()).toEqual(paraphraseIds.slice(0, -1).sort());
    expect(adaMerge?.facts).toEqual([
      {
        id: aisle!.id,
        entityType: aisle!.entityType,
        entityId: 'ada',
        key: 'seat preference',
        value: 'aisle',
      },
    ]);
    const carolMerge = plan.merged.find((m) => m.keptId === carolIds.at(-1));
    expect(carolMerge?.mergedIds).toEqual(carolIds.slice(0, -1));
    expect(carolMerge?.facts.map((f) => f.value)).toEqual(['window']);
    expect(plan.merged).toHaveLength(2);
    const folded = plan.merged.flatMap((m) => [m.keptId, ...m.mergedIds]);
    for (const control of [twoFactsId, questionId, bobId]) expect(folded).not.toContain(control);
    expect(plan.auditIds).toEqual([]);
    expect(
      (await memory.store.episodes.list({ scope: adaTrip, status: ['merged'], limit: 100 })).items,
    ).toEqual([]);

    const report = await memory.consolidate({ scope: { orgId: 'acme' } });
    expect(report.merged).toEqual(plan.merged);
    const active = await memory.store.episodes.list({ scope: adaTrip, status: ['active'], limit: 100 });
    expect(active.items.map((e) => e.id).sort()).toEqual([twoFactsId, questionId, newestParaphrase].sort());
    const audit = await memory.audit.list(ada, { actions: ['episode.merge'] });
    const entry = audit.items.find((e) => e.subjectId === newestParaphrase);
    expect(entry?.details).toMatchObject({ mergedIds: adaMerge!.mergedIds, facts: adaMerge!.facts });

    const confirmations = await memory.facts.confirmationsOf(adaTrip, aisle!.id);
    const statedBy = [twoFactsId!, ...paraphraseIds];
    expect(confirmations.count).toBe(statedBy.length);
    expect(confirmations.sources.map((s) => s.episodeId).sort()).toEqual([...statedBy].sort());
    const firstAt = confirmations.sources.find((s) => s.episodeId === twoFactsId)?.occurredAt;
    const lastAt = confirmations.sources.find((s) => s.episodeId === newestParaphrase)?.occurredAt;
    expect(confirmations.firstSeenAt).toBe(firstAt);
    expect(confirmations.lastSeenAt).toBe(lastAt);
    const merged = confirmations.sources.filter((s) => s.status === 'merged');
    expect(merged.map((s) => s.episodeId).sort()).toEqual([...adaMerge!.mergedIds].sort());
    expect(merged.every((s) => s.mergedInto === newestParaphrase)).toBe(true);
    const bobFact = await memory.facts.get(bob, { entity: 'bob', key: 'seat preference' });
    expect((await memory.facts.confirmationsOf(bob, bobFact!.id)).count).toBe(1);
  });

  it('with the default offline extractor, merges only episodes that stated the same facts', async () => {
    const { memory, clock } = setup();
    const adaTrip = { ...ada, threadId: 'trip' };
    const ids = await observeEach(memory, adaTrip, AISLE_SEAT_PARAPHRASES, clock);
    const controls = await observeEach(memory, adaTrip, Object.values(AISLE_SEAT_CONTROLS).flat(), clock);
    // What each episode stated, as the facts' provenance records it.
    const stated = new Map<string, string[]>();
    for (const fact of await memory.facts.list(ada)) {
      for (const source of (await memory.facts.confirmationsOf(adaTrip, fact.id)).sources) {
        stated.set(source.episodeId, [...(stated.get(source.episodeId) ?? []), fact.id]);
      }
    }
    const report = await memory.consolidate({ scope: ada });
    for (const merge of report.merged) {
      const group = [merge.keptId, ...merge.mergedIds];
      const factIds = merge.facts.map((f) => f.id).sort();
      expect(factIds.length).toBeGreaterThan(0);
      for (const id of group) expect((stated.get(id) ?? []).sort()).toEqual(factIds);
    }
    const signatures = new Set(
      [...ids, ...controls].filter((id) => stated.has(id)).map((id) => stated.get(id)!.sort().join()),
    );
    const folded = report.merged.reduce((n, m) => n + m.mergedIds.length, 0);
    const withFacts = [...ids, ...controls].filter((id) => stated.has(id)).length;
    expect(folded).toBe(withFacts - signatures.size);
  });
});
