import { describe, expect, it } from 'vitest';
import type { MemoryOptions } from '../engine/types.ts';
import { StrataError } from '../errors/strata-error.ts';
import { createMemory } from '../memory/create-memory.ts';
import { type Embedder, PORT_SPECIFICATION_VERSION, type Summarizer } from '../ports/ports.ts';
import type { Scope } from '../scope/scope.ts';
import type { Store } from '../store/contract.ts';
import { memoryStore } from '../store/memory/memory-store.ts';
import { manualClock } from '../test/index.ts';

const org: Scope = { orgId: 'acme' };
const maria: Scope = { orgId: 'acme', userId: 'maria' };
const thread: Scope = { ...maria, threadId: 't1' };
const DAY = 86_400_000;

function axisEmbedder(table: Record<string, number[]>): Embedder {
  return {
    specificationVersion: PORT_SPECIFICATION_VERSION,
    id: 'axis',
    dimensions: 3,
    maxBatchSize: 64,
    async embed({ texts }) {
      return texts.map((t) => table[t] ?? [0, 0, 1]);
    },
  };
}

function setup(options: Partial<MemoryOptions> = {}) {
  const clock = manualClock('2026-06-01T09:00:00Z');
  const store = memoryStore();
  return { clock, store, memory: createMemory({ store, clock, ...options }) };
}

/** Puts episodes straight into the store, as an import or an older version of the engine would have. */
async function putEpisodes(
  store: Store,
  scope: Scope,
  rows: Array<{
    id: string;
    text: string;
    occurredAt: number;
    importance?: number;
    accessCount?: number;
    embedding?: number[];
    accessLevel?: number;
  }>,
) {
  await store.episodes.put({
    episodes: rows.map((r) => ({
      id: r.id,
      scope,
      text: r.text,
      role: 'user' as const,
      occurredAt: r.occurredAt,
      createdAt: r.occurredAt,
      importance: r.importance ?? 0.5,
      accessCount: r.accessCount ?? 0,
      ...(r.embedding ? { embedding: r.embedding } : {}),
      accessLevel: r.accessLevel ?? 0,
      provenance: { source: 'observation' as const, at: r.occurredAt },
    })),
  });
}

/** Everything stored for the tenant, at every scope the test uses, as one comparable value. */
async function snapshot(store: Store, scopes: Scope[]) {
  const everything = { status: ['active', 'merged', 'archived'] as Array<'active' | 'merged' | 'archived'> };
  const out: Record<string, unknown> = {};
  for (const scope of scopes) {
    const key = JSON.stringify(scope);
    out[key] = {
      episodes: (await store.episodes.list({ scope, ...everything, limit: 1000 })).items,
      facts: (
        await store.facts.find({
          scope,
          status: ['active', 'stale', 'superseded', 'pending_review'],
          limit: 1000,
        })
      ).items,
      nodes: (await store.graph.listNodes({ scope, status: ['active', 'superseded'], limit: 1000 })).items,
      edges: (await store.graph.listEdges({ scope, status: ['active', 'superseded'], limit: 1000 })).items,
      review: (await store.review.list({ scope, status: ['pending', 'approved', 'rejected'], limit: 1000 }))
        .items,
      state: (await store.state.list({ scope, limit: 1000 })).items,
      ledger: (await store.ledger.list({ scope, limit: 1000 })).items,
      threads: (await store.threads.list({ scope, limit: 1000 })).items,
      audit: (await store.audit.list({ scope, limit: 1000 })).items,
      messages: scope.threadId ? await store.threads.listMessages({ scope, limit: 1000 }) : [],
    };
  }
  return out;
}

async function seedEverything(memory: ReturnType<typeof setup>['memory'], store: Store, now: number) {
  await memory.observe(thread, [
    { role: 'user', content: "Supplier X's lead time is 45 days." },
    { role: 'user', content: 'We decided to use gRPC instead of REST.' },
    { role: 'user', content: 'The docs site depends on REST.' },
  ]);
  await putEpisodes(store, maria, [
    { id: 'ep_dup_old', text: 'Deploys happen on Tuesdays', occurredAt: now - 5 * DAY, accessCount: 2 },
    { id: 'ep_dup_new', text: 'deploys happen on tuesdays!', occurredAt: now - 1 * DAY, accessCount: 3 },
    {
      id: 'ep_old_1',
      text: 'Maria paid $4,200 to Globex on May 3.',
      occurredAt: now - 400 * DAY,
      importance: 0.1,
    },
    {
      id: 'ep_old_2',
      text: 'We chatted about the weather in Lisbon.',
      occurredAt: now - 380 * DAY,
      importance: 0.1,
    },
  ]);
}

describe('consolidate: merging', () => {
  it('merges same-text episodes: keeps the newest, sums access counts, marks the rest merged', async () => {
    const { memory, store, clock } = setup();
    const now = clock.now();
    await putEpisodes(store, maria, [
      { id: 'ep_a', text: 'Deploys happen on Tuesdays', occurredAt: now - 5 * DAY, accessCount: 2 },
      { id: 'ep_b', text: 'deploys happen on tuesdays!', occurredAt: now - 1 * DAY, accessCount: 3 },
      { id: 'ep_c', text: 'Deploys happen on Tuesdays.', occurredAt: now - 3 * DAY, accessCount: 1 },
    ]);
    const report = await memory.consolidate({ scope: maria });
    expect(report.merged).toEqual([
      { keptId: 'ep_b', mergedIds: ['ep_c', 'ep_a'], similarity: 1, facts: [] },
    ]);
    const [kept, a, c] = await store.episodes.get({ scope: maria, ids: ['ep_b', 'ep_a', 'ep_c'] });
    expect(kept).toMatchObject({ status: 'active', accessCount: 6, occurredAt: now - 1 * DAY });
    expect(a).toMatchObject({ status: 'merged', mergedInto: 'ep_b' });
    expect(c).toMatchObject({ status: 'merged', mergedInto: 'ep_b' });
    const audit = await memory.audit.list(maria, { actions: ['episode.merge'] });
    expect(audit.items).toHaveLength(1);
    expect(report.auditIds).toContain(audit.items[0]!.id);
  });

  it('merges near duplicates by cosine similarity, and only within one scope and access level', async () => {
    const { memory, store, clock } = setup();
    const now = clock.now();
    await putEpisodes(store, maria, [
      { id: 'ep_1', text: 'The deploy window is Tuesday.', occurredAt: now - 2 * DAY, embedding: [1, 0, 0] },
      { id: 'ep_2', text: 'Deploy window: Tuesday.', occurredAt: now - 1 * DAY, embedding: [0.99, 0.141, 0] },
      { id: 'ep_3', text: 'Lunch was good.', occurredAt: now, embedding: [0, 1, 0] },
    ]);
    await putEpisodes(store, { orgId: 'acme', userId: 'bob' }, [
      { id: 'ep_bob', text: 'Deploy window: Tuesday!', occurredAt: now, embedding: [0.99, 0.141, 0] },
    ]);
    await putEpisodes(store, maria, [
      {
        id: 'ep_admin',
        text: 'Deploy window: Tuesday?',
        occurredAt: now,
        embedding: [0.99, 0.141, 0],
        accessLevel: 2,
      },
    ]);
    const report = await memory.consolidate({ scope: maria });
    expect(report.merged).toHaveLength(1);
    expect(report.merged[0]).toMatchObject({ keptId: 'ep_2', mergedIds: ['ep_1'] });
    expect(report.merged[0]!.similarity).toBeGreaterThanOrEqual(0.95);
    expect(report.merged[0]!.similarity).toBeLessThan(1);
  });

  it('never merges near duplicates that state different values', async () => {
    const { memory, store, clock } = setup();
    const now = clock.now();
    await putEpisodes(store, maria, [
      {
        id: 'ep_45',
        text: "Supplier X's lead time is 45 days.",
        occurredAt: now - 2 * DAY,
        embedding: [1, 0, 0],
      },
      {
        id: 'ep_30',
        text: "Supplier X's lead time is 30 days.",
        occurredAt: now - 1 * DAY,
        embedding: [0.995, 0.0999, 0],
      },
      { id: 'ep_eur', text: 'Globex quoted €4,200.', occurredAt: now - 2 * DAY, embedding: [0, 1, 0] },
      { id: 'ep_usd', text: 'Globex quoted $4,200.', occurredAt: now - 1 * DAY, embedding: [0, 1, 0] },
    ]);
    const report = await memory.consolidate({ scope: maria });
    expect(report.merged).toEqual([]);
    expect(report.notes[0]).toMatch(/^merge: nothing to merge — 4 active episode\(s\) in 1 scope checked/);
  });
});

describe('consolidate: the report says what it looked at', () => {
  it('counts what it checked and says why each step found nothing', async () => {
    const { memory } = setup({ embedder: axisEmbedder({}) });
    await memory.observe(thread, [
      { role: 'user', content: "Supplier X's lead time is 45 days." },
      { role: 'user', content: "Supplier X's lead time is 45 days." },
      { role: 'user', content: 'Billing depends on Postgres.' },
    ]);
    const report = await memory.consolidate({ scope: org, dryRun: true });
    expect(report).toMatchObject({ merged: [], archived: [], staleFacts: [], supersededGraph: [] });
    expect(report.checked).toEqual({ scopes: 3, episodes: 2, facts: 1, replacementEdges: 0 });
    expect(report.notes).toEqual([
      'merge: nothing to merge — 2 active episode(s) in 3 scopes checked; none is the same text as, at least 0.95 cosine-similar to, or stating the same facts as another with the same literals at its scope and access level (observe keeps such duplicates out at write time)',
      'archive: nothing to archive — at no scope and access level are two or more episodes older than 30 day(s), below importance 0.5 and below retention value 0.05',
      'stale: no stale facts — 1 active fact(s) checked, each confirmed within 90 day(s)',
      'graph: nothing to retire — 0 active replacement edge(s), none leaving an active replaced node in this subtree',
    ]);
  });

  it('says what a run did, and what a dry run would do', async () => {
    const { memory, store, clock } = setup({ embedder: axisEmbedder({}) });
    await seedEverything(memory, store, clock.now());
    clock.advanceDays(100);
    const dry = await memory.consolidate({ scope: org, dryRun: true });
    expect(dry.notes.map((n) => n.split(' ').slice(0, 2).join(' '))).toEqual([
      'merge: would',
      'archive: would',
      'stale: would',
      'graph: would',
    ]);
    const real = await memory.consolidate({ scope: org });
    expect(real.notes[0]).toMatch(/^merge: fold \d+ duplicate episode\(s\) into \d+ kept one\(s\)$/);
    expect(real.checked).toEqual(dry.checked);
  });
});

describe('consolidate: archiving', () => {
  it('archives decayed low-value episodes into a summary that keeps their literals verbatim', async () => {
    const dropsLiterals: Summarizer = {
      specificationVersion: PORT_SPECIFICATION_VERSION,
      id: 'lossy',
      async summarize() {
        return { summary: 'Some payments and small talk happened.' };
      },
    };
    const { memory, store, clock } = setup({ summarizer: dropsLiterals });
    const now = clock.now();
    await putEpisodes(store, maria, [
      {
        id: 'ep_old_1',
        text: 'Maria paid $4,200 to Globex on May 3.',
        occurredAt: now - 400 * DAY,
        importance: 0.1,
      },
      {
        id: 'ep_old_2',
        text: 'We chatted about the weather in Lisbon.',
        occurredAt: now - 380 * DAY,
        importance: 0.1,
      },
      { id: 'ep_kept', text: 'The launch is on June 9.', occurredAt: now - 400 * DAY, importance: 0.9 },
      { id: 'ep_recent', text: 'ok', occurredAt: now - 1 * DAY, importance: 0.05 },
    ]);
    const report = await memory.consolidate({ scope: maria });
    expect(report.archived).toHaveLength(1);
    expect(report.archived[0]!.ids).toEqual(['ep_old_1', 'ep_old_2']);
    const summaryId = report.archived[0]!.summaryEpisodeId!;
    const [summary] = await store.episodes.get({ scope: maria, ids: [summaryId] });
    for (const literal of ['$4,200', 'Globex', 'May 3', 'Maria', 'Lisbon'])
      expect(summary!.text).toContain(literal);
    expect(summary).toMatchObject({
      status: 'active',
      provenance: { source: 'consolidation' },
      metadata: { archivedIds: ['ep_old_1', 'ep_old_2'], summarizedBy: 'digest' },
    });
    const archived = await store.episodes.get({
      scope: maria,
      ids: ['ep_old_1', 'ep_old_2', 'ep_kept', 'ep_recent'],
    });
    expect(archived.map((e) => e.status)).toEqual(['archived', 'archived', 'active', 'active']);
    expect(archived[0]!.metadata.archivedInto).toBe(summaryId);
  });

  it('uses the configured summarizer when it keeps every literal', async () => {
    const faithful: Summarizer = {
      specificationVersion: PORT_SPECIFICATION_VERSION,
      id: 'faithful',
      async summarize({ mustKeep }) {
        return { summary: `Earlier: ${mustKeep.join(', ')}.` };
      },
    };
    const { memory, store, clock } = setup({ summarizer: faithful });
    const now = clock.now();
    await putEpisodes(store, maria, [
      { id: 'ep_1', text: 'Invoice INV-2024-001 is $300.', occurredAt: now - 400 * DAY, importance: 0.1 },
      { id: 'ep_2', text: 'Ask Priya on Friday.', occurredAt: now - 390 * DAY, importance: 0.1 },
    ]);
    const report = await memory.consolidate({ scope: maria });
    const [summary] = await store.episodes.get({
      scope: maria,
      ids: [report.archived[0]!.summaryEpisodeId!],
    });
    expect(summary!.metadata.summarizedBy).toBe('faithful');
    for (const literal of ['INV-2024-001', '$300', 'Priya', 'Friday'])
      expect(summary!.text).toContain(literal);
  });
});

describe('consolidate: facts and graph', () => {
  it('flags facts unconfirmed for staleAfterDays as stale, and only those', async () => {
    const { memory, store, clock } = setup({ policy: { staleAfterDays: 90 } });
    const old = await memory.facts.remember(maria, {
      entity: 'Supplier X',
      key: 'lead time',
      value: '45 days',
    });
    clock.advanceDays(80);
    const fresh = await memory.facts.remember(maria, {
      entity: 'Supplier Y',
      key: 'lead time',
      value: '10 days',
    });
    clock.advanceDays(11);
    const report = await memory.consolidate({ scope: org });
    expect(report.staleFacts).toEqual([old.fact!.id]);
    const [a, b] = await store.facts.get({ scope: maria, ids: [old.fact!.id, fresh.fact!.id] });
    expect(a!.status).toBe('stale');
    expect(b!.status).toBe('active');
    expect((await memory.audit.list(maria, { actions: ['fact.stale'] })).items).toHaveLength(1);
    // Confirming clears it.
    expect((await memory.facts.confirm(maria, old.fact!.id)).status).toBe('active');
  });

  it('marks a replaced node and its branch superseded, never deleting them', async () => {
    const { memory, store } = setup();
    await memory.observe(thread, [
      { role: 'user', content: 'We decided to use gRPC instead of REST.' },
      { role: 'user', content: 'The docs site depends on REST.' },
    ]);
    const report = await memory.consolidate({ scope: maria });
    const [rest] = await store.graph.findNodes({
      scope: maria,
      names: ['REST'],
      status: ['active', 'superseded'],
    });
    expect(rest!.status).toBe('superseded');
    const edges = (await store.graph.listEdges({ scope: maria, status: ['active', 'superseded'] })).items;
    expect(edges.map((e) => [e.relation, e.status]).sort()).toEqual([
      ['depends_on', 'superseded'],
      ['replaces', 'active'],
    ]);
    expect(report.supersededGraph.sort()).toEqual(
      [rest!.id, edges.find((e) => e.relation === 'depends_on')!.id].sort(),
    );
    const [grpc] = await store.graph.findNodes({ scope: maria, names: ['gRPC'] });
    expect(grpc!.status).toBe('active');
    // Running again finds nothing new.
    expect((await memory.consolidate({ scope: maria })).supersededGraph).toEqual([]);
  });
});

describe('consolidate: dry run', () => {
  it('changes nothing at all, and reports what a real run then does', async () => {
    const { memory, store, clock } = setup({ embedder: axisEmbedder({}) });
    await seedEverything(memory, store, clock.now());
    clock.advanceDays(100);
    const scopes = [org, maria, thread];
    const before = await snapshot(store, scopes);
    const dry = await memory.consolidate({ scope: org, dryRun: true });
    expect(await snapshot(store, scopes)).toEqual(before);
    expect(dry.dryRun).toBe(true);
    expect(dry.auditIds).toEqual([]);
    expect(dry.merged.length).toBeGreaterThan(0);
    expect(dry.archived.length).toBeGreaterThan(0);
    expect(dry.staleFacts.length).toBeGreaterThan(0);
    expect(dry.supersededGraph.length).toBeGreaterThan(0);

    const real = await memory.consolidate({ scope: org });
    expect(real.merged).toEqual(dry.merged);
    expect(real.archived.map((a) => a.ids)).toEqual(dry.archived.map((a) => a.ids));
    expect(real.staleFacts).toEqual(dry.staleFacts);
    expect(real.supersededGraph).toEqual(dry.supersededGraph);
    const audited = await memory.audit.list(org, {
      actions: ['episode.merge', 'episode.archive', 'fact.stale', 'graph.supersede'],
    });
    expect(audited.items.map((e) => e.id).sort()).toEqual([...real.auditIds].sort());
  });

  it('rejects a missing scope', async () => {
    const { memory } = setup();
    await expect(memory.consolidate({} as never)).rejects.toSatisfy((e) =>
      StrataError.hasCode(e, 'invalid_scope'),
    );
    await expect(memory.consolidate({ scope: org, archiveBelow: 2 })).rejects.toSatisfy((e) =>
      StrataError.hasCode(e, 'invalid_input'),
    );
  });
});
