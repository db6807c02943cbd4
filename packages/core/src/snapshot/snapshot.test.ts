import { describe, expect, it } from 'vitest';
import { StrataError } from '../errors/strata-error.ts';
import { createMemory } from '../memory/create-memory.ts';
import { memoryStore } from '../store/memory/memory-store.ts';
import { manualClock, SAMPLE_SCOPES, seedSampleMemory, testEmbedder } from '../test/index.ts';
import { SNAPSHOT_VERSION } from './snapshot-schema.ts';

function newMemory() {
  const clock = manualClock();
  return { clock, memory: createMemory({ store: memoryStore(), clock, embedder: testEmbedder() }) };
}

async function seeded() {
  const { clock, memory } = newMemory();
  await seedSampleMemory(memory, clock);
  return memory;
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

describe('memory.export / memory.import', () => {
  it('exports every layer of every tenant, with history, embeddings and provenance', async () => {
    const memory = await seeded();
    const snapshot = await memory.export();
    expect(snapshot).toMatchObject({ format: 'strata-memory', version: SNAPSHOT_VERSION });
    const scopes = snapshot.scopes.map((s) => s.scope);
    expect(scopes).toContainEqual(SAMPLE_SCOPES.maria);
    expect(scopes).toContainEqual(SAMPLE_SCOPES.solo);
    const all = (pick: (s: (typeof snapshot.scopes)[number]) => unknown[]) => snapshot.scopes.flatMap(pick);
    const leadTimes = all((s) => s.facts).filter((f) => (f as { key: string }).key === 'lead time');
    expect(leadTimes.map((f) => (f as { status: string }).status)).toEqual(['superseded', 'active']);
    expect(all((s) => s.nodes).length).toBeGreaterThan(0);
    expect(all((s) => s.edges).length).toBeGreaterThan(0);
    expect(all((s) => s.review).length).toBeGreaterThan(0);
    expect(all((s) => s.audit).length).toBeGreaterThan(0);
    expect(all((s) => s.state)).toEqual([expect.objectContaining({ key: 'inbox cursor', version: 2 })]);
    expect(all((s) => s.ledger)).toEqual([expect.objectContaining({ key: 'msg_abc123', status: 'done' })]);
    const thread = snapshot.scopes.find((s) => s.scope.threadId === 'procurement')!.thread!;
    expect(thread.messages.map((m) => m.seq)).toEqual([1, 2, 3, 4, 5]);
    const episode = all((s) => s.episodes)[0] as { embedding?: { float32?: string; float64?: string } };
    expect(episode.embedding?.float32 ?? episode.embedding?.float64).toEqual(expect.any(String));
    // JSON-serialisable as is.
    expect(JSON.parse(JSON.stringify(snapshot))).toEqual(snapshot);
  });

  it('imports into an empty store as it was: exporting again gives the same snapshot', async () => {
    const source = await seeded();
    const snapshot = JSON.parse(JSON.stringify(await source.export()));
    const { memory: target } = newMemory();
    const counts = await target.import(snapshot);
    expect(counts.facts).toBe(snapshot.scopes.flatMap((s: { facts: unknown[] }) => s.facts).length);
    expect(await target.export()).toEqual(await source.export());
    // The imported memory works: history, recall, appends after the restored messages.
    const history = await target.facts.history(SAMPLE_SCOPES.maria, {
      entity: 'supplier x',
      key: 'lead time',
    });
    expect(history.map((f) => f.value)).toEqual(['45 days', '30 days']);
    const context = await target.recall(SAMPLE_SCOPES.mariaThread, { query: 'lead time of Supplier X' });
    expect(context.render()).toContain('30 days');
    const result = await target.observe(SAMPLE_SCOPES.mariaThread, { role: 'user', content: 'Thanks.' });
    expect(result.messages[0]!.seq).toBe(6);
  });

  it('exports one subtree with the scope option', async () => {
    const memory = await seeded();
    const snapshot = await memory.export({ scope: SAMPLE_SCOPES.bob });
    expect(snapshot.root).toEqual(SAMPLE_SCOPES.bob);
    expect(snapshot.scopes.map((s) => s.scope)).toEqual([SAMPLE_SCOPES.bobThread, SAMPLE_SCOPES.bob]);
  });

  it('refuses a wrong format, a wrong version or a malformed record, and writes nothing', async () => {
    const snapshot = JSON.parse(JSON.stringify(await (await seeded()).export()));
    const { memory } = newMemory();
    const attempts = [
      { ...snapshot, format: 'something-else' },
      { ...snapshot, version: SNAPSHOT_VERSION + 1 },
      'not even an object',
      {
        ...snapshot,
        scopes: snapshot.scopes.map((s: { facts: Array<Record<string, unknown>> }, i: number) =>
          i === snapshot.scopes.length - 1 ? { ...s, facts: [{ ...s.facts[0], confidence: 7 }] } : s,
        ),
      },
    ];
    for (const attempt of attempts) {
      const error = await memory.import(attempt).catch((e: unknown) => e);
      expect(StrataError.isInstance(error) && error.code).toBe('invalid_input');
    }
    expect((await memory.store.scopes.list({})).items).toEqual([]);
  });

  it('refuses a snapshot that clashes with stored records (conflict) and writes none of it', async () => {
    const snapshot = await (await seeded()).export();
    const { memory } = newMemory();
    await memory.facts.remember(SAMPLE_SCOPES.maria, {
      entity: 'supplier x',
      key: 'lead time',
      value: '10 days',
    });
    const before = await memory.export();
    // The last scope's records clash with nothing, the fact key above clashes in maria's scope.
    expect(await codeOf(memory.import(snapshot))).toBe('conflict');
    expect(await memory.export()).toEqual(before);
  });
});
