import type { Embedder, Memory } from '@strata-memory/core';
import {
  type EdgeRecord,
  type FactRecord,
  type NodeRecord,
  normalizeName,
  type Scope,
  type Store,
} from '@strata-memory/core/store';
import { expect } from 'vitest';
import { expectCode, provenance, T0 } from '../fixtures.ts';
import {
  factKeyOf,
  ledgerRowId,
  messageRowId,
  type PlantedRows,
  stateRowId,
  threadRowId,
} from './planted-rows.ts';
import { keyOf, longTermOf, sameScopeExactly, seesFrom } from './scope-walls.ts';
import type { Write } from './world.ts';

/** Names, keys and ids written at many scopes, so that equal and twin keys meet across walls. */
export const NODE_NAMES = ['Crane A', 'crane a', 'Crane_B', 'Crane%B', 'ＣＲＡＮＥ Ａ'];
const STORE_ENTITY_IDS = ['vendor x', 'Vendor X', 'vendor_x'];
const ENGINE_ENTITIES = ['Vendor X', 'Vendor_X'];
const FACT_KEYS = ['lead time', 'lead_time'];
export const STATE_KEYS = ['cursor', 'Cursor', 'cur%'];
export const LEDGER_KEYS = ['job-1', 'JOB-1', 'job_1'];
export const MESSAGE_IDS = ['m-1', 'M-1', 'm_1'];
/** Every episode and message text holds this word, so one keyword search finds them all. */
export const COMMON_WORD = 'harbor';

/** What planting needs: the store, an engine over it, the embedder, and the rows written so far. */
export interface WorldContext {
  store: Store;
  memory: Memory;
  embedder: Embedder;
  /** Unique to the run: every id written starts with it. */
  prefix: string;
  scopes: Scope[];
  /** The scopes in families of twins (a subset of `scopes`). */
  twinScopes: Scope[];
  rows: PlantedRows;
}

const nth = <T>(items: readonly T[], n: number): T | undefined =>
  items.length === 0 ? undefined : items[n % items.length];

/** Runs one write of the plan and checks what it reports against the walls (writes never cross one either). */
export async function plant(ctx: WorldContext, write: Write, index: number): Promise<void> {
  const { store, memory, rows } = ctx;
  const among = write.twinSide && ctx.twinScopes.length > 0 ? ctx.twinScopes : ctx.scopes;
  const scope = among[write.at % among.length]!;
  const target = longTermOf(scope);
  const marker = `zq${index.toString(36)}x`;
  const id = (kind: string) => `${ctx.prefix}${kind}-${index}`;
  const where = `write #${index} (${write.kind}) at ${keyOf(scope)}`;

  switch (write.kind) {
    case 'observe': {
      const earlier = rows.alive('episode').filter((r) => r.text?.startsWith(`${COMMON_WORD} note`));
      const reused = write.flag ? nth(earlier, write.pick) : undefined;
      const content =
        reused?.text ??
        `${COMMON_WORD} note ${marker}. Vendor ${marker.toUpperCase()}'s lead time is ${(write.pick % 60) + 1} days.`;
      const messageId = nth(MESSAGE_IDS, write.pick2)!;
      const result = await memory.observe(scope, { id: messageId, role: 'user', content });
      for (const message of result.messages) {
        expect(message.scope, where).toEqual(scope);
        rows.add({
          kind: 'message',
          id: messageRowId(scope, message.id),
          scope,
          accessLevel: 0,
          text: content,
        });
        rows.add({ kind: 'thread', id: threadRowId(scope), scope, accessLevel: 0 });
      }
      for (const episode of result.episodes) {
        expect(episode.scope, where).toEqual(target);
        rows.add({ kind: 'episode', id: episode.id, scope: target, accessLevel: 0, text: content });
      }
      for (const folded of result.folded) {
        // A duplicate folds only into an episode at exactly the same long-term scope.
        const into = rows.get(folded.episodeId);
        expect(into?.alive, `${where}: folded into an episode the world does not hold`).toBe(true);
        expect(sameScopeExactly(into!.scope, target), `${where}: folded across a wall`).toBe(true);
      }
      recordFacts(ctx, where, target, result.facts.written, result.facts.superseded);
      for (const item of result.review) {
        expect(item.scope, where).toEqual(target);
        rows.add({ kind: 'review', id: item.id, scope: target, accessLevel: item.accessLevel });
      }
      recordGraph(ctx, where, target, result.nodes, result.edges);
      return;
    }
    case 'remember':
    case 'rememberForReview': {
      const result = await memory.facts.remember(scope, {
        entity: nth(ENGINE_ENTITIES, write.pick)!,
        key: nth(FACT_KEYS, write.pick2)!,
        value: `${marker} ${write.level}`,
        confidence: write.kind === 'remember' ? 0.95 : 0.3,
      });
      if (result.review) {
        expect(result.review.scope, where).toEqual(target);
        rows.add({
          kind: 'review',
          id: result.review.id,
          scope: target,
          accessLevel: result.review.accessLevel,
        });
      }
      recordFacts(
        ctx,
        where,
        target,
        result.fact ? [result.fact] : [],
        result.previous ? [result.previous] : [],
      );
      return;
    }
    case 'engineNode': {
      const name = nth(NODE_NAMES, write.pick)!;
      const existing = sameNode(ctx, target, 'entity', name);
      const node = await memory.graph.upsertNode(scope, { name });
      expect(node.scope, where).toEqual(target);
      if (existing) expect(node.id, `${where}: one node per exact scope, type and name`).toBe(existing.id);
      else expect(rows.get(node.id), `${where}: a new node must not reuse another scope's`).toBeUndefined();
      recordGraph(ctx, where, target, [node], []);
      return;
    }
    case 'engineRelate': {
      const edge = await memory.graph.relate(scope, {
        from: { name: nth(NODE_NAMES, write.pick)! },
        relation: 'depends on',
        to: { name: nth(NODE_NAMES, write.pick2)! },
      });
      const ends = await store.graph.getNodes({ scope: target, ids: [edge.from, edge.to] });
      expect(new Set(ends.map((n) => n.id)), `${where}: both ends visible from the edge`).toEqual(
        new Set([edge.from, edge.to]),
      );
      recordGraph(ctx, where, target, ends, [edge]);
      return;
    }
    case 'engineState':
    case 'state': {
      const key = nth(STATE_KEYS, write.pick)!;
      const taken = rows.get(stateRowId(scope, key))?.alive === true;
      const set =
        write.kind === 'state'
          ? store.state.set({ scope, key, value: marker, expectedVersion: 0 })
          : memory.state.set(scope, key, marker, { expectedVersion: 0 });
      if (taken) {
        await expectCode(set, 'conflict');
        return;
      }
      const entry = await set;
      expect(entry.scope, where).toEqual(scope);
      rows.add({ kind: 'state', id: stateRowId(scope, key), scope, accessLevel: 0, key });
      return;
    }
    case 'engineLedger':
    case 'ledger': {
      const key = nth(LEDGER_KEYS, write.pick)!;
      const taken = rows.get(ledgerRowId(scope, key))?.alive === true;
      const { claimed, entry } =
        write.kind === 'ledger'
          ? await store.ledger.claim({ scope, key, owner: marker })
          : await memory.ledger.claim(scope, key, { owner: marker });
      expect(claimed, `${where}: a key is taken only by a claim at exactly this scope`).toBe(!taken);
      expect(entry.scope, where).toEqual(scope);
      if (!taken) rows.add({ kind: 'ledger', id: ledgerRowId(scope, key), scope, accessLevel: 0, key });
      return;
    }
    case 'episode': {
      const text = `${COMMON_WORD} ${marker}`;
      const [vector] = await ctx.embedder.embed({ texts: [text] });
      const [stored] = await store.episodes.put({
        episodes: [
          {
            id: id('ep'),
            scope,
            text,
            occurredAt: T0 + index,
            accessLevel: write.level,
            embedding: vector!,
            provenance,
          },
        ],
      });
      expect(stored!.scope, where).toEqual(scope);
      rows.add({ kind: 'episode', id: id('ep'), scope, accessLevel: write.level, text });
      return;
    }
    case 'fact': {
      const key = {
        entityType: 'supplier',
        entityId: nth(STORE_ENTITY_IDS, write.pick)!,
        key: nth(FACT_KEYS, write.pick2)!,
      };
      const current = rows
        .alive('fact')
        .find(
          (r) =>
            r.key === factKeyOf(key) &&
            sameScopeExactly(r.scope, scope) &&
            (r.status === 'active' || r.status === 'stale'),
        );
      const insert = store.facts.insert({
        fact: {
          id: id('fact'),
          scope,
          ...key,
          value: marker,
          accessLevel: write.level,
          validFrom: T0,
          createdAt: T0 + index,
          provenance,
        },
      });
      if (current) {
        await expectCode(insert, 'conflict');
        return;
      }
      recordFacts(ctx, where, scope, [await insert], []);
      return;
    }
    case 'node': {
      const name = nth(NODE_NAMES, write.pick)!;
      const existing = sameNode(ctx, scope, 'entity', name);
      const node = await store.graph.upsertNode({
        node: { id: id('node'), scope, type: 'entity', name, accessLevel: write.level, provenance },
      });
      expect(node.scope, where).toEqual(scope);
      expect(node.id, `${where}: one node per exact scope, type and name`).toBe(existing?.id ?? id('node'));
      recordGraph(ctx, where, scope, [node], []);
      return;
    }
    case 'edge': {
      const nodes = rows.alive('node');
      const from = nth(nodes, write.pick);
      const to = nth(nodes, write.pick2);
      if (!from || !to) return;
      const add = store.graph.addEdge({
        edge: {
          id: id('edge'),
          scope,
          from: from.id,
          to: to.id,
          relation: 'affects',
          accessLevel: write.level,
          provenance,
        },
      });
      if (!seesFrom(scope, from.scope) || !seesFrom(scope, to.scope)) {
        await expectCode(add, 'not_found');
        return;
      }
      const same = rows
        .alive('edge')
        .find(
          (r) =>
            sameScopeExactly(r.scope, scope) &&
            r.from === from.id &&
            r.to === to.id &&
            r.relation === 'affects' &&
            r.status === 'active',
        );
      const edge = await add;
      expect(edge.id, `${where}: a duplicate edge is the existing one`).toBe(same?.id ?? id('edge'));
      recordGraph(ctx, where, scope, [], [edge]);
      return;
    }
    case 'review': {
      const item = await store.review.add({
        item: {
          id: id('review'),
          scope,
          kind: 'fact',
          reason: 'low_confidence',
          proposal: { entity: 'vendor x', key: 'lead time', value: marker },
          confidence: 0.4,
          accessLevel: write.level,
          provenance,
          createdAt: T0 + index,
        },
      });
      expect(item.scope, where).toEqual(scope);
      rows.add({ kind: 'review', id: item.id, scope, accessLevel: write.level });
      return;
    }
    case 'audit': {
      await store.audit.append({
        entries: [{ id: id('audit'), scope, action: 'test.isolation', at: T0 + index }],
      });
      rows.add({ kind: 'audit', id: id('audit'), scope, accessLevel: 0 });
      return;
    }
    case 'message': {
      if (scope.threadId === undefined) return;
      const messageId = nth(MESSAGE_IDS, write.pick)!;
      const existing = rows.get(messageRowId(scope, messageId));
      const text = `${COMMON_WORD} message ${marker}`;
      const [stored] = await store.threads.appendMessages({
        scope,
        messages: [{ id: messageId, role: 'user', content: text, createdAt: T0 + index }],
      });
      expect(stored!.scope, where).toEqual(scope);
      // The same id in this very thread is the stored message; in any other thread, a new one.
      expect(stored!.content, where).toBe(existing?.alive ? existing.text : text);
      if (!existing?.alive) {
        rows.add({ kind: 'message', id: messageRowId(scope, messageId), scope, accessLevel: 0, text });
        rows.add({ kind: 'thread', id: threadRowId(scope), scope, accessLevel: 0 });
      }
      return;
    }
    case 'updateEpisode':
    case 'deleteEpisode': {
      const episode = nth(rows.alive('episode'), write.pick);
      if (!episode) return;
      const visible = seesFrom(scope, episode.scope);
      if (write.kind === 'updateEpisode') {
        const update = store.episodes.update({ scope, id: episode.id, patch: { importance: 0.9 } });
        if (visible) expect((await update).scope, where).toEqual(episode.scope);
        else await expectCode(update, 'not_found');
        return;
      }
      const { deleted } = await store.episodes.delete({ scope, ids: [episode.id] });
      expect(deleted, `${where}: deletes only what the scope sees`).toBe(visible ? 1 : 0);
      if (visible) episode.alive = false;
      return;
    }
  }
}

/** An alive node at exactly `scope` with `type` and the same normalised name. */
function sameNode(ctx: WorldContext, scope: Scope, type: string, name: string) {
  return ctx.rows
    .alive('node')
    .find(
      (r) =>
        sameScopeExactly(r.scope, scope) &&
        r.type === type &&
        normalizeName(r.names![0]!) === normalizeName(name),
    );
}

function recordFacts(
  ctx: WorldContext,
  where: string,
  target: Scope,
  written: FactRecord[],
  superseded: FactRecord[],
): void {
  for (const fact of written) {
    expect(fact.scope, `${where}: a fact is written at the writer's scope`).toEqual(target);
    ctx.rows.add({
      kind: 'fact',
      id: fact.id,
      scope: fact.scope,
      accessLevel: fact.accessLevel,
      status: fact.status,
      key: factKeyOf(fact),
    });
  }
  for (const previous of superseded) {
    expect(seesFrom(target, previous.scope), `${where}: superseded a fact the writer cannot see`).toBe(true);
    const row = ctx.rows.get(previous.id);
    expect(row, `${where}: superseded a fact the world does not hold`).toBeDefined();
    row!.status = 'superseded';
  }
}

function recordGraph(
  ctx: WorldContext,
  where: string,
  target: Scope,
  nodes: NodeRecord[],
  edges: EdgeRecord[],
): void {
  for (const node of nodes) {
    expect(seesFrom(target, node.scope), `${where}: used a node the writer cannot see`).toBe(true);
    const row = ctx.rows.get(node.id);
    if (row) {
      expect(node.scope, `${where}: a node's scope never changes`).toEqual(row.scope);
      row.names = [node.name, ...node.aliases];
      continue;
    }
    ctx.rows.add({
      kind: 'node',
      id: node.id,
      scope: node.scope,
      accessLevel: node.accessLevel,
      status: node.status,
      type: node.type,
      names: [node.name, ...node.aliases],
    });
  }
  for (const edge of edges) {
    expect(edge.scope, `${where}: an edge is written at the writer's scope`).toEqual(target);
    if (ctx.rows.get(edge.id)) continue;
    ctx.rows.add({
      kind: 'edge',
      id: edge.id,
      scope: edge.scope,
      accessLevel: edge.accessLevel,
      status: edge.status,
      relation: edge.relation,
      from: edge.from,
      to: edge.to,
    });
  }
}
