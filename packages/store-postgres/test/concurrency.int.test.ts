import { createMemory, type Scope, type Store, StrataError } from '@strata-memory/core';
import { testEmbedder } from '@strata-memory/core/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTarget, type TestTarget, vectorDrift } from './target.ts';

/**
 * 32 concurrent observe + recall loops across 8 tenants, then a full audit: nothing lost, nothing
 * duplicated, no tenant saw another's data, no fact update lost.
 *
 * Twice: once at the store level (what `observe` and `recall` do underneath: append the message,
 * store the episode, supersede a fact under optimistic concurrency; keyword + vector search),
 * and once through the engine itself (`memory.observe` / `memory.recall`, which run their writes in
 * store transactions and retry conflicts).
 */

const TENANTS = 8;
const LOOPS = 32;
const ROUNDS = 10;
const api = { source: 'api' } as const;
const embedder = testEmbedder(64);

interface Recalled {
  scope: Scope;
  text: string;
}

interface Agent {
  /** Records one message and what is learned from it; returns the number of fact-write retries. */
  observe(scope: Scope, input: { id: string; content: string; counter: string }): Promise<number>;
  recall(scope: Scope, query: string): Promise<Recalled[]>;
}

function storeAgent(store: Store): Agent {
  return {
    async observe(scope, { id, content, counter }) {
      await store.threads.appendMessages({ scope, messages: [{ id, role: 'user', content }] });
      const longTerm = { userId: scope.userId! };
      const [embedding] = await embedder.embed({ texts: [content] });
      await store.episodes.put({
        episodes: [
          {
            id,
            scope: longTerm,
            text: content,
            occurredAt: Date.now(),
            provenance: { ...api, messageId: id },
            embedding,
          },
        ],
      });
      // Optimistic concurrency: read the current version, supersede it, re-read and retry on conflict.
      for (let retries = 0; ; retries++) {
        const [current] = (
          await store.facts.find({ scope: longTerm, entityType: 'agent', key: 'last message' })
        ).items;
        try {
          await store.facts.supersede({
            scope: longTerm,
            id: current!.id,
            expectedVersion: current!.version,
            next: { value: counter, provenance: { ...api, messageId: id } },
          });
          return retries;
        } catch (error) {
          if (!StrataError.hasCode(error, 'conflict')) throw error;
        }
      }
    },
    async recall(scope, query) {
      const longTerm = { userId: scope.userId! };
      const [vector] = await embedder.embed({ texts: [query] });
      const [keyword, nearest] = await Promise.all([
        store.episodes.searchKeyword({ scope: longTerm, query, limit: 10 }),
        store.episodes.searchVector({ scope: longTerm, vector: vector!, limit: 10 }),
      ]);
      return [...keyword, ...nearest].map((hit) => ({ scope: hit.episode.scope, text: hit.episode.text }));
    },
  };
}

let target: TestTarget;
let store: Store;
let schema: string;

beforeAll(async () => {
  target = await openTarget();
  schema = target.freshSchema('concurrent');
  store = target.openStore({ schema, poolSize: 12 });
});

afterAll(async () => {
  await target.close();
});

const tenantOfLoop = (loop: number) => `tenant${loop % TENANTS}`;

describe('concurrent observe + recall', () => {
  it(`${LOOPS} loops across ${TENANTS} tenants lose nothing, duplicate nothing and leak nothing`, async () => {
    const agent = storeAgent(store);
    for (let t = 0; t < TENANTS; t++) {
      await store.facts.insert({
        fact: {
          scope: { userId: `tenant${t}` },
          entityType: 'agent',
          entityId: 'loop',
          key: 'last message',
          value: 'start',
          provenance: api,
        },
      });
    }

    const leaks: string[] = [];
    let retries = 0;
    await Promise.all(
      Array.from({ length: LOOPS }, async (_, loop) => {
        const tenant = tenantOfLoop(loop);
        const scope = { userId: tenant, threadId: `thread${loop}` };
        for (let round = 0; round < ROUNDS; round++) {
          const id = `m-${loop}-${round}`;
          // Every text names its tenant, and all tenants share the other words, so a search
          // that crossed tenants would find the others' episodes.
          const content = `${tenant} shipment update ${round} from loop ${loop} about invoices`;
          retries += await agent.observe(scope, { id, content, counter: id });
          for (const hit of await agent.recall(scope, `shipment invoices update ${round}`)) {
            if (hit.scope.userId !== tenant || !hit.text.startsWith(`${tenant} `)) {
              leaks.push(`${tenant} saw ${JSON.stringify(hit)}`);
            }
          }
        }
      }),
    );

    expect(leaks).toEqual([]);
    for (let t = 0; t < TENANTS; t++) {
      const tenant = `tenant${t}`;
      const loops = Array.from({ length: LOOPS }, (_, loop) => loop).filter(
        (loop) => tenantOfLoop(loop) === tenant,
      );
      const expectedIds = loops.flatMap((loop) =>
        Array.from({ length: ROUNDS }, (_, round) => `m-${loop}-${round}`),
      );

      // Messages: every one stored once, numbered 1..n in its thread.
      for (const loop of loops) {
        const messages = await store.threads.listMessages({
          scope: { userId: tenant, threadId: `thread${loop}` },
          limit: 1000,
        });
        expect(messages.map((m) => m.id)).toEqual(
          Array.from({ length: ROUNDS }, (_, round) => `m-${loop}-${round}`),
        );
        expect(messages.map((m) => m.seq)).toEqual(Array.from({ length: ROUNDS }, (_, i) => i + 1));
      }

      // Episodes: exactly the tenant's own, each once.
      const episodes = await store.episodes.list({ scope: { userId: tenant }, limit: 1000 });
      expect(episodes.items.map((e) => e.id).sort()).toEqual([...expectedIds].sort());
      expect(episodes.items.every((e) => e.text.startsWith(`${tenant} `))).toBe(true);

      // Facts: one version per successful update, none lost, a single current version.
      const history = await store.facts.history({
        scope: { userId: tenant },
        entityType: 'agent',
        entityId: 'loop',
        key: 'last message',
      });
      expect(history).toHaveLength(1 + expectedIds.length);
      expect(history.map((f) => f.version)).toEqual(Array.from({ length: history.length }, (_, i) => i + 1));
      expect(history.filter((f) => f.status === 'active')).toHaveLength(1);
      expect(
        history
          .slice(1)
          .map((f) => f.value as string)
          .sort(),
      ).toEqual([...expectedIds].sort());
      for (let i = 1; i < history.length; i++) expect(history[i]!.supersedes).toBe(history[i - 1]!.id);
    }

    // The row counts match too: no stray rows under another tenant.
    const total = await store.episodes.count({ scope: { userId: 'tenant0' } });
    expect(total).toBe((LOOPS / TENANTS) * ROUNDS);
    // Each tenant's vector candidates were counted by writers racing on the same scope's row.
    expect(await vectorDrift(target.sql, schema)).toEqual([]);
    // With several loops per tenant racing on one fact, optimistic concurrency had to retry:
    // the conflicts were real and were all recovered.
    expect(retries).toBeGreaterThan(0);
  });
});

describe('concurrent memory.observe + memory.recall (the engine over this store)', () => {
  const ENGINE_ROUNDS = 4;

  it(`${LOOPS} loops across ${TENANTS} tenants lose nothing, duplicate nothing and leak nothing`, async () => {
    const engineStore = target.openStore({ poolSize: 12 });
    const memory = createMemory({ store: engineStore, embedder });
    const leaks: string[] = [];
    let recalled = 0;
    await Promise.all(
      Array.from({ length: LOOPS }, async (_, loop) => {
        const tenant = `engine${loop % TENANTS}`;
        const scope = { userId: tenant, threadId: `thread${loop}` };
        for (let round = 0; round < ENGINE_ROUNDS; round++) {
          const content = `${tenant} reports that order ${loop}-${round} shipped with invoice ${loop * 100 + round}.`;
          await memory.observe(scope, { id: `m-${loop}-${round}`, role: 'user', content });
          // Without the relevance bar every candidate is shown: the leak check sees all of them.
          const context = await memory.recall(scope, {
            query: `order ${loop}-${round} invoice shipped`,
            relevanceBar: false,
          });
          recalled += context.sections.episodes.length;
          for (const item of context.sections.episodes) {
            if (item.episode.scope.userId !== tenant || !item.episode.text.startsWith(`${tenant} `)) {
              leaks.push(`${tenant} recalled ${JSON.stringify(item.episode.scope)}: ${item.episode.text}`);
            }
          }
          for (const message of context.sections.working) {
            if (message.scope.threadId !== scope.threadId)
              leaks.push(`${tenant} saw message of ${message.scope.threadId}`);
          }
        }
      }),
    );
    expect(leaks).toEqual([]);
    // The leak check looked at something: recalls did bring back episodes.
    expect(recalled).toBeGreaterThan(LOOPS);

    for (let t = 0; t < TENANTS; t++) {
      const tenant = `engine${t}`;
      const loops = Array.from({ length: LOOPS }, (_, loop) => loop).filter((loop) => loop % TENANTS === t);
      for (const loop of loops) {
        const messages = await engineStore.threads.listMessages({
          scope: { userId: tenant, threadId: `thread${loop}` },
        });
        expect(messages.map((m) => m.id)).toEqual(
          Array.from({ length: ENGINE_ROUNDS }, (_, round) => `m-${loop}-${round}`),
        );
        expect(messages.map((m) => m.seq)).toEqual(Array.from({ length: ENGINE_ROUNDS }, (_, i) => i + 1));
      }
      // Every observed message became exactly one episode of its tenant (the texts are all different).
      const episodes = await engineStore.episodes.list({ scope: { userId: tenant }, limit: 1000 });
      const texts = episodes.items.map((e) => e.text);
      expect(texts).toHaveLength(loops.length * ENGINE_ROUNDS);
      expect(new Set(texts).size).toBe(texts.length);
      expect(texts.every((text) => text.startsWith(`${tenant} `))).toBe(true);
      // Whatever facts the extractor found: one current version per key, versions without gaps.
      const facts = await engineStore.facts.find({ scope: { userId: tenant }, limit: 1000 });
      const keys = facts.items.map((f) => JSON.stringify([f.scope, f.entityType, f.entityId, f.key]));
      expect(new Set(keys).size).toBe(keys.length);
      for (const fact of facts.items) {
        const { entityType, entityId, key } = fact;
        const history = await engineStore.facts.history({ scope: fact.scope, entityType, entityId, key });
        expect(history.map((f) => f.version)).toEqual(
          Array.from({ length: history.length }, (_, i) => i + 1),
        );
      }
    }
  });
});
