import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type AuditEntry,
  type ExplainEntry,
  type FactRecord,
  type ReviewItem,
  scopeInventory,
} from '@strata-memory/core';
import { SCHEMA_VERSION, sqliteStore } from '@strata-memory/store-sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProgram } from '../src/program.ts';
import { runCli, runCliInTerminal, runJson } from './run-cli.ts';
import { BOB, copySqlite, MARIA, memoryOn, seed, THURSDAY } from './seed.ts';

const folder = mkdtempSync(join(tmpdir(), 'strata-cli-'));
const template = join(folder, 'template.db');
let copies = 0;
const maria = 'org=acme,user=maria';

/** A fresh copy of the seeded store, for a test that changes it. */
function freshStore(): string {
  copies += 1;
  return copySqlite(template, join(folder, `copy-${copies}.db`));
}

/** Reads a store with the engine, the way the CLI opens it. */
async function withMemory<T>(
  path: string,
  fn: (memory: ReturnType<typeof memoryOn>) => Promise<T>,
): Promise<T> {
  const memory = memoryOn(sqliteStore({ path }));
  try {
    return await fn(memory);
  } finally {
    await memory.close();
  }
}

beforeAll(async () => {
  await seed(sqliteStore({ path: template }));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('strata --help', () => {
  it('lists every command', async () => {
    const run = await runCli(['--help']);
    expect(run.code).toBe(0);
    const registered = createProgram().commands.map((command) => command.name());
    expect(registered).toEqual(
      expect.arrayContaining([
        'recall',
        'facts',
        'review',
        'graph',
        'episodes',
        'audit',
        'consolidate',
        'forget',
        'stats',
        'migrate',
      ]),
    );
    for (const name of registered) expect(run.stdout).toMatch(new RegExp(`^  ${name}\\b`, 'm'));
  });
});

describe('strata recall', () => {
  it('prints the block with the corrected value, then the explanation of every candidate', async () => {
    const store = freshStore();
    const query = "What is Supplier X's lead time?";
    const run = await runJson<{ block: string; tokens: number; budget: number; explain: ExplainEntry[] }>([
      '--store',
      store,
      'recall',
      query,
      '--scope',
      'org=acme,user=maria,thread=friday',
      '--budget',
      '300',
    ]);
    expect(run.code).toBe(0);
    const current = await withMemory(store, (m) =>
      m.facts.get(MARIA, { entity: 'Supplier X', key: 'lead time' }),
    );
    expect(current?.value).toBe('30 days');
    expect(run.json.block).toContain('lead time: 30 days');
    expect(run.json.block).not.toContain('12 days'); // Bob's
    expect(run.json.tokens).toBeLessThanOrEqual(300);
    expect(run.json.budget).toBe(300);
    const fact = run.json.explain.find((entry) => entry.id === current?.id);
    expect(fact).toMatchObject({ layer: 'facts', included: true });
    expect(run.json.explain.some((entry) => entry.layer === 'episodes')).toBe(true);

    const text = await runCli(['--store', store, 'recall', query, '--scope', maria]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('<memory>');
    expect(text.stdout).toMatch(/^\d+ in, \d+ out$/m);
    expect(text.stdout).toMatch(/^in {3}facts +\d+ tok {2}keyword [\d.]+ · final [\d.]+ {2}\S+$/m);
    expect(text.stdout).toContain(current!.id);
    expect(text.stderr).toContain('recalling');
  });
});

describe('strata facts', () => {
  it('lists the current facts visible at a scope, never a sibling user’s', async () => {
    const store = freshStore();
    const run = await runJson<{ facts: FactRecord[] }>(['--store', store, 'facts', 'list', '--scope', maria]);
    expect(run.code).toBe(0);
    const expected = await withMemory(store, (m) =>
      m.facts.list(MARIA, {}, { principal: { id: 't', role: 'admin' } }),
    );
    expect(run.json.facts.map((f) => f.id).sort()).toEqual(expected.map((f) => f.id).sort());
    expect(run.json.facts.some((f) => f.entityId === 'supplier z')).toBe(false);
    const text = await runCli([
      '--store',
      store,
      'facts',
      'list',
      '--scope',
      maria,
      '--entity',
      'Supplier Y',
    ]);
    expect(text.stdout).toContain('$1,150');
    expect(text.stdout).not.toContain('30 days');
  });

  it('shows every version with status, confidence, validity and provenance', async () => {
    const store = freshStore();
    const args = [
      '--store',
      store,
      'facts',
      'history',
      '--scope',
      maria,
      '--entity',
      'Supplier X',
      '--key',
      'lead time',
    ];
    const run = await runJson<{ versions: FactRecord[] }>(args);
    expect(run.code).toBe(0);
    expect(run.json.versions.map((f) => [f.value, f.status])).toEqual([
      ['45 days', 'superseded'],
      ['30 days', 'active'],
    ]);
    expect(run.json.versions[1]!.provenance.source).toBe('extraction');
    expect(run.json.versions[0]!.validTo).toBeDefined();
    const text = await runCli(args);
    expect(text.stdout).toMatch(
      /^version\s+value\s+status\s+confidence\s+valid from\s+valid to\s+provenance/m,
    );
    expect(text.stdout).toContain('thread thursday');

    const missing = await runJson([...args.slice(0, -1), 'delivery window']);
    expect(missing.code).toBe(2);
    expect(missing.json).toMatchObject({ error: { code: 'not_found' } });
  });

  it('sets a value through the engine: the old version is superseded and the write audited as the actor', async () => {
    const store = freshStore();
    const run = await runJson<{ outcome: string; fact: FactRecord; previous: FactRecord }>([
      '--store',
      store,
      'facts',
      'set',
      '--scope',
      maria,
      '--entity',
      'Supplier Y',
      '--key',
      'quote',
      '--value',
      '$1,300',
      '--as',
      'tester',
    ]);
    expect(run.code).toBe(0);
    expect(run.json.outcome).toBe('superseded');
    expect(run.json.previous.value).toBe('$1,150');
    await withMemory(store, async (m) => {
      const history = await m.facts.history(MARIA, { entity: 'Supplier Y', key: 'quote' });
      expect(history.map((f) => [f.value, f.status])).toEqual([
        ['$1,150', 'superseded'],
        ['$1,300', 'active'],
      ]);
      expect(history[1]!.provenance.principalId).toBe('tester');
      const audit = await m.audit.list(MARIA, { actions: ['fact.supersede'] });
      expect(audit.items.map((e) => e.subjectId)).toContain(run.json.fact.id);
    });
  });

  it('records --correct as a human correction', async () => {
    const store = freshStore();
    const run = await runJson<{ outcome: string; fact: FactRecord }>([
      '--store',
      store,
      'facts',
      'set',
      '--scope',
      maria,
      '--entity',
      'Supplier X',
      '--key',
      'lead time',
      '--value',
      '21 days',
      '--correct',
    ]);
    expect(run.code).toBe(0);
    expect(run.json).toMatchObject({ outcome: 'corrected', fact: { value: '21 days', confidence: 1 } });
    expect(run.json.fact.provenance.source).toBe('human');
  });

  it('refuses a bad value or confidence and changes nothing', async () => {
    const store = freshStore();
    const base = [
      '--store',
      store,
      'facts',
      'set',
      '--scope',
      maria,
      '--entity',
      'Supplier Y',
      '--key',
      'quote',
    ];
    const badJson = await runJson([...base, '--value', '{oops', '--json-value']);
    expect(badJson.code).toBe(2);
    expect(badJson.json).toMatchObject({ error: { code: 'invalid_input' } });
    const badConfidence = await runCli([...base, '--value', 'x', '--confidence', '7']);
    expect(badConfidence.code).toBe(2);
    expect(badConfidence.stderr).toContain('--confidence');
    const history = await withMemory(store, (m) =>
      m.facts.history(MARIA, { entity: 'Supplier Y', key: 'quote' }),
    );
    expect(history.map((f) => f.value)).toEqual(['$1,150']);
  });

  it('forgets one fact with its history, and reports an unknown id as not found', async () => {
    const store = freshStore();
    const id = await withMemory(
      store,
      async (m) => (await m.facts.get(MARIA, { entity: 'Supplier Y', key: 'quote' }))!.id,
    );
    const run = await runJson(['--store', store, 'facts', 'forget', id, '--scope', maria]);
    expect(run.code).toBe(0);
    expect(run.json).toMatchObject({ deleted: true });
    expect(
      await withMemory(store, (m) => m.facts.get(MARIA, { entity: 'Supplier Y', key: 'quote' })),
    ).toBeNull();
    const again = await runJson(['--store', store, 'facts', 'forget', id, '--scope', maria]);
    expect(again.code).toBe(2);
    expect(again.json).toMatchObject({ error: { code: 'not_found' } });
    // Bob's fact is not Maria's to forget.
    const bobs = await withMemory(store, async (m) => (await m.facts.list(BOB))[0]!.id);
    const sibling = await runCli(['--store', store, 'facts', 'forget', bobs, '--scope', maria]);
    expect(sibling.code).toBe(2);
    expect(await withMemory(store, async (m) => (await m.facts.list(BOB)).length)).toBe(1);
  });
});

describe('strata review', () => {
  it('lists the what-if, approves it into a fact, and refuses to decide it twice', async () => {
    const store = freshStore();
    const list = await runJson<{ items: ReviewItem[] }>([
      '--store',
      store,
      'review',
      'list',
      '--scope',
      maria,
    ]);
    expect(list.code).toBe(0);
    const pending = await withMemory(store, (m) => m.review.list(THURSDAY));
    expect(list.json.items.map((i) => i.id)).toEqual(pending.map((i) => i.id));
    const whatIf = list.json.items.find((i) => i.reason === 'hypothetical');
    expect(whatIf).toBeDefined();

    const text = await runCli(['--store', store, 'review', 'list', '--scope', maria]);
    expect(text.stdout).toContain('90 days');

    const approve = await runJson<{ item: ReviewItem; fact?: FactRecord }>([
      '--store',
      store,
      'review',
      'approve',
      whatIf!.id,
      '--scope',
      maria,
      '--note',
      'agreed with finance',
    ]);
    expect(approve.code).toBe(0);
    expect(approve.json.item.status).toBe('approved');
    expect(approve.json.fact?.value).toBe('90 days');
    await withMemory(store, async (m) => {
      expect((await m.review.list(MARIA)).map((i) => i.id)).not.toContain(whatIf!.id);
      const audit = await m.audit.list(MARIA, { actions: ['review.approve'] });
      expect(audit.items.map((e) => e.subjectId)).toContain(whatIf!.id);
    });

    const twice = await runJson(['--store', store, 'review', 'reject', whatIf!.id, '--scope', maria]);
    expect(twice.code).toBe(2);
    expect(twice.json).toMatchObject({ error: { code: 'conflict' } });
    const unknown = await runJson(['--store', store, 'review', 'approve', 'rev_nope', '--scope', maria]);
    expect(unknown.code).toBe(2);
    expect(unknown.json).toMatchObject({ error: { code: 'not_found' } });
  });

  it('rejects a proposal: nothing is written', async () => {
    const store = freshStore();
    const [item] = await withMemory(store, (m) => m.review.list(MARIA));
    const run = await runJson<{ item: ReviewItem }>([
      '--store',
      store,
      'review',
      'reject',
      item!.id,
      '--scope',
      maria,
    ]);
    expect(run.code).toBe(0);
    expect(run.json.item.status).toBe('rejected');
    const facts = await withMemory(store, (m) => m.facts.list(MARIA));
    expect(facts.map((f) => f.value)).not.toContain('90 days');
  });
});

describe('strata graph', () => {
  it('shows the nodes and edges, and the impact of a change through what it affects', async () => {
    const store = freshStore();
    const show = await runJson<{ nodes: Array<{ name: string }>; edges: Array<{ relation: string }> }>([
      '--store',
      store,
      'graph',
      'show',
      '--scope',
      maria,
    ]);
    expect(show.code).toBe(0);
    const expected = await withMemory(store, (m) => m.store.graph.listNodes({ scope: MARIA, limit: 1000 }));
    expect(show.json.nodes.map((n) => n.name).sort()).toEqual(expected.items.map((n) => n.name).sort());
    expect(show.json.edges.length).toBeGreaterThan(0);

    const impact = await runJson<{ affected: Array<{ node: { name: string } }> }>([
      '--store',
      store,
      'graph',
      'impact',
      'gRPC migration',
      '--scope',
      maria,
    ]);
    expect(impact.code).toBe(0);
    const engine = await withMemory(store, (m) =>
      m.graph.impact(MARIA, { node: { name: 'gRPC migration' } }),
    );
    expect(impact.json.affected.map((a) => a.node.name)).toEqual(engine.affected.map((a) => a.node.name));
    expect(engine.affected.length).toBeGreaterThan(0);

    const around = await runCli([
      '--store',
      store,
      'graph',
      'show',
      'service API',
      '--scope',
      maria,
      '--hops',
      '1',
    ]);
    expect(around.code).toBe(0);
    expect(around.stdout).toMatch(/depends_on/);

    const unknown = await runJson(['--store', store, 'graph', 'impact', 'Kubernetes', '--scope', maria]);
    expect(unknown.code).toBe(2);
    expect(unknown.json).toMatchObject({ error: { code: 'not_found' } });
  });
});

describe('strata episodes search', () => {
  it('returns the episodes the engine ranks first, best first, within the limit', async () => {
    const query = 'payment terms';
    const run = await runJson<{ episodes: Array<{ id: string; text: string; scores: { final: number } }> }>([
      '--store',
      freshStore(),
      'episodes',
      'search',
      query,
      '--scope',
      maria,
      '--limit',
      '2',
    ]);
    expect(run.code).toBe(0);
    // The engine's own ranking, on another copy (a recall counts accesses, which later rankings weigh).
    const engine = await withMemory(freshStore(), (m) =>
      m.recall(MARIA, { query, layers: ['episodes'], maxEpisodes: 2, budget: { tokens: 1_000_000 } }),
    );
    const expected = [...engine.sections.episodes]
      .sort((a, b) => b.scores.final - a.scores.final)
      .slice(0, 2);
    expect(run.json.episodes.map((e) => e.id)).toEqual(expected.map((e) => e.id));
    expect(run.json.episodes).toHaveLength(2);
    const finals = run.json.episodes.map((e) => e.scores.final);
    expect(finals).toEqual([...finals].sort((a, b) => b - a));

    const wide = await runJson<{ episodes: Array<{ text: string }> }>([
      '--store',
      freshStore(),
      'episodes',
      'search',
      query,
      '--scope',
      maria,
    ]);
    expect(wide.json.episodes.map((e) => e.text)).toContain(
      "Supplier X's lead time is 45 days and their payment terms are net 60.",
    );
  });
});

describe('strata audit', () => {
  it('filters by action and since, and pages with the cursor it prints', async () => {
    const store = freshStore();
    const all = await withMemory(store, (m) => m.audit.list(MARIA, { limit: 1000 }));
    const first = await runJson<{ entries: AuditEntry[]; nextCursor: string | null }>([
      '--store',
      store,
      'audit',
      '--scope',
      maria,
      '--limit',
      '2',
    ]);
    expect(first.code).toBe(0);
    expect(first.json.entries.map((e) => e.id)).toEqual(all.items.slice(0, 2).map((e) => e.id));
    expect(first.json.nextCursor).toEqual(expect.any(String));
    const second = await runJson<{ entries: AuditEntry[] }>([
      '--store',
      store,
      'audit',
      '--scope',
      maria,
      '--limit',
      '2',
      '--cursor',
      first.json.nextCursor!,
    ]);
    expect(second.json.entries.map((e) => e.id)).toEqual(all.items.slice(2, 4).map((e) => e.id));

    const supersedes = await runJson<{ entries: AuditEntry[] }>([
      '--store',
      store,
      'audit',
      '--scope',
      maria,
      '--action',
      'fact.supersede,review.add',
    ]);
    expect(new Set(supersedes.json.entries.map((e) => e.action))).toEqual(
      new Set(['fact.supersede', 'review.add']),
    );

    const future = await runJson<{ entries: AuditEntry[] }>([
      '--store',
      store,
      'audit',
      '--scope',
      maria,
      '--since',
      '2100-01-01',
    ]);
    expect(future.json.entries).toEqual([]);
    const badSince = await runJson(['--store', store, 'audit', '--scope', maria, '--since', 'last tuesday']);
    expect(badSince.code).toBe(2);
    const badCursor = await runJson(['--store', store, 'audit', '--scope', maria, '--cursor', 'nonsense']);
    expect(badCursor.code).toBe(2);
  });
});

describe('strata consolidate', () => {
  it('reports what it checked; a dry run writes nothing, a real run audits what it did', async () => {
    const store = freshStore();
    const before = await withMemory(
      store,
      async (m) => (await m.audit.list(MARIA, { limit: 1000 })).items.length,
    );
    const dry = await runJson<{ dryRun: boolean; checked: { episodes: number }; notes: string[] }>([
      '--store',
      store,
      'consolidate',
      '--scope',
      maria,
      '--dry-run',
      '--archive-below',
      '1',
    ]);
    expect(dry.code).toBe(0);
    expect(dry.json.dryRun).toBe(true);
    expect(dry.json.checked.episodes).toBeGreaterThan(0);
    expect(dry.json.notes.length).toBeGreaterThan(0);
    expect(
      await withMemory(store, async (m) => (await m.audit.list(MARIA, { limit: 1000 })).items.length),
    ).toBe(before);

    const real = await runJson<{ dryRun: boolean; auditIds: string[]; archived: unknown[] }>([
      '--store',
      store,
      'consolidate',
      '--scope',
      maria,
      '--archive-below',
      '1',
    ]);
    expect(real.code).toBe(0);
    expect(real.json.dryRun).toBe(false);
    const after = await withMemory(
      store,
      async (m) => (await m.audit.list(MARIA, { limit: 1000 })).items.length,
    );
    expect(after - before).toBe(real.json.auditIds.length);
  });
});

describe('strata forget', () => {
  it('refuses without a terminal unless --yes, and erases nothing then', async () => {
    const store = freshStore();
    const run = await runCli(['--store', store, 'forget', '--org', 'acme', '--user', 'maria']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--yes');
    expect((await withMemory(store, (m) => m.facts.list(MARIA))).length).toBeGreaterThan(0);
  });

  it('erases every layer of the user with --yes, and leaves a sibling user alone', async () => {
    const store = freshStore();
    const run = await runJson<{ erased: boolean; counts: Record<string, number> }>([
      '--store',
      store,
      'forget',
      '--org',
      'acme',
      '--user',
      'maria',
      '--yes',
    ]);
    expect(run.code).toBe(0);
    expect(run.json.erased).toBe(true);
    expect(run.json.counts.facts).toBeGreaterThan(0);
    await withMemory(store, async (m) => {
      const left = await scopeInventory(m.store, MARIA);
      expect(left.totals.facts + left.totals.episodes + left.totals.messages).toBe(0);
      expect((await m.facts.list(BOB)).length).toBe(1);
    });
  });

  it('asks in a terminal: anything but "yes" erases nothing, "yes" erases', async () => {
    const store = freshStore();
    const args = ['--store', store, 'forget', '--org', 'acme', '--user', 'maria'];
    const declined = await runCliInTerminal(args, 'Type "yes"', 'no');
    expect(declined.stdout).toMatch(/Erase org=acme,user=maria .*fact versions/s);
    expect(declined.stdout).toContain('nothing erased');
    expect(declined.code).toBe(1);
    expect((await withMemory(store, (m) => m.facts.list(MARIA))).length).toBeGreaterThan(0);
    const confirmed = await runCliInTerminal(args, 'Type "yes"', 'yes');
    expect(confirmed.code).toBe(0);
    expect(confirmed.stdout).toContain('erased org=acme,user=maria');
    expect((await withMemory(store, (m) => scopeInventory(m.store, MARIA))).totals.facts).toBe(0);
  });

  it('needs a scope', async () => {
    const run = await runCli(['--store', freshStore(), 'forget', '--yes']);
    expect(run.code).toBe(2);
  });
});

describe('strata stats', () => {
  it('counts items per layer and scope, and the size of the file and its log', async () => {
    const store = freshStore();
    const run = await runJson<{
      size: { bytes: number };
      inventory: { totals: Record<string, number>; scopes: unknown[] };
    }>(['--store', store, 'stats', '--scope', 'org=acme']);
    expect(run.code).toBe(0);
    const expected = await withMemory(store, (m) => scopeInventory(m.store, { orgId: 'acme' }));
    expect(run.json.inventory).toEqual(JSON.parse(JSON.stringify(expected)));
    expect(run.json.inventory.totals.facts).toBeGreaterThan(0);
    const onDisk = [store, `${store}-wal`, `${store}-shm`]
      .filter((p) => existsSync(p))
      .reduce((sum, p) => sum + statSync(p).size, 0);
    expect(run.json.size.bytes).toBeGreaterThan(0);
    // The CLI's own open may have grown the log since; never below what is on disk before it opened.
    expect(run.json.size.bytes).toBeLessThanOrEqual(onDisk + 4 * 1024 * 1024);
    const text = await runCli(['--store', store, 'stats', '--scope', 'org=acme']);
    expect(text.stdout).toMatch(/^scope\s+messages\s+episodes/m);
    expect(text.stdout).toMatch(/^total\s+/m);
  });

  it('counts every scope of the store without --scope', async () => {
    const store = freshStore();
    await withMemory(store, (m) => m.state.set({ userId: 'solo' }, 'cursor', 1));
    const run = await runJson<{ inventory: { scopes: Array<{ scope: Record<string, string> }> } }>([
      '--store',
      store,
      'stats',
    ]);
    expect(run.code).toBe(0);
    const expected = await withMemory(store, (m) => scopeInventory(m.store, undefined));
    expect(run.json.inventory).toEqual(JSON.parse(JSON.stringify(expected)));
    const scopes = run.json.inventory.scopes.map((entry) => entry.scope);
    expect(scopes).toContainEqual({ userId: 'solo' });
    expect(scopes.some((scope) => scope.orgId === 'acme')).toBe(true);
  });
});

describe('strata migrate', () => {
  it('creates a new store’s schema and reports the versions applied, then nothing on an up-to-date one', async () => {
    const path = join(folder, 'new.db');
    const created = await runJson<{ migration: { version: number; applied: number[] } }>([
      '--store',
      path,
      'migrate',
    ]);
    expect(created.code).toBe(0);
    expect(created.json.migration.version).toBe(SCHEMA_VERSION);
    expect(created.json.migration.applied.at(-1)).toBe(SCHEMA_VERSION);
    const again = await runJson<{ migration: { applied: number[] } }>(['--store', path, 'migrate']);
    expect(again.json.migration.applied).toEqual([]);
  });
});

describe('bad input and a failing store', () => {
  it('exits 2 on a bad scope and on a bad number, 3 when the store cannot be reached', async () => {
    const store = freshStore();
    const scope = await runJson(['--store', store, 'facts', 'list', '--scope', 'team=x']);
    expect(scope.code).toBe(2);
    expect(scope.json).toMatchObject({ error: { code: 'invalid_input' } });
    const noLevel = await runCli(['--store', store, 'facts', 'list', '--scope', ',']);
    expect(noLevel.code).toBe(2);
    const budget = await runCli(['--store', store, 'recall', 'x', '--scope', maria, '--budget', 'lots']);
    expect(budget.code).toBe(2);
    const missing = await runCli(['--store', store, 'facts', 'list']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--scope');
    // Port 9 on loopback: nothing listens.
    const down = await runJson([
      '--store',
      'postgres://postgres@127.0.0.1:9/strata',
      'facts',
      'list',
      '--scope',
      maria,
    ]);
    expect(down.code).toBe(3);
    expect(down.json).toMatchObject({ error: { code: 'store_unavailable' } });
  });
});
