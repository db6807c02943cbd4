import { request } from 'node:http';
import { createMemory, type Memory, memoryStore } from '@strata-memory/core';
import { testEmbedder } from '@strata-memory/core/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MARIA, seedInspectorMemory } from '../../test/inspector-seed.ts';
import { type Inspector, startInspector } from './server.ts';

let memory: Memory;
let inspector: Inspector;
let reviewId: string;
const maria = 'org=acme,user=maria';

beforeAll(async () => {
  memory = createMemory({ store: memoryStore(), embedder: testEmbedder() });
  ({ reviewId } = await seedInspectorMemory(memory));
  inspector = await startInspector({
    memory,
    principal: { id: 'reviewer', level: 1_000_000 },
    info: { store: 'in-memory', scope: 'org=acme' },
  });
});

afterAll(async () => {
  await inspector?.close();
  await memory?.close();
});

function url(path: string, query: Record<string, string> = {}): string {
  const target = new URL(path, `http://127.0.0.1:${inspector.port}`);
  for (const [name, value] of Object.entries(query)) target.searchParams.set(name, value);
  return target.toString();
}

async function call(
  path: string,
  options: { query?: Record<string, string>; body?: unknown; token?: string | null } = {},
) {
  const token = options.token === undefined ? inspector.token : options.token;
  const response = await fetch(url(path, options.query), {
    method: options.body === undefined ? 'GET' : 'POST',
    headers: {
      ...(token === null ? {} : { 'x-strata-token': token }),
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(options.body === undefined
      ? {}
      : { body: typeof options.body === 'string' ? options.body : JSON.stringify(options.body) }),
  });
  // biome-ignore lint/suspicious/noExplicitAny: the API's JSON answers, checked by each test's assertions
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

describe('the inspector server', () => {
  it('prints a URL on 127.0.0.1 that carries its token', () => {
    expect(inspector.url).toBe(`http://127.0.0.1:${inspector.port}/?token=${inspector.token}`);
    expect(inspector.token).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses API requests without the right token, and accepts it as header or query parameter', async () => {
    expect((await call('/api/facts', { query: { scope: maria }, token: null })).status).toBe(401);
    expect((await call('/api/facts', { query: { scope: maria }, token: 'wrong' })).status).toBe(401);
    const byQuery = await call('/api/facts', {
      query: { scope: maria, token: inspector.token },
      token: null,
    });
    expect(byQuery.status).toBe(200);
  });

  it('reports a port in use as bad input', async () => {
    const taken = startInspector({
      memory,
      principal: { id: 'x' },
      info: { store: 'x' },
      port: inspector.port,
    });
    await expect(taken).rejects.toMatchObject({
      code: 'invalid_input',
      message: expect.stringContaining('in use'),
    });
  });

  it('refuses a request that names another host (DNS rebinding)', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: inspector.port,
          path: '/api/info',
          headers: { host: 'attacker.example', 'x-strata-token': inspector.token },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(421);
  });

  it('serves the page and its libraries from local files, and nothing outside them', async () => {
    const page = await fetch(url('/'));
    const html = await page.text();
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    const imports = JSON.parse(
      /<script type="importmap">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '{}',
    ).imports;
    for (const path of Object.values(imports) as string[]) {
      const file = await fetch(url(path));
      expect(file.status, path).toBe(200);
      expect(file.headers.get('content-type')).toContain('javascript');
      expect((await file.text()).length).toBeGreaterThan(100);
    }
    expect((await fetch(url('/%2e%2e/server.ts'))).status).toBe(404);
    expect((await fetch(url('/vendor/unknown.mjs'))).status).toBe(404);
  });

  it('answers bad input with 400 and the StrataError code, an unknown id with 404', async () => {
    const badScope = await call('/api/facts', { query: { scope: 'tenant' } });
    expect(badScope.status).toBe(400);
    expect(badScope.body.error.code).toBe('invalid_input');
    const noScope = await call('/api/facts');
    expect(noScope.status).toBe(400);
    expect(noScope.body.error.message).toContain('scope');
    const noValue = await call('/api/facts/correct', {
      body: { scope: maria, entity: 'Supplier X', key: 'lead time' },
    });
    expect(noValue.status).toBe(400);
    expect(noValue.body.error.code).toBe('invalid_input');
    const notJson = await call('/api/recall', { body: '{not json' });
    expect(notJson.status).toBe(400);
    expect(notJson.body.error.message).toContain('not valid JSON');
    const unknown = await call('/api/review/approve', { body: { scope: maria, id: 'rev_unknown' } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('not_found');
    const unknownNode = await call('/api/graph/impact', { query: { scope: maria, node: 'node_unknown' } });
    expect(unknownNode.status).toBe(404);
    expect((await call('/api/nothing')).status).toBe(404);
    expect((await call('/api/facts', { body: {} })).status).toBe(405);
    // Nothing stored changed.
    expect((await memory.facts.get(MARIA, { entity: 'Supplier X', key: 'lead time' }))?.value).toBe(
      '30 days',
    );
  });

  it('lists scopes, facts with history and provenance, the review queue and the graph', async () => {
    const scopes = await call('/api/scopes', { query: { root: 'org=acme' } });
    expect(scopes.body.items).toContainEqual(MARIA);
    const facts = await call('/api/facts', { query: { scope: maria } });
    const lead = facts.body.items.find((fact: { key: string }) => fact.key === 'lead time');
    expect(lead).toMatchObject({
      value: '30 days',
      version: 2,
      provenance: { source: 'human', principalId: 'maria' },
    });
    const history = await call('/api/facts/history', {
      query: { scope: maria, entity: 'supplier x', key: 'lead time' },
    });
    expect(history.body.items.map((v: { value: string; status: string }) => [v.value, v.status])).toEqual([
      ['45 days', 'superseded'],
      ['30 days', 'active'],
    ]);
    const review = await call('/api/review', { query: { scope: maria } });
    expect(review.body.items.map((item: { id: string }) => item.id)).toEqual([reviewId]);
    const graph = await call('/api/graph', { query: { scope: maria } });
    expect(graph.body.nodes.map((n: { name: string }) => n.name)).toEqual(
      expect.arrayContaining(['auth service', 'billing', 'client SDK', 'gRPC migration']),
    );
    const relations = graph.body.edges.map((e: { relation: string }) => e.relation);
    expect(relations).toEqual(expect.arrayContaining(['affects', 'depends_on', 'depends_on']));
    const grpc = graph.body.nodes.find((n: { name: string }) => n.name === 'gRPC migration');
    const impact = await call('/api/graph/impact', { query: { scope: maria, node: grpc.id } });
    expect(impact.body.affected.map((a: { node: { name: string } }) => a.node.name).sort()).toEqual([
      'billing',
      'client SDK',
    ]);
  });

  it('recalls with the rendered block and the explanation of every candidate', async () => {
    const recall = await call('/api/recall', {
      body: { scope: maria, query: "What is Supplier X's lead time?" },
    });
    expect(recall.status).toBe(200);
    expect(recall.body.block).toContain('30 days');
    expect(recall.body.tokens).toBeGreaterThan(0);
    expect(
      recall.body.explain.some(
        (e: { layer: string; included: boolean }) => e.layer === 'facts' && e.included,
      ),
    ).toBe(true);
  });

  it('lists the latest episodes, or those matching a keyword search, without their vectors', async () => {
    const latest = await call('/api/episodes', { query: { scope: maria } });
    expect(latest.body.items.length).toBeGreaterThanOrEqual(3);
    const found = await call('/api/episodes', { query: { scope: maria, q: 'lead time' } });
    expect(found.body.items.length).toBeGreaterThan(0);
    expect(found.body.items[0].text).toContain('lead time');
    expect(found.body.items[0].score).toBeGreaterThan(0);
    expect(found.body.items.every((e: { embedding?: unknown }) => e.embedding === undefined)).toBe(true);
  });

  it('previews consolidation without changing anything', async () => {
    const before = (await memory.store.audit.list({ scope: MARIA, limit: 500 })).items.length;
    const report = await call('/api/consolidation', { query: { scope: 'org=acme' } });
    expect(report.body).toMatchObject({ dryRun: true, auditIds: [] });
    expect(report.body.checked.facts).toBeGreaterThan(0);
    expect((await memory.store.audit.list({ scope: MARIA, limit: 500 })).items.length).toBe(before);
  });

  it('writes through the engine: a correction is a new version, an approval writes the fact, both audited', async () => {
    const corrected = await call('/api/facts/correct', {
      body: { scope: maria, entity: 'supplier x', entityType: 'entity', key: 'lead time', value: '21 days' },
    });
    expect(corrected.status).toBe(200);
    expect(corrected.body.fact).toMatchObject({
      value: '21 days',
      version: 3,
      provenance: { source: 'human', principalId: 'reviewer' },
    });
    const history = await memory.facts.history(MARIA, { entity: 'Supplier X', key: 'lead time' });
    expect(history.map((v) => v.value)).toEqual(['45 days', '30 days', '21 days']);

    const approved = await call('/api/review/approve', {
      body: { scope: maria, id: reviewId, note: 'agreed' },
    });
    expect(approved.status).toBe(200);
    expect(approved.body.item).toMatchObject({ status: 'approved', decidedBy: 'reviewer', note: 'agreed' });
    const terms = await memory.facts.get(MARIA, { entity: 'construction suppliers', key: 'payment terms' });
    expect(terms?.value).toBe('90 days');
    expect(await memory.review.list(MARIA)).toEqual([]);
    const again = await call('/api/review/reject', { body: { scope: maria, id: reviewId } });
    expect(again.status).toBe(409);

    const audit = await call('/api/audit', { query: { scope: 'org=acme', limit: '100' } });
    const byReviewer = audit.body.items.filter((e: { actor: string }) => e.actor === 'reviewer');
    expect(byReviewer.map((e: { action: string }) => e.action)).toEqual(
      expect.arrayContaining(['review.approve', expect.stringMatching(/^fact\./)]),
    );
    const filtered = await call('/api/audit', { query: { scope: 'org=acme', action: 'review.approve' } });
    expect(filtered.body.items.map((e: { action: string }) => e.action)).toEqual(['review.approve']);
  });

  it('pages through the audit log, newest first', async () => {
    const first = await call('/api/audit', { query: { scope: 'org=acme', limit: '2' } });
    expect(first.body.items).toHaveLength(2);
    expect(first.body.nextCursor).toBeTypeOf('string');
    const second = await call('/api/audit', {
      query: { scope: 'org=acme', limit: '2', cursor: first.body.nextCursor },
    });
    const [a, b] = first.body.items;
    expect(a.at).toBeGreaterThanOrEqual(b.at);
    expect(second.body.items[0].id).not.toBe(a.id);
    expect(second.body.items[0].at).toBeLessThanOrEqual(b.at);
  });
});

describe('the inspector server without a scope', () => {
  let many: Memory;
  let open: Inspector;
  const solo = { userId: 'solo', threadId: 't1' };
  const auditOnly = { userId: 'auditor' };
  const mariaThread = { ...MARIA, threadId: 't9' };

  beforeAll(async () => {
    many = createMemory({ store: memoryStore(), embedder: testEmbedder() });
    await seedInspectorMemory(many);
    // Other tenants, rooted at users: one holding only a thread's messages, one only an audit entry.
    await many.store.threads.appendMessages({ scope: solo, messages: [{ role: 'user', content: 'hello' }] });
    await many.store.audit.append({ entries: [{ scope: auditOnly, action: 'test.audit' }] });
    // A thread of Maria's: listed before her scope, sees her facts but holds none.
    await many.store.threads.appendMessages({
      scope: mariaThread,
      messages: [{ role: 'user', content: 'hi' }],
    });
    open = await startInspector({
      memory: many,
      principal: { id: 'reviewer', level: 1_000_000 },
      info: { store: 'in-memory' },
    });
  });

  afterAll(async () => {
    await open?.close();
    await many?.close();
  });

  async function get(path: string, query: Record<string, string> = {}) {
    const target = new URL(path, `http://127.0.0.1:${open.port}`);
    for (const [name, value] of Object.entries(query)) target.searchParams.set(name, value);
    const response = await fetch(target, { headers: { 'x-strata-token': open.token } });
    // biome-ignore lint/suspicious/noExplicitAny: the API's JSON answers, checked by the assertions
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  }

  it('lists every scope of every tenant, and starts on the first scope that holds facts', async () => {
    const info = await get('/api/info');
    expect(info.body.scope).toBeUndefined();
    const scopes = await get('/api/scopes');
    expect(scopes.status).toBe(200);
    const all = await many.store.scopes.list({ limit: 1000 });
    expect(scopes.body.items).toEqual(all.items);
    expect(scopes.body.items).toEqual(expect.arrayContaining([MARIA, mariaThread, solo, auditOnly]));
    // Maria's thread comes first (deepest) and sees her facts without holding any, then the solo
    // thread (no org) holds none: the page opens on Maria's scope, where the facts are stored.
    expect(scopes.body.items.slice(0, 2)).toEqual([mariaThread, solo]);
    expect(scopes.body.start).toEqual(MARIA);
    // Reads of one scope still need it.
    expect((await get('/api/facts')).status).toBe(400);
    const maria = await get('/api/facts', { scope: 'org=acme,user=maria' });
    expect(maria.body.items.map((fact: { key: string }) => fact.key)).toContain('lead time');
    // A root still narrows the listing to its subtree.
    const acme = await get('/api/scopes', { root: 'org=acme' });
    expect(acme.body.items).toEqual((await many.store.scopes.list({ scope: { orgId: 'acme' } })).items);
    expect(acme.body.items).not.toContainEqual(solo);
  });

  it('starts on the first scope when no scope sees a fact, and on nothing in an empty store', async () => {
    const empty = createMemory({ store: memoryStore() });
    const inspector = await startInspector({ memory: empty, principal: { id: 'x' }, info: { store: 'x' } });
    try {
      const list = async () => {
        const response = await fetch(new URL('/api/scopes', `http://127.0.0.1:${inspector.port}`), {
          headers: { 'x-strata-token': inspector.token },
        });
        return (await response.json()) as { items: unknown[]; start?: unknown };
      };
      expect(await list()).toEqual({ items: [] });
      await empty.store.state.set({ scope: solo, key: 'k', value: 1 });
      await empty.store.state.set({ scope: auditOnly, key: 'k', value: 1 });
      expect(await list()).toEqual({ items: [solo, auditOnly], start: solo });
    } finally {
      await inspector.close();
      await empty.close();
    }
  });
});
