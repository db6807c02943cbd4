import { describe, expect, it } from 'vitest';
import { StrataError } from '../errors/strata-error.ts';
import { createMemory } from '../memory/create-memory.ts';
import type { Scope } from '../scope/scope.ts';
import { memoryStore } from '../store/memory/memory-store.ts';
import { manualClock } from '../test/index.ts';
import { keysMatch, sameSlot } from './fact-references.ts';

const maria: Scope = { orgId: 'acme', userId: 'maria' };
const session = (threadId: string): Scope => ({ ...maria, threadId });
const terms = { entity: 'construction suppliers', key: 'payment terms' };

function setup() {
  const clock = manualClock('2026-03-02T09:00:00Z');
  return { clock, memory: createMemory({ store: memoryStore(), clock }) };
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

describe('keysMatch: one key ends with the other, word for word', () => {
  const cases: Array<[string, string, boolean]> = [
    ['terms', 'payment terms', true],
    ['payment terms', 'terms', true],
    ['term', 'payment terms', true],
    ['time', 'lead time', true],
    ['lead time', 'lead time', true],
    ['lead times', 'lead time', true],
    ['delivery time', 'lead time', false],
    ['terms', 'payment terms and conditions', false],
    ['pay', 'payment terms', false],
    ['rms', 'payment terms', false],
    ['', 'payment terms', false],
    ['birthday', 'son birthday', false],
    ['home city', 'older sister home city', false],
  ];
  it.each(cases)('%s ↔ %s: %s', (stated, stored, expected) => {
    expect(keysMatch(stated, stored)).toBe(expected);
  });
});

describe('sameSlot: a correction names a stored slot with its words split another way', () => {
  const stored = (entityId: string, key: string) => ({ entityType: 'entity', entityId, key });
  const cases: Array<[string, string, string, string, boolean]> = [
    ['shorts jury', 'chaired by', 'northlight', 'shorts jury chaired by', true],
    ['northlight', 'shorts jury chaired by', 'shorts jury', 'chaired by', true],
    ['northlight', 'opening night', 'northlight film festival', 'opening night', true],
    ['board', 'chaired by', 'co-op board', 'chaired by', true],
    // Ending the same way as a key is not enough: the shorter must reach into the owner's name.
    ['jury', 'chaired by', 'northlight', 'shorts jury chaired by', true],
    ['acme', 'chaired by', 'northlight', 'shorts jury chaired by', false],
    ['globex', 'opening night', 'northlight film festival', 'opening night', false],
    ['northlight', 'opening night', 'northlight', 'opening night', false],
    ['', 'budget', 'orion', 'budget', false],
  ];
  it.each(cases)('%s · %s ↔ %s · %s: %s', (entityId, key, storedEntity, storedKey, expected) => {
    expect(sameSlot({ entityId, key }, stored(storedEntity, storedKey))).toBe(expected);
  });

  it("lets a correction that shortens the owner's name supersede the fact, keeping its history", async () => {
    const { memory, clock } = setup();
    await memory.observe(session('s1'), {
      role: 'user',
      content: 'The Harbour Arts Festival opening night is on 9 May.',
    });
    clock.advanceDays(1);
    await memory.observe(session('s1'), {
      role: 'user',
      content: 'Correction: the Harbour opening night is on 16 May.',
    });
    const history = await memory.facts.history(maria, {
      entity: 'Harbour Arts Festival',
      key: 'opening night',
    });
    expect(history.map((f) => f.value)).toEqual(['9 May', '16 May']);
  });
});

describe('a what-if names a fact already in memory', () => {
  it('resolves "terms" to the one matching key, and approving it supersedes that fact', async () => {
    const { memory, clock } = setup();
    await memory.observe(session('s1'), {
      id: 'm1',
      role: 'user',
      content: 'Construction suppliers are paid net 60.',
    });
    clock.advanceDays(1);
    const whatIf = await memory.observe(session('s2'), {
      id: 'm2',
      role: 'user',
      content: 'What if we extended terms to 90 days?',
    });
    expect(whatIf.facts.written).toEqual([]);
    expect(whatIf.review).toHaveLength(1);
    const [item] = whatIf.review;
    expect(item!.proposal).toMatchObject({
      entityType: 'entity',
      entityId: 'construction suppliers',
      key: 'payment terms',
      value: '90 days',
      kind: 'hypothetical',
      stated: { entityType: 'organization', entityId: 'acme', key: 'terms' },
    });
    expect(item!.proposal.unresolved).toBeUndefined();
    expect((await memory.facts.get(maria, terms))!.value).toBe('net 60');

    clock.advanceDays(1);
    const approved = await memory.review.approve(maria, item!.id, { principal: { id: 'cfo' } });
    expect(approved.fact).toMatchObject({
      entityId: 'construction suppliers',
      key: 'payment terms',
      version: 2,
    });
    const history = await memory.facts.history(maria, terms);
    expect(history.map((f) => [f.value, f.status])).toEqual([
      ['net 60', 'superseded'],
      ['90 days', 'active'],
    ]);
    expect(await memory.facts.list(maria)).toHaveLength(1);
  });

  it("prefers the owner's own key, and keeps a plain what-if with nothing to match as stated", async () => {
    const { memory } = setup();
    await memory.observe(session('s1'), [
      { role: 'user', content: 'Our payment terms are net 30.' },
      { role: 'user', content: 'Construction suppliers are paid net 60.' },
    ]);
    const ours = await memory.observe(session('s1'), {
      role: 'user',
      content: 'What if we extended terms to 90 days?',
    });
    expect(ours.review[0]!.proposal).toMatchObject({ entityId: 'acme', key: 'payment terms' });

    const fresh = setup().memory;
    const nothing = await fresh.observe(session('s1'), {
      role: 'user',
      content: 'What if we extended terms to 90 days?',
    });
    expect(nothing.review[0]!.proposal).toMatchObject({
      entityType: 'organization',
      entityId: 'acme',
      key: 'terms',
    });
    expect(nothing.review[0]!.proposal.stated).toBeUndefined();
  });

  it('leaves an ambiguous what-if unresolved, says so, and approves it only with the fact named', async () => {
    const { memory } = setup();
    await memory.observe(session('s1'), [
      { role: 'user', content: 'Construction suppliers are paid net 60.' },
      { role: 'user', content: 'Hardware vendors are paid net 30.' },
    ]);
    const whatIf = await memory.observe(session('s2'), {
      role: 'user',
      content: 'What if we extended terms to 90 days?',
    });
    const [item] = whatIf.review;
    expect(item!.proposal).toMatchObject({
      entityId: 'acme',
      key: 'terms',
      candidates: [
        { entityType: 'entity', entityId: 'construction suppliers', key: 'payment terms' },
        { entityType: 'entity', entityId: 'hardware vendors', key: 'payment terms' },
      ],
    });
    expect(item!.proposal.unresolved).toMatch(/could be any of 2 facts/);

    expect(await codeOf(memory.review.approve(maria, item!.id))).toBe('invalid_input');
    expect((await memory.review.list(maria)).map((i) => i.id)).toEqual([item!.id]);
    const approved = await memory.review.approve(maria, item!.id, {
      fact: { entity: 'Hardware vendors', key: 'payment terms' },
    });
    expect(approved.fact).toMatchObject({ entityId: 'hardware vendors', value: '90 days', version: 2 });
    expect((await memory.facts.get(maria, terms))!.value).toBe('net 60');
  });

  it('does not resolve to a fact the speaker may not see', async () => {
    const { memory } = setup();
    await memory.observe(session('s1'), {
      role: 'user',
      content: 'Construction suppliers are paid net 60.',
      access: 'admin',
    });
    const member = await memory.observe(
      session('s2'),
      { role: 'user', content: 'What if we extended terms to 90 days?' },
      { principal: { id: 'maria', role: 'member' } },
    );
    expect(member.review[0]!.proposal).toMatchObject({ entityId: 'acme', key: 'terms' });
    expect(member.review[0]!.accessLevel).toBe(0);

    const admin = await memory.observe(
      session('s3'),
      { role: 'user', content: 'What if we extended terms to 120 days?' },
      { principal: { id: 'boss', role: 'admin' } },
    );
    expect(admin.review[0]!.proposal).toMatchObject({
      entityId: 'construction suppliers',
      key: 'payment terms',
    });
    // The proposal names an admin-level fact, so only admins see it.
    expect(admin.review[0]!.accessLevel).toBe(2);
  });

  it('rejects a named fact on an edge proposal, and an empty one', async () => {
    const { memory } = setup();
    await memory.observe(session('s1'), { role: 'user', content: 'What if we replaced REST with gRPC?' });
    const [edge] = await memory.review.list(maria);
    expect(await codeOf(memory.review.approve(maria, edge!.id, { fact: { entity: 'x', key: 'y' } }))).toBe(
      'invalid_input',
    );
    expect(await codeOf(memory.review.approve(maria, edge!.id, { fact: { entity: '', key: 'y' } }))).toBe(
      'invalid_input',
    );
    expect((await memory.review.list(maria)).map((i) => i.status)).toEqual(['pending']);
  });
});

describe('a correction names a fact already in memory', () => {
  it('"no, the terms are net 45" corrects the one matching fact', async () => {
    const { memory } = setup();
    await memory.observe(session('s1'), { role: 'user', content: 'Construction suppliers are paid net 60.' });
    const fixed = await memory.observe(session('s2'), { role: 'user', content: 'No, the terms are net 45.' });
    expect(fixed.facts.written.map((f) => [f.entityId, f.key, f.value, f.metadata.correction])).toEqual([
      ['construction suppliers', 'payment terms', 'net 45', true],
    ]);
    expect(fixed.facts.written[0]!.metadata.stated).toEqual({
      entityType: 'entity',
      entityId: '',
      key: 'terms',
    });
  });

  it("corrects the speaker's own key, not a relative's that ends with it", async () => {
    const { memory } = setup();
    await memory.observe(session('s1'), { role: 'user', content: 'My brother lives in Gdansk.' });
    await memory.observe(session('s2'), { role: 'user', content: 'Actually, I live in Krakow now.' });
    const current = await memory.facts.list(maria);
    expect(current.map((f) => [f.key, f.value]).sort()).toEqual([
      ['brother home city', 'Gdansk'],
      ['home city', 'Krakow'],
    ]);
  });

  it("matches a named owner's key within that owner only", async () => {
    const { memory } = setup();
    await memory.observe(session('s1'), [
      { role: 'user', content: "Supplier X's lead time is 45 days." },
      { role: 'user', content: "Globex's lead time is 3 weeks." },
    ]);
    const fixed = await memory.observe(session('s2'), {
      role: 'user',
      content: "Correction: Supplier X's time is 30 days.",
    });
    expect(fixed.facts.written.map((f) => [f.entityId, f.key, f.value])).toEqual([
      ['supplier x', 'lead time', '30 days'],
    ]);
    expect((await memory.facts.get(maria, { entity: 'Globex', key: 'lead time' }))!.value).toBe('3 weeks');
  });

  it('sends an ambiguous correction to review instead of guessing, and writes nothing', async () => {
    const { memory } = setup();
    await memory.observe(session('s1'), [
      { role: 'user', content: "Supplier X's lead time is 45 days." },
      { role: 'user', content: "Globex's lead time is 3 weeks." },
    ]);
    const fixed = await memory.observe(session('s2'), {
      role: 'user',
      content: 'No, the lead time is 20 days.',
    });
    expect(fixed.facts.written).toEqual([]);
    expect(fixed.review.map((r) => [r.reason, r.proposal.key, r.proposal.value])).toEqual([
      ['low_confidence', 'lead time', '20 days'],
    ]);
    expect(fixed.review[0]!.proposal.unresolved).toMatch(
      /supplier x · lead time; globex · lead time|globex · lead time; supplier x · lead time/,
    );
    const values = (await memory.facts.list(maria)).map((f) => f.value).sort();
    expect(values).toEqual(['3 weeks', '45 days']);
  });

  it('does not widen "our budget" to another owner\'s budget', async () => {
    const { memory } = setup();
    await memory.facts.remember(maria, { entity: 'Project Atlas', key: 'project budget', value: '$9,000' });
    const fixed = await memory.observe(session('s1'), {
      role: 'user',
      content: 'Actually, our budget is $5,000.',
    });
    expect(fixed.facts.written.map((f) => [f.entityType, f.entityId, f.key])).toEqual([
      ['organization', 'acme', 'budget'],
    ]);
    expect((await memory.facts.get(maria, { entity: 'Project Atlas', key: 'project budget' }))!.value).toBe(
      '$9,000',
    );
  });
});
