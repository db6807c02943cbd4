import { describe, expect, it } from 'vitest';
import type { MemoryOptions } from '../engine/types.ts';
import { StrataError } from '../errors/strata-error.ts';
import { createMemory } from '../memory/create-memory.ts';
import type { Scope } from '../scope/scope.ts';
import { memoryStore } from '../store/memory/memory-store.ts';
import { manualClock } from '../test/index.ts';

const org: Scope = { orgId: 'acme' };
const user: Scope = { orgId: 'acme', userId: 'maria' };
const thread: Scope = { ...user, threadId: 't1' };
const leadTime = { entity: 'Supplier X', key: 'lead time' };

function setup(options: Partial<MemoryOptions> = {}) {
  const clock = manualClock();
  const store = memoryStore();
  return { clock, store, memory: createMemory({ store, clock, ...options }) };
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

describe('facts: versions, never overwrites', () => {
  it('inserts, confirms the same value, and supersedes a different one with links', async () => {
    const { memory, clock } = setup();
    const first = await memory.facts.remember(user, { ...leadTime, value: '45 days' });
    expect(first).toMatchObject({
      confirmed: false,
      fact: { version: 1, value: '45 days', status: 'active' },
    });

    clock.advanceDays(3);
    const same = await memory.facts.remember(user, { ...leadTime, value: '45 Days ' });
    expect(same.confirmed).toBe(true);
    expect(same.fact).toMatchObject({ id: first.fact!.id, version: 1, lastConfirmedAt: clock.now() });

    clock.advanceDays(1);
    const changed = await memory.facts.remember(user, {
      ...leadTime,
      value: '30 days',
      principal: { id: 'ops' },
    });
    expect(changed.fact).toMatchObject({ version: 2, value: '30 days', supersedes: first.fact!.id });
    expect(changed.previous).toMatchObject({
      id: first.fact!.id,
      status: 'superseded',
      validTo: clock.now(),
      supersededBy: changed.fact!.id,
    });

    const history = await memory.facts.history(thread, leadTime);
    expect(history.map((f) => [f.version, f.value, f.status])).toEqual([
      [1, '45 days', 'superseded'],
      [2, '30 days', 'active'],
    ]);
    expect(history[1]!.provenance).toMatchObject({ source: 'api', principalId: 'ops', at: clock.now() });
    expect(
      (
        await memory.audit.list(user, { actions: ['fact.insert', 'fact.confirm', 'fact.supersede'] })
      ).items.map((e) => e.action),
    ).toEqual(['fact.insert', 'fact.confirm', 'fact.supersede']);
  });

  it.each([
    ['with transactions', true],
    ['without transactions (optimistic retries)', false],
  ])('keeps one linear history under concurrent writers %s', async (_, transactions) => {
    const clock = manualClock();
    const store = memoryStore({ capabilities: { transactions } });
    const memory = createMemory({ store, clock });
    const values = ['10 days', '20 days', '30 days', '40 days', '50 days', '60 days'];
    await Promise.all(values.map((value) => memory.facts.remember(user, { ...leadTime, value })));
    const history = await memory.facts.history(user, leadTime);
    expect(history).toHaveLength(values.length);
    expect(history.map((f) => f.version)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(history.filter((f) => f.status === 'active')).toHaveLength(1);
    for (let i = 1; i < history.length; i++) {
      expect(history[i]!.supersedes).toBe(history[i - 1]!.id);
      expect(history[i - 1]!.supersededBy).toBe(history[i]!.id);
    }
  });

  it('lets the most specific scope win, and lists one value per key', async () => {
    const { memory } = setup();
    await memory.facts.remember(org, { ...leadTime, value: '45 days' });
    await memory.facts.remember(user, { ...leadTime, value: '30 days' });
    expect((await memory.facts.get(thread, leadTime))!.value).toBe('30 days');
    expect((await memory.facts.get({ orgId: 'acme', userId: 'bob' }, leadTime))!.value).toBe('45 days');
    const listed = await memory.facts.list(thread, { entity: 'supplier x' });
    expect(listed.map((f) => f.value)).toEqual(['30 days']);
  });

  it('finds a fact without its entity type, and by any spelling of its names', async () => {
    const { memory } = setup();
    await memory.facts.remember(user, { ...leadTime, entityType: 'supplier', value: '45 days' });
    expect((await memory.facts.get(user, { entity: '  supplier  X ', key: 'Lead Time' }))!.value).toBe(
      '45 days',
    );
    expect(
      await memory.facts.get(user, { entityType: 'customer', entity: 'Supplier X', key: 'lead time' }),
    ).toBeNull();
  });
});

describe('facts: one name, one identity per key', () => {
  it('writes a key held under another type to that fact instead of forking it', async () => {
    const { memory } = setup();
    await memory.facts.remember(user, { ...leadTime, entityType: 'supplier', value: '45 days' });
    // The rules extractor types "Supplier X" as a plain entity; the fact memory holds is the same one.
    const observed = await memory.observe(thread, {
      role: 'user',
      content: "Supplier X's lead time is 40 days.",
    });
    expect(observed.facts.written.map((f) => [f.entityType, f.version, f.value])).toEqual([
      ['supplier', 2, '40 days'],
    ]);
    const corrected = await memory.facts.correct(user, {
      ...leadTime,
      entityType: 'entity',
      value: '30 days',
    });
    expect(corrected.fact).toMatchObject({ entityType: 'supplier', version: 3 });
    expect((await memory.facts.list(user)).map((f) => [f.entityType, f.entityId, f.key, f.value])).toEqual([
      ['supplier', 'supplier x', 'lead time', '30 days'],
    ]);
  });

  it('gives a generic entity the one type memory holds for its name, and keeps distinct types apart', async () => {
    const { memory } = setup();
    await memory.facts.remember(user, {
      entityType: 'supplier',
      entity: 'Globex',
      key: 'lead time',
      value: '2 weeks',
    });
    const quote = await memory.facts.remember(user, { entity: 'Globex', key: 'quote', value: '$900' });
    expect(quote.fact!.entityType).toBe('supplier');

    await memory.facts.remember(user, {
      entityType: 'customer',
      entity: 'Globex',
      key: 'credit limit',
      value: '$10,000',
    });
    const ambiguous = await memory.facts.remember(user, {
      entity: 'Globex',
      key: 'email',
      value: 'ap@globex.example',
    });
    expect(ambiguous.fact!.entityType).toBe('entity');
    const typed = await memory.facts.remember(user, {
      entityType: 'partner',
      entity: 'Initech',
      key: 'tier',
      value: 'gold',
    });
    expect(typed.fact!.entityType).toBe('partner');
  });
});

describe('facts: corrections, review and staleness', () => {
  it('protects a human correction from a later extracted statement, which goes to review', async () => {
    const { memory } = setup();
    await memory.observe(thread, { role: 'user', content: "Supplier X's lead time is 45 days." });
    const corrected = await memory.facts.correct(user, {
      ...leadTime,
      value: '30 days',
      principal: { id: 'maria' },
    });
    expect(corrected.fact).toMatchObject({
      value: '30 days',
      provenance: { source: 'human', principalId: 'maria' },
    });
    expect(corrected.previous!.value).toBe('45 days');

    const restated = await memory.observe(thread, {
      role: 'user',
      content: "Supplier X's lead time is 45 days.",
    });
    expect(restated.facts.written).toEqual([]);
    expect(restated.review.map((r) => [r.reason, r.proposal.value])).toEqual([['conflict', '45 days']]);
    expect((await memory.facts.get(thread, leadTime))!.value).toBe('30 days');
  });

  it('records how a correction arrived (via) in its provenance', async () => {
    const { memory } = setup();
    await memory.facts.remember(user, { ...leadTime, value: '45 days' });
    const corrected = await memory.facts.correct(user, {
      ...leadTime,
      value: '30 days',
      via: 'imported edit',
    });
    expect(corrected.fact).toMatchObject({
      value: '30 days',
      version: 2,
      provenance: { source: 'human', via: 'imported edit' },
    });
    expect(await codeOf(memory.facts.correct(user, { ...leadTime, value: '1 day', via: '' }))).toBe(
      'invalid_input',
    );
  });

  it('sends writes below the review threshold to the review queue', async () => {
    const { memory } = setup();
    const low = await memory.facts.remember(user, { ...leadTime, value: '60 days', confidence: 0.5 });
    expect(low.fact).toBeUndefined();
    expect(low.review).toMatchObject({
      reason: 'low_confidence',
      status: 'pending',
      proposal: { value: '60 days' },
    });
    expect(await memory.facts.get(user, leadTime)).toBeNull();

    const hedged = await memory.observe(thread, {
      role: 'user',
      content: "I think Supplier X's lead time is 60 days.",
    });
    expect(hedged.facts.written).toEqual([]);
    expect(hedged.review.map((r) => r.reason)).toEqual(['low_confidence']);
  });

  it('honours a custom review threshold', async () => {
    const { memory } = setup({ policy: { reviewThreshold: 0.95 } });
    const result = await memory.observe(thread, {
      role: 'user',
      content: "Supplier X's lead time is 45 days.",
    });
    expect(result.facts.written).toEqual([]);
    expect(result.review).toHaveLength(1);
  });

  it('reads an unconfirmed fact as stale after staleAfterDays; restating the value clears it', async () => {
    const { memory, clock } = setup({ policy: { staleAfterDays: 30 } });
    await memory.observe(thread, { role: 'user', content: "Supplier X's lead time is 45 days." });
    clock.advanceDays(29);
    expect((await memory.facts.get(thread, leadTime))!.status).toBe('active');
    clock.advanceDays(2);
    expect((await memory.facts.get(thread, leadTime))!.status).toBe('stale');
    expect((await memory.facts.list(thread))[0]!.status).toBe('stale');

    const restated = await memory.observe(thread, {
      role: 'user',
      content: 'Supplier X lead time is 45 days',
    });
    expect(restated.facts.confirmed).toHaveLength(1);
    const fact = await memory.facts.get(thread, leadTime);
    expect(fact).toMatchObject({ status: 'active', version: 1, lastConfirmedAt: clock.now() });
  });

  it('confirm() clears stale, and refuses superseded, unknown and invisible ids', async () => {
    const { memory, clock } = setup();
    const { fact } = await memory.facts.remember(user, { ...leadTime, value: '45 days' });
    clock.advanceDays(120);
    const confirmed = await memory.facts.confirm(thread, fact!.id);
    expect(confirmed).toMatchObject({ status: 'active', lastConfirmedAt: clock.now() });
    await memory.facts.remember(user, { ...leadTime, value: '30 days' });
    expect(await codeOf(memory.facts.confirm(user, fact!.id))).toBe('conflict');
    expect(await codeOf(memory.facts.confirm(user, 'fact_missing'))).toBe('not_found');
    expect(await codeOf(memory.facts.confirm({ orgId: 'globex' }, fact!.id))).toBe('not_found');
  });

  it('resolves an unnamed owner against memory: one holder of the key, or nothing', async () => {
    const { memory } = setup();
    await memory.observe(thread, { role: 'user', content: "Supplier X's lead time is 45 days." });
    const fixed = await memory.observe(
      { ...user, threadId: 't2' },
      { role: 'user', content: 'No, the lead time is 30 days.' },
    );
    expect(fixed.facts.written.map((f) => [f.entityId, f.value])).toEqual([['supplier x', '30 days']]);

    await memory.facts.remember(user, {
      entityType: 'supplier',
      entity: 'Supplier Y',
      key: 'lead time',
      value: '10 days',
    });
    const ambiguous = await memory.observe(
      { ...user, threadId: 't3' },
      { role: 'user', content: 'No, the lead time is 20 days.' },
    );
    expect(ambiguous.facts.written).toEqual([]);
    expect((await memory.facts.get(user, leadTime))!.value).toBe('30 days');
  });
});

describe('facts: access levels and validation', () => {
  it('shows restricted facts only to principals at or above their level', async () => {
    const { memory } = setup();
    await memory.facts.remember(user, { ...leadTime, value: '45 days', access: 'manager' });
    expect(await memory.facts.get(user, leadTime)).toBeNull();
    expect(await memory.facts.get(user, leadTime, { principal: { id: 'a', role: 'member' } })).toBeNull();
    expect(
      await memory.facts.get(user, leadTime, { principal: { id: 'b', role: 'manager' } }),
    ).not.toBeNull();
    expect(await memory.facts.list(user, undefined, { principal: { id: 'c', level: 2 } })).toHaveLength(1);
    expect(await memory.facts.history(user, leadTime)).toEqual([]);
  });

  it('never makes a value less restricted by superseding it', async () => {
    const { memory } = setup();
    await memory.facts.remember(user, { ...leadTime, value: '45 days', access: 'admin' });
    const next = await memory.facts.remember(user, {
      ...leadTime,
      value: '30 days',
      principal: { id: 'm', role: 'member' },
    });
    expect(next.fact!.accessLevel).toBe(2);
    expect(next.previous).toBeUndefined();
  });

  it.each([
    ['an empty entity', { entity: '', key: 'k', value: 1 }, 'invalid_input'],
    ['a punctuation-only entity', { entity: '...', key: 'k', value: 1 }, 'invalid_input'],
    ['a missing key', { entity: 'x', value: 1 }, 'invalid_input'],
    ['a non-JSON value', { entity: 'x', key: 'k', value: () => 1 }, 'invalid_input'],
    ['a confidence above 1', { entity: 'x', key: 'k', value: 1, confidence: 1.5 }, 'invalid_input'],
    [
      'an unknown role',
      { entity: 'x', key: 'k', value: 1, principal: { id: 'p', role: 'owner' } },
      'invalid_input',
    ],
    ['an oversized value', { entity: 'x', key: 'k', value: 'v'.repeat(20_000) }, 'payload_too_large'],
    ['an unknown field', { entity: 'x', key: 'k', value: 1, orgId: 'other' }, 'invalid_input'],
  ])('rejects %s and stores nothing', async (_, input, code) => {
    const { memory } = setup();
    expect(await codeOf(memory.facts.remember(user, input as never))).toBe(code);
    expect(await memory.facts.list(user)).toEqual([]);
    expect((await memory.audit.list(user)).items).toEqual([]);
  });

  it('rejects a bad scope on reads with invalid_scope', async () => {
    const { memory } = setup();
    expect(await codeOf(memory.facts.get({} as Scope, leadTime))).toBe('invalid_scope');
    expect(await codeOf(memory.facts.list({ orgId: '' } as Scope))).toBe('invalid_scope');
  });
});
