import type { Principal } from '@strata-memory/core';
import { normalizeName, type Scope } from '@strata-memory/core/store';
import { expect } from 'vitest';
import { expectCode } from '../fixtures.ts';
import {
  COMMON_WORD,
  LEDGER_KEYS,
  MESSAGE_IDS,
  NODE_NAMES,
  STATE_KEYS,
  type WorldContext,
} from './plant-world.ts';
import { factKeyOf, ledgerRowId, messageRowId, type Row, stateRowId, threadRowId } from './planted-rows.ts';
import { inSubtree, keyOf, sameScopeExactly, seesFrom } from './scope-walls.ts';

/** One item a read returned: its id (or key), the scope it reports, and for audit entries the action. */
export interface Seen {
  id: string;
  scope: Scope;
  action?: string;
}

/**
 * What every read path returned from every reader, by `path @ reader`. `stable` paths return sets
 * that only a change to what the reader may see can alter (listings and lookups), unlike recall,
 * whose ranking and budget choose among candidates.
 */
export type Observations = Map<string, { stable: boolean; reader: Scope; items: Seen[] }>;

type Wall = (reader: Scope, item: Scope) => boolean;
const ancestorWall: Wall = seesFrom;
const exactWall: Wall = sameScopeExactly;
const subtreeWall: Wall = (reader, item) => inSubtree(item, reader);

const sortedIds = (items: Array<{ id: string }>) => items.map((i) => i.id).sort();
const nodeNamesOf = (row: Row) => (row.names ?? []).map(normalizeName);

/**
 * Reads everything from every scope of the world through every read path of the store and the
 * engine, and checks each answer against the walls: a path returns exactly what the documented rule
 * lets the reader see (`equal`), or, where ranking and budgets choose among candidates, nothing the
 * rule hides (`within`). Store reads pass `readLevel`; engine reads use it as a principal's level.
 */
export async function readEverything(
  ctx: WorldContext,
  readLevel: number | undefined,
): Promise<Observations> {
  const { store, memory, rows } = ctx;
  const observations: Observations = new Map();
  const level = (row: Row) => readLevel === undefined || row.accessLevel <= readLevel;
  const engineLevel = readLevel ?? 0;
  const principal: Principal | undefined =
    readLevel === undefined ? undefined : { id: 'reader', level: readLevel };
  const asPrincipal = principal ? { principal } : {};

  const episodeIds = rows.all('episode').map((r) => r.id);
  const factIds = rows.all('fact').map((r) => r.id);
  const nodeIds = rows.all('node').map((r) => r.id);
  const reviewIds = rows.all('review').map((r) => r.id);
  const factKeys = [...new Set(rows.all('fact').map((r) => r.key!))].map((k) => {
    const [entityType, entityId, key] = JSON.parse(k) as [string, string, string];
    return { entityType, entityId, key };
  });
  const [queryVector] = await ctx.embedder.embed({ texts: [COMMON_WORD], purpose: 'query' });
  const plantedKeys = (kind: 'state' | 'ledger', keys: string[]) =>
    keys.filter((key) => rows.all(kind).some((r) => r.key === key));

  for (const reader of ctx.scopes) {
    const from = keyOf(reader);
    const record = (path: string, stable: boolean, items: Seen[]) =>
      observations.set(`${path} @ ${from}`, { stable, reader, items });
    /** The path returned exactly the rows the wall and `filter` let through, and reports their true scopes. */
    const equal = (path: string, wall: Wall, actual: Seen[], expected: Row[], stable = true) => {
      within(path, wall, actual);
      expect(sortedIds(actual), `${path} from ${from}`).toEqual(sortedIds(expected));
      record(path, stable, actual);
    };
    /** Nothing the path returned lies behind a wall, and what it returned is where the world put it. */
    const within = (path: string, wall: Wall, actual: Seen[], stable?: boolean) => {
      for (const item of actual) {
        expect(
          wall(reader, item.scope),
          `${path} from ${from} returned ${item.id} of ${keyOf(item.scope)}`,
        ).toBe(true);
        const row = rows.get(item.id);
        if (row) expect(item.scope, `${path} from ${from}: where ${item.id} lives`).toEqual(row.scope);
      }
      if (stable !== undefined) record(path, stable, actual);
    };
    const alive = (kind: Row['kind'], wall: Wall, byLevel = true) =>
      rows.alive(kind).filter((r) => wall(reader, r.scope) && (!byLevel || level(r)));
    const lvl = readLevel === undefined ? {} : { accessLevel: readLevel };

    // Episodes.
    const visibleEpisodes = alive('episode', ancestorWall);
    equal(
      'episodes.get',
      ancestorWall,
      await store.episodes.get({ scope: reader, ids: episodeIds, ...lvl }),
      visibleEpisodes,
    );
    const everyStatus = ['active', 'merged', 'archived'] as const;
    const listed = await store.episodes.list({
      scope: reader,
      status: [...everyStatus],
      limit: 1000,
      ...lvl,
    });
    equal('episodes.list', ancestorWall, listed.items, visibleEpisodes);
    expect(
      await store.episodes.count({ scope: reader, status: [...everyStatus] }),
      `episodes.count from ${from}`,
    ).toBe(alive('episode', ancestorWall, false).length);
    // Searches where the store declares them (the capabilities suite covers the rest).
    if (store.capabilities.keywordSearch) {
      const keyword = await store.episodes.searchKeyword({
        scope: reader,
        query: COMMON_WORD,
        limit: 1000,
        ...lvl,
      });
      equal(
        'episodes.searchKeyword',
        ancestorWall,
        keyword.map((s) => s.episode),
        visibleEpisodes,
      );
    }
    if (store.capabilities.vectorSearch) {
      const nearest = await store.episodes.searchVector({
        scope: reader,
        vector: queryVector!,
        limit: 1000,
        ...lvl,
      });
      equal(
        'episodes.searchVector',
        ancestorWall,
        nearest.map((s) => s.episode),
        visibleEpisodes,
      );
    }

    // Facts.
    const visibleFacts = alive('fact', ancestorWall);
    equal(
      'facts.get',
      ancestorWall,
      await store.facts.get({ scope: reader, ids: factIds, ...lvl }),
      visibleFacts,
    );
    const allFactStatuses = ['active', 'pending_review', 'superseded', 'stale'] as const;
    const found = await store.facts.find({
      scope: reader,
      status: [...allFactStatuses],
      limit: 1000,
      ...lvl,
    });
    equal('facts.find', ancestorWall, found.items, visibleFacts);
    for (const key of factKeys) {
      const history = await store.facts.history({ scope: reader, ...key, ...lvl });
      const expected = visibleFacts.filter((r) => r.key === factKeyOf(key));
      equal(`facts.history ${factKeyOf(key)}`, ancestorWall, history, expected);
    }

    // Graph.
    const visibleNodes = alive('node', ancestorWall);
    const visibleEdges = alive('edge', ancestorWall);
    equal(
      'graph.getNodes',
      ancestorWall,
      await store.graph.getNodes({ scope: reader, ids: nodeIds, ...lvl }),
      visibleNodes,
    );
    const nodePage = await store.graph.listNodes({
      scope: reader,
      status: ['active', 'superseded'],
      limit: 1000,
      ...lvl,
    });
    equal('graph.listNodes', ancestorWall, nodePage.items, visibleNodes);
    const poolNames = new Set(NODE_NAMES.map(normalizeName));
    const named = await store.graph.findNodes({
      scope: reader,
      names: NODE_NAMES,
      status: ['active', 'superseded'],
      ...lvl,
    });
    equal(
      'graph.findNodes',
      ancestorWall,
      named,
      visibleNodes.filter((r) => nodeNamesOf(r).some((n) => poolNames.has(n))),
    );
    const edgePage = await store.graph.listEdges({
      scope: reader,
      status: ['active', 'superseded'],
      limit: 1000,
      ...lvl,
    });
    equal('graph.listEdges', ancestorWall, edgePage.items, visibleEdges);
    if (nodeIds.length > 0) {
      const walk = await store.graph.traverse({
        scope: reader,
        start: nodeIds,
        direction: 'both',
        maxHops: 3,
        ...lvl,
      });
      equal('graph.traverse start', ancestorWall, walk.start, visibleNodes);
      within(
        'graph.traverse reached',
        ancestorWall,
        walk.reached.map((s) => s.node),
        true,
      );
      within('graph.traverse edges', ancestorWall, walk.edges, true);
    }

    // State and ledger: exactly the reader's scope.
    const stateList = await store.state.list({ scope: reader, limit: 1000 });
    const asState = (e: { scope: Scope; key: string }) => ({
      id: stateRowId(e.scope, e.key),
      scope: e.scope,
    });
    equal('state.list', exactWall, stateList.items.map(asState), alive('state', exactWall, false));
    const ledgerList = await store.ledger.list({ scope: reader, limit: 1000 });
    const asLedger = (e: { scope: Scope; key: string }) => ({
      id: ledgerRowId(e.scope, e.key),
      scope: e.scope,
    });
    equal('ledger.list', exactWall, ledgerList.items.map(asLedger), alive('ledger', exactWall, false));
    // Point reads for every key the world wrote somewhere (keys it never wrote are nobody's).
    for (const key of plantedKeys('state', STATE_KEYS)) {
      const entry = await store.state.get({ scope: reader, key });
      const engineEntry = await memory.state.get(reader, key);
      const expected = alive('state', exactWall, false).filter((r) => r.key === key);
      equal(`state.get ${key}`, exactWall, entry ? [asState(entry)] : [], expected);
      equal(`memory.state.get ${key}`, exactWall, engineEntry ? [asState(engineEntry)] : [], expected);
    }
    for (const key of plantedKeys('ledger', LEDGER_KEYS)) {
      const entry = await store.ledger.get({ scope: reader, key });
      const expected = alive('ledger', exactWall, false).filter((r) => r.key === key);
      equal(`ledger.get ${key}`, exactWall, entry ? [asLedger(entry)] : [], expected);
    }

    // Review queue.
    const visibleReview = alive('review', ancestorWall);
    equal(
      'review.get',
      ancestorWall,
      await store.review.get({ scope: reader, ids: reviewIds, ...lvl }),
      visibleReview,
    );
    const reviewPage = await store.review.list({
      scope: reader,
      status: ['pending', 'approved', 'rejected'],
      limit: 1000,
      ...lvl,
    });
    equal('review.list', ancestorWall, reviewPage.items, visibleReview);
    const engineReview = await memory.review.list(reader, {
      status: ['pending', 'approved', 'rejected'],
      ...asPrincipal,
    });
    within('memory.review.list', ancestorWall, engineReview, true);
    expect(
      engineReview.every((item) => item.accessLevel <= engineLevel),
      `memory.review.list from ${from}: above the principal's level`,
    ).toBe(true);

    // Audit and scopes: the reader's subtree. The engine audits its own writes, so these hold more
    // than the world planted: every planted entry, and nothing outside the subtree.
    for (const [path, page] of [
      ['audit.list', await store.audit.list({ scope: reader, limit: 1000 })],
      ['memory.audit.list', await memory.audit.list(reader, { limit: 1000 })],
    ] as const) {
      const items = page.items.map((e) => ({ id: e.id, scope: e.scope, action: e.action }));
      within(path, subtreeWall, items, true);
      const ids = new Set(items.map((i) => i.id));
      for (const row of alive('audit', subtreeWall, false))
        expect(ids.has(row.id), `${path} from ${from}: ${row.id}`).toBe(true);
    }
    const scopePage = await store.scopes.list({ scope: reader, limit: 1000 });
    const listedScopes = scopePage.items.map((scope) => ({ id: keyOf(scope), scope }));
    within('scopes.list', subtreeWall, listedScopes, true);
    const listedKeys = new Set(listedScopes.map((s) => s.id));
    for (const row of [...rows.byId.values()]) {
      if (row.alive && inSubtree(row.scope, reader)) {
        expect(
          listedKeys.has(keyOf(row.scope)),
          `scopes.list from ${from}: ${keyOf(row.scope)} holds ${row.id}`,
        ).toBe(true);
      }
    }

    // Threads: the listing covers the subtree; a thread and its messages belong to exactly one scope.
    const threadPage = await store.threads.list({ scope: reader, limit: 1000 });
    const asThread = (t: { scope: Scope }) => ({ id: threadRowId(t.scope), scope: t.scope });
    equal('threads.list', subtreeWall, threadPage.items.map(asThread), alive('thread', subtreeWall, false));
    const byCreation = await store.threads.list({
      scope: reader,
      limit: 1000,
      order: { field: 'createdAt', direction: 'asc' },
      withTotal: true,
    });
    equal(
      'threads.list by createdAt',
      subtreeWall,
      byCreation.items.map(asThread),
      alive('thread', subtreeWall, false),
    );
    expect(byCreation.total, `threads.list total from ${from}`).toBe(byCreation.items.length);
    if (reader.threadId !== undefined) {
      const thread = await store.threads.get({ scope: reader });
      equal('threads.get', exactWall, thread ? [asThread(thread)] : [], alive('thread', exactWall, false));
      const asMessage = (m: { id: string; scope: Scope }) => ({
        id: messageRowId(m.scope, m.id),
        scope: m.scope,
      });
      const expectedMessages = alive('message', exactWall, false);
      const messages = await store.threads.listMessages({ scope: reader, limit: 1000 });
      equal('threads.listMessages', exactWall, messages.map(asMessage), expectedMessages);
      const byId = await store.threads.getMessages({ scope: reader, ids: MESSAGE_IDS });
      equal('threads.getMessages', exactWall, byId.map(asMessage), expectedMessages);
      const found = await store.threads.findMessages({ threads: [reader], limit: 1000, withTotal: true });
      equal('threads.findMessages', exactWall, found.items.map(asMessage), expectedMessages);
      expect(found.total, `threads.findMessages total from ${from}`).toBe(found.items.length);
    }

    // The engine's reads.
    const engineFacts = await memory.facts.list(reader, undefined, asPrincipal);
    within('memory.facts.list', ancestorWall, engineFacts, false);
    expect(
      engineFacts.every((f) => f.accessLevel <= engineLevel),
      `memory.facts.list from ${from}`,
    ).toBe(true);
    for (const key of factKeys) {
      const history = await memory.facts.history(
        reader,
        { entityType: key.entityType, entity: key.entityId, key: key.key },
        asPrincipal,
      );
      within(`memory.facts.history ${factKeyOf(key)}`, ancestorWall, history, false);
    }
    for (const name of new Set(NODE_NAMES.map(normalizeName))) {
      const resolvable = rows
        .alive('node')
        .some(
          (r) =>
            r.status === 'active' &&
            seesFrom(reader, r.scope) &&
            r.accessLevel <= engineLevel &&
            nodeNamesOf(r).includes(name),
        );
      // One call at a time: a second rejected promise would go unhandled while the first is awaited.
      const traverse = () =>
        memory.graph.traverse(reader, { from: { name }, direction: 'both', maxHops: 3, ...asPrincipal });
      const impact = () => memory.graph.impact(reader, { node: { name }, ...asPrincipal });
      if (!resolvable) {
        await expectCode(traverse(), 'not_found');
        await expectCode(impact(), 'not_found');
        continue;
      }
      const walk = await traverse();
      within(
        `memory.graph.traverse ${name}`,
        ancestorWall,
        [...walk.start, ...walk.reached.map((s) => s.node), ...walk.edges],
        false,
      );
      const effect = await impact();
      within(
        `memory.graph.impact ${name}`,
        ancestorWall,
        [effect.node, ...effect.affected.map((a) => a.node), ...(effect.through ?? [])],
        false,
      );
    }
    const context = await memory.recall(reader, {
      query: `${COMMON_WORD} crane vendor lead time`,
      budget: { tokens: 8000 },
      ...asPrincipal,
    });
    within(
      'recall working',
      exactWall,
      context.sections.working.map((m) => ({ id: messageRowId(m.scope, m.id), scope: m.scope })),
      false,
    );
    for (const m of context.sections.working) {
      expect(rows.get(messageRowId(m.scope, m.id))?.alive, `recall working from ${from}: ${m.id}`).toBe(true);
    }
    within(
      'recall long-term',
      ancestorWall,
      [
        ...context.sections.facts.map((f) => f.fact),
        ...context.sections.episodes.map((e) => e.episode),
        ...context.sections.graph.flatMap((p) => [...p.nodes, ...p.edges]),
      ],
      false,
    );
    for (const item of [
      ...context.sections.facts.map((f) => f.fact),
      ...context.sections.episodes.map((e) => e.episode),
      ...context.sections.graph.flatMap((p) => [...p.nodes, ...p.edges]),
    ]) {
      expect(
        item.accessLevel <= engineLevel,
        `recall from ${from}: ${item.id} above the principal's level`,
      ).toBe(true);
    }
    for (const entry of context.explain()) {
      const row = rows.get(entry.id);
      if (row)
        expect(seesFrom(reader, row.scope), `recall explain from ${from} names ${entry.id}`).toBe(true);
    }
  }

  // Threads by id, across scopes (for adapters checking ownership): exact ids only, no twins.
  for (const threadId of new Set(ctx.scopes.flatMap((s) => (s.threadId === undefined ? [] : [s.threadId])))) {
    const threads = await store.threads.lookup({ threadId });
    const actual = threads.map((t) => threadRowId(t.scope)).sort();
    const expected = ctx.rows
      .alive('thread')
      .filter((r) => r.scope.threadId === threadId)
      .map((r) => r.id)
      .sort();
    expect(actual, `threads.lookup ${JSON.stringify(threadId)}`).toEqual(expected);
  }
  return observations;
}
