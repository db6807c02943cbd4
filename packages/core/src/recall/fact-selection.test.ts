import { describe, expect, it } from 'vitest';
import { createMemory } from '../memory/create-memory.ts';
import { memoryStore } from '../store/memory/memory-store.ts';
import { manualClock } from '../test/index.ts';
import { factValueText, renderFact } from './fact-selection.ts';

describe('factValueText', () => {
  it('reads a document as its fields, without JSON quotes and braces', () => {
    const document = { name: 'Ada', diet: { kind: 'vegan', since: 2019 }, tags: ['quiet', 'early'] };
    expect(factValueText(document)).toBe('name: Ada; diet.kind: vegan; diet.since: 2019; tags: quiet, early');
    expect(factValueText({ stops: [{ city: 'Porto' }, { city: 'Lyon' }] })).toBe(
      'stops[0].city: Porto; stops[1].city: Lyon',
    );
    expect(factValueText({ notes: [], extra: {}, done: false, owner: null })).toBe(
      'notes: (empty); extra: (empty); done: false; owner: null',
    );
  });

  it('keeps plain values as they are', () => {
    expect(factValueText('30 days')).toBe('30 days');
    expect(factValueText('{"not":"parsed"}')).toBe('{"not":"parsed"}');
    expect(factValueText(42)).toBe('42');
    expect(factValueText(['a', 'b'])).toBe('a, b');
    expect(factValueText({})).toBe('(empty)');
  });

  it('is what a fact line shows', async () => {
    const memory = createMemory({ store: memoryStore(), clock: manualClock('2026-01-02T09:00:00Z') });
    const { fact } = await memory.facts.remember(
      { orgId: 'acme' },
      { entityType: 'store item', entity: 'prefs/ada', key: 'value', value: { city: 'Paris' } },
    );
    expect(renderFact(fact!, false)).toBe('store item prefs/ada · value: city: Paris (2026-01-02)');
  });
});
