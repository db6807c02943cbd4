import { describe, expect, it } from 'vitest';
import { hashEmbedder } from '../embed/hash-embedder.ts';
import { StrataError } from '../errors/strata-error.ts';
import { createMemory } from '../memory/create-memory.ts';
import type { Scope } from '../scope/scope.ts';
import { memoryStore } from '../store/memory/memory-store.ts';
import { manualClock } from '../test/index.ts';

const org: Scope = { orgId: 'acme' };
const user: Scope = { orgId: 'acme', userId: 'maria' };
const other: Scope = { orgId: 'acme', userId: 'omar' };

function setup() {
  const clock = manualClock();
  const store = memoryStore();
  return { clock, memory: createMemory({ store, clock, embedder: hashEmbedder({ dimensions: 64 }) }) };
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

const doc = (entity: string, value: Record<string, string | number>, text: string) => ({
  entityType: 'doc',
  entity,
  key: 'body',
  value,
  index: { texts: [text] },
});

describe('facts.find: the store filters, orders and pages', () => {
  it('selects by prefix, value conditions and scope, in confirmed order, paged by offset', async () => {
    const { memory, clock } = setup();
    for (let i = 0; i < 6; i++) {
      await memory.facts.remember(user, doc(`docs-${i}`, { n: i }, `note ${i}`));
      clock.advance(1_000);
    }
    await memory.facts.remember(user, doc('misc-1', { n: 1 }, 'misc'));
    await memory.facts.remember(org, doc('docs-org', { n: 1 }, 'org note'));
    const query = {
      entityType: 'doc',
      entityPrefix: 'docs-',
      where: { n: { $lt: 4 } },
      order: 'confirmed' as const,
    };
    const visible = await memory.facts.find(user, query);
    expect(visible.items.map((f) => f.entityId)).toEqual([
      'docs-org',
      'docs-3',
      'docs-2',
      'docs-1',
      'docs-0',
    ]);
    const exact = await memory.facts.find(user, { ...query, within: 'exact', offset: 1, limit: 2 });
    expect(exact.items.map((f) => f.entityId)).toEqual(['docs-2', 'docs-1']);
    const subtree = await memory.facts.find(org, { ...query, within: 'subtree', where: { n: 1 } });
    expect(subtree.items.map((f) => f.entityId).sort()).toEqual(['docs-1', 'docs-org']);
  });

  it('a bad condition is invalid_input', async () => {
    const { memory } = setup();
    expect(await codeOf(memory.facts.find(user, { where: { n: { $like: 'x' } } }))).toBe('invalid_input');
    expect(await codeOf(memory.facts.find(user, { where: { n: { $gt: 'x' } } }))).toBe('invalid_input');
  });
});

describe('facts.search: scores as data', () => {
  it('ranks facts by their index texts, best first, with the filters applied by the store', async () => {
    const { memory } = setup();
    await memory.facts.remember(user, doc('py', { lang: 'en' }, 'A Python tutorial for beginners'));
    await memory.facts.remember(user, doc('py-de', { lang: 'de' }, 'Python tutorial, German edition'));
    await memory.facts.remember(user, doc('pasta', { lang: 'en' }, 'Fresh pasta recipes from Bologna'));
    await memory.facts.remember(org, doc('py-org', { lang: 'en' }, 'Python tutorial for the whole company'));
    await memory.facts.remember(other, doc('py-omar', { lang: 'en' }, 'Python tutorial by Omar'));
    const found = await memory.facts.search(user, { query: 'python tutorial', entityType: 'doc' });
    const names = found.map((s) => s.fact.entityId);
    expect(names).toContain('py');
    expect(names).toContain('py-org');
    expect(names).not.toContain('py-omar');
    expect(names[0]).toMatch(/^py/);
    const scores = found.map((s) => s.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    expect(scores.every((s) => Number.isFinite(s) && s > 0)).toBe(true);

    const english = await memory.facts.search(user, {
      query: 'python tutorial',
      where: { lang: 'en' },
      within: 'exact',
    });
    expect(english.map((s) => s.fact.entityId).filter((n) => n.startsWith('py'))).toEqual(['py']);
    expect(english.every((s) => (s.fact.value as { lang: string }).lang === 'en')).toBe(true);
    const subtree = await memory.facts.search(org, { query: 'python tutorial', within: 'subtree' });
    expect(
      subtree
        .map((s) => s.fact.entityId)
        .filter((n) => n.startsWith('py'))
        .sort(),
    ).toEqual(['py', 'py-de', 'py-omar', 'py-org']);
    expect(await memory.facts.search(user, { query: '   ' })).toEqual([]);
    expect(await codeOf(memory.facts.search(user, { query: 'python', where: { lang: { $re: 'e' } } }))).toBe(
      'invalid_input',
    );
  });
});
