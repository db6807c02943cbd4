import type { FactKey, Memory, Principal, Scope } from '@strata-memory/core';
import { sameScope } from '@strata-memory/core/integration';
import {
  approveBody,
  auditQuery,
  correctBody,
  episodesQuery,
  factsQuery,
  historyQuery,
  impactQuery,
  parseInput,
  recallBody,
  rejectBody,
  reviewQuery,
  scopeOf,
  scopeQuery,
  scopesQuery,
} from './request-input.ts';

/** What a route gets: the memory, who writes, the parsed query string and the JSON body. */
export interface RouteContext {
  memory: Memory;
  /** The principal every read and write is made as (audited as its id). */
  principal: Principal;
  query: Record<string, string>;
  body: unknown;
}

export type Route = (context: RouteContext) => Promise<unknown>;

/** Most rows one listing returns (pages are read until this many). */
const MAX_ROWS = 2000;

async function readPages<T>(
  read: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor?: string }>,
): Promise<T[]> {
  const out: T[] = [];
  let cursor: string | undefined;
  do {
    const page = await read(cursor);
    out.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor !== undefined && out.length < MAX_ROWS);
  return out.slice(0, MAX_ROWS);
}

function factKey(input: { entity: string; entityType?: string | undefined; key: string }): FactKey {
  return {
    entity: input.entity,
    key: input.key,
    ...(input.entityType === undefined ? {} : { entityType: input.entityType }),
  };
}

/** Most scopes probed for facts when choosing the scope the page opens on. */
const MAX_START_PROBES = 200;
/** Facts read per probe: a scope holds facts if one of the newest it sees is stored there. */
const PROBE_FACTS = 100;

/**
 * The scope the page opens on, among `scopes` (in listing order: deepest first): the first that
 * holds a current fact (one of the `PROBE_FACTS` newest it sees is stored at exactly that scope),
 * else the first from which the principal sees any fact (an ancestor's), else the first scope. So
 * its facts, graph and review queue show without typing a scope. One read per scope probed, at
 * most `MAX_START_PROBES`.
 */
async function startScope(memory: Memory, principal: Principal, scopes: Scope[]): Promise<Scope | undefined> {
  let seesFacts: Scope | undefined;
  for (const scope of scopes.slice(0, MAX_START_PROBES)) {
    const page = await memory.store.facts.find({ scope, accessLevel: principal.level, limit: PROBE_FACTS });
    if (page.items.some((fact) => sameScope(fact.scope, scope))) return scope;
    if (seesFacts === undefined && page.items.length > 0) seesFacts = scope;
  }
  return seesFacts ?? scopes[0];
}

/**
 * The inspector's JSON API, keyed by `METHOD /path`. Every route goes through the engine's API
 * (`memory.*`, or the store's listing calls for scopes and the graph); writes are made as the
 * inspector's principal, so the engine audits them.
 */
export const ROUTES: Record<string, Route> = {
  'GET /api/scopes': async ({ memory, principal, query }) => {
    const { root } = parseInput(scopesQuery, query, 'scopes');
    const scope = root === undefined ? undefined : scopeOf(root);
    const items = await readPages((cursor) =>
      memory.store.scopes.list({ ...(scope ? { scope } : {}), limit: 500, ...(cursor ? { cursor } : {}) }),
    );
    const start = await startScope(memory, principal, items);
    return { items, ...(start === undefined ? {} : { start }) };
  },

  'GET /api/facts': async ({ memory, principal, query }) => {
    const input = parseInput(factsQuery, query, 'facts');
    const filter = {
      ...(input.entity === undefined ? {} : { entity: input.entity }),
      ...(input.entityType === undefined ? {} : { entityType: input.entityType }),
    };
    return { items: await memory.facts.list(scopeOf(input.scope), filter, { principal }) };
  },

  'GET /api/facts/history': async ({ memory, principal, query }) => {
    const input = parseInput(historyQuery, query, 'fact history');
    return { items: await memory.facts.history(scopeOf(input.scope), factKey(input), { principal }) };
  },

  'POST /api/facts/correct': async ({ memory, principal, body }) => {
    const input = parseInput(correctBody, body, 'fact correction');
    return memory.facts.correct(scopeOf(input.scope), { ...factKey(input), value: input.value, principal });
  },

  'GET /api/review': async ({ memory, principal, query }) => {
    const input = parseInput(reviewQuery, query, 'review');
    const status =
      input.status === 'all' ? (['pending', 'approved', 'rejected'] as const) : ([input.status] as const);
    return { items: await memory.review.list(scopeOf(input.scope), { status: [...status], principal }) };
  },

  'POST /api/review/approve': async ({ memory, principal, body }) => {
    const input = parseInput(approveBody, body, 'review approval');
    return memory.review.approve(scopeOf(input.scope), input.id, {
      principal,
      ...(input.note ? { note: input.note } : {}),
      ...(input.fact ? { fact: factKey(input.fact) } : {}),
    });
  },

  'POST /api/review/reject': async ({ memory, principal, body }) => {
    const input = parseInput(rejectBody, body, 'review rejection');
    const item = await memory.review.reject(scopeOf(input.scope), input.id, {
      principal,
      ...(input.note ? { note: input.note } : {}),
    });
    return { item };
  },

  'GET /api/graph': async ({ memory, principal, query }) => {
    const scope: Scope = scopeOf(parseInput(scopeQuery, query, 'graph').scope);
    const accessLevel = principal.level;
    const status: Array<'active' | 'superseded'> = ['active', 'superseded'];
    const nodes = await readPages((cursor) =>
      memory.store.graph.listNodes({ scope, accessLevel, status, limit: 500, ...(cursor ? { cursor } : {}) }),
    );
    const edges = await readPages((cursor) =>
      memory.store.graph.listEdges({ scope, accessLevel, status, limit: 500, ...(cursor ? { cursor } : {}) }),
    );
    return { nodes, edges };
  },

  'GET /api/graph/impact': async ({ memory, principal, query }) => {
    const input = parseInput(impactQuery, query, 'impact');
    return memory.graph.impact(scopeOf(input.scope), {
      node: { id: input.node },
      principal,
      ...(input.maxHops === undefined ? {} : { maxHops: input.maxHops }),
    });
  },

  'GET /api/episodes': async ({ memory, principal, query }) => {
    const input = parseInput(episodesQuery, query, 'episodes');
    const scope = scopeOf(input.scope);
    const accessLevel = principal.level;
    if (input.q && input.q.trim().length > 0) {
      const hits = await memory.store.episodes.searchKeyword({
        scope,
        accessLevel,
        query: input.q,
        limit: input.limit,
      });
      return { items: hits.map((hit) => ({ ...hit.episode, embedding: undefined, score: hit.score })) };
    }
    const page = await memory.store.episodes.list({ scope, accessLevel, limit: input.limit, order: 'desc' });
    return { items: page.items.map((episode) => ({ ...episode, embedding: undefined })) };
  },

  'POST /api/recall': async ({ memory, principal, body }) => {
    const input = parseInput(recallBody, body, 'recall');
    const context = await memory.recall(scopeOf(input.scope), {
      principal,
      ...(input.query ? { query: input.query } : {}),
      ...(input.budgetTokens === undefined ? {} : { budget: { tokens: input.budgetTokens } }),
    });
    return {
      block: context.render(),
      tokens: context.tokens,
      items: context.items.map(({ layer, id, text, tokens, scores, reason }) => ({
        layer,
        id,
        text,
        tokens,
        scores,
        reason,
      })),
      explain: context.explain(),
    };
  },

  'GET /api/audit': async ({ memory, query }) => {
    const input = parseInput(auditQuery, query, 'audit');
    return memory.store.audit.list({
      scope: scopeOf(input.scope),
      order: 'desc',
      limit: input.limit,
      ...(input.action ? { actions: [input.action] } : {}),
      ...(input.cursor ? { cursor: input.cursor } : {}),
    });
  },

  'GET /api/consolidation': async ({ memory, query }) => {
    const scope = scopeOf(parseInput(scopeQuery, query, 'consolidation').scope);
    return memory.consolidate({ scope, dryRun: true });
  },
};
