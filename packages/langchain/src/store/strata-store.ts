import {
  BaseStore,
  type Item,
  type MatchCondition,
  type Operation,
  type OperationResults,
} from '@langchain/langgraph';
import {
  type FactRecord,
  invalidInput,
  LIMITS,
  type Memory,
  type Scope,
  StrataError,
} from '@strata-memory/core';
import {
  indexEpisodeIdsOf,
  memoryInstanceSchema,
  parseArgs,
  sameScope,
  scopeKey,
} from '@strata-memory/core/integration';
import { z } from 'zod/v4';
import { indexTexts, parseFieldPath } from './index-text.ts';
import { itemPath, parsePath } from './item-path.ts';
import { checkNamespace } from './namespace-rules.ts';
import {
  itemScope,
  type NamespaceScope,
  type PrefixTarget,
  prefixTarget,
  type ScopeMapping,
  scopeMapping,
} from './namespace-scope.ts';
import { checkFilter, matchesFilter, type SearchFilter } from './search-filter.ts';

/** Every store item is a fact of this entity type; its entity is the item's path. */
export const ITEM_ENTITY_TYPE = 'store item';
/** The attribute of that fact that holds the item's document. */
export const ITEM_FACT_KEY = 'value';
/** Fact metadata key holding what the engine does not keep itself: `{ createdAt }` of the item. */
export const ITEM_METADATA_KEY = 'langgraphStore';
/** The speaker name index episodes carry (what recall renders before their text). */
const INDEX_SPEAKER = 'saved memory';
/** Episodes a query may rank (the engine's maximum). */
const QUERY_EPISODES = 200;

const WHERE = 'StrataStore';

/** A search result: an item, with its relevance when the search had a query and the item matched it. */
export type SearchItem = Item & { score?: number };

export interface StrataStoreOptions {
  /** The engine (`createMemory(...)`). */
  memory: Memory;
  /**
   * Where items live: one scope for every namespace (`{ orgId: 'acme' }`), or a function of the
   * namespace, usually `namespaceLevels(['orgId', 'userId'])`. No `threadId`: store items are
   * shared by a user's threads.
   */
  scope: Scope | NamespaceScope;
  /**
   * What `search({ query })` ranks an item by: the texts at these fields (LangGraph's field paths,
   * default `['$']`, the whole document), or `false` to index nothing. A `put`'s own `index`
   * argument overrides it for that item (LangGraph drops it inside graphs).
   */
  index?: false | { fields?: string[] };
}

const optionsSchema = z
  .object({
    memory: memoryInstanceSchema,
    scope: z.unknown(),
    index: z
      .union([z.literal(false), z.object({ fields: z.array(z.string().min(1)).min(1).optional() }).strict()])
      .optional(),
  })
  .strict();

type Fields = ReturnType<typeof parseFieldPath>[];

interface StoredItem {
  scope: Scope;
  fact: FactRecord;
  path: string;
  namespace: string[];
  key: string;
  value: Record<string, unknown>;
}

type Plan =
  | { kind: 'get'; at: number; scope: Scope; path: string }
  | {
      kind: 'search';
      at: number;
      target: PrefixTarget;
      prefix: string[];
      filter: SearchFilter | undefined;
      limit: number;
      offset: number;
      query: string | undefined;
    }
  | {
      kind: 'list';
      at: number;
      target: PrefixTarget;
      conditions: MatchCondition[];
      maxDepth: number | undefined;
      limit: number | undefined;
      offset: number;
    }
  | { kind: 'put'; at: number; scope: Scope; path: string; value: Record<string, unknown>; texts: string[] }
  | { kind: 'delete'; at: number; scope: Scope; path: string };

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function factKey(path: string) {
  return { entityType: ITEM_ENTITY_TYPE, entity: path, key: ITEM_FACT_KEY };
}

function startsWith(namespace: readonly string[], prefix: readonly string[]): boolean {
  return prefix.length <= namespace.length && prefix.every((label, i) => namespace[i] === label);
}

function matchesCondition(namespace: readonly string[], condition: MatchCondition): boolean {
  const { path, matchType } = condition;
  if (path.length > namespace.length) return false;
  const offset = matchType === 'suffix' ? namespace.length - path.length : 0;
  return path.every((label, i) => label === '*' || namespace[offset + i] === label);
}

function count(
  value: unknown,
  name: string,
  where: string,
  fallback: number | undefined,
): number | undefined {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw invalidInput(`${where}: ${name} must be a whole number of 0 or more.`, { [name]: String(value) });
  }
  return value;
}

/**
 * A LangGraph `BaseStore` backed by Strata, so `createAgent({ store })` and `graph.compile({ store })`
 * get long-term memory the engine keeps, versions and recalls.
 *
 * Mapping (see the README): a namespace lives in one Strata scope (the `scope` option); each item
 * is a fact of entity type `store item` whose entity is the item's path (namespace labels and key)
 * and whose value is the document, so a `put` of a changed document supersedes the previous
 * version (history kept) and every item is part of the engine's recall; the document's text is the
 * fact's index (episodes the engine keeps with the fact), which is what `search({ query })` ranks
 * with the engine's hybrid (keyword + vector) recall. `delete` is `forgetItem` of the fact: every
 * version and its index episodes go. A prefix that spans several scopes (under `namespaceLevels`)
 * reads each scope of the subtree.
 *
 * Semantics follow LangGraph's `InMemoryStore`: exact round trip of documents, `createdAt` and
 * `updatedAt`, prefix search with the same filters and offsets, namespace listing with prefix,
 * suffix, wildcards and `maxDepth`, and batches whose reads see the state before the batch's writes
 * (the last write to a key wins). Inside graphs LangGraph wraps the store in `AsyncBatchedStore`,
 * which drops `put`'s `index` argument (the `index` option applies) and has no `listNamespaces`.
 */
export class StrataStore extends BaseStore {
  readonly #memory: Memory;
  readonly #mapping: ScopeMapping;
  readonly #fields: Fields | false;

  constructor(options: StrataStoreOptions) {
    super();
    const parsed = parseArgs(optionsSchema, options, WHERE);
    this.#memory = parsed.memory;
    this.#mapping = scopeMapping(parsed.scope, WHERE);
    this.#fields =
      parsed.index === false ? false : (parsed.index?.fields ?? ['$']).map((f) => parseFieldPath(f, WHERE));
  }

  async batch<Op extends Operation[]>(operations: Op): Promise<OperationResults<Op>> {
    if (!Array.isArray(operations)) throw invalidInput(`${WHERE}.batch: operations must be an array.`);
    // Validate everything first: a bad operation fails the batch before anything is written.
    const plans = operations.map((operation, at) => this.#plan(operation, at));
    const results: unknown[] = operations.map(() => null);
    for (const plan of plans) {
      if (plan.kind === 'get') results[plan.at] = await this.#get(plan.scope, plan.path);
      else if (plan.kind === 'search') results[plan.at] = await this.#search(plan);
      else if (plan.kind === 'list') results[plan.at] = await this.#list(plan);
    }
    // Writes after reads, the last one per item winning (as LangGraph's stores do).
    const writes = new Map<string, Extract<Plan, { kind: 'put' | 'delete' }>>();
    for (const plan of plans) {
      if (plan.kind !== 'put' && plan.kind !== 'delete') continue;
      const id = `${scopeKey(plan.scope)}\u0000${plan.path}`;
      writes.delete(id);
      writes.set(id, plan);
    }
    for (const plan of writes.values()) {
      if (plan.kind === 'put') await this.#put(plan);
      else await this.#delete(plan.scope, plan.path);
    }
    return results as OperationResults<Op>;
  }

  // ------------------------------------------------------------------ planning (validation)

  #plan(operation: unknown, at: number): Plan {
    const where = `${WHERE}.batch: operations[${at}]`;
    if (!isPlainObject(operation)) throw invalidInput(`${where} must be an operation object.`);
    if ('namespacePrefix' in operation) {
      const prefix = checkNamespace(operation.namespacePrefix, where, { allowEmpty: true, forWrite: false });
      const query = operation.query;
      if (query !== undefined && query !== null && (typeof query !== 'string' || query.length > 10_000)) {
        throw invalidInput(`${where}: query must be a string of at most 10000 characters.`);
      }
      return {
        kind: 'search',
        at,
        target: prefixTarget(this.#mapping, prefix, where),
        prefix,
        filter: checkFilter(operation.filter, where),
        limit: count(operation.limit, 'limit', where, 10)!,
        offset: count(operation.offset, 'offset', where, 0)!,
        query: typeof query === 'string' && query.trim() ? query : undefined,
      };
    }
    if ('matchConditions' in operation || ('limit' in operation && !('namespace' in operation))) {
      return this.#planList(operation, at, where);
    }
    if (!('namespace' in operation) || !('key' in operation)) {
      throw invalidInput(`${where} is not a get, search, put or listNamespaces operation.`);
    }
    const writing = 'value' in operation;
    const namespace = checkNamespace(operation.namespace, where, { allowEmpty: false, forWrite: writing });
    const key = operation.key;
    if (typeof key !== 'string' || key.length === 0)
      throw invalidInput(`${where}: key must be a non-empty string.`);
    const path = itemPath(namespace, key);
    if (path.length > LIMITS.maxNameChars) {
      throw new StrataError({
        code: 'payload_too_large',
        message: `${where}: the namespace and key take ${path.length} characters once encoded; at most ${LIMITS.maxNameChars} fit.`,
      });
    }
    const scope = itemScope(this.#mapping, namespace, where);
    if (!writing) return { kind: 'get', at, scope, path };
    if (operation.value === null) return { kind: 'delete', at, scope, path };
    const value = this.#document(operation.value, where);
    return { kind: 'put', at, scope, path, value, texts: this.#texts(value, operation.index, where) };
  }

  #planList(operation: Record<string, unknown>, at: number, where: string): Plan {
    const raw = operation.matchConditions ?? [];
    if (!Array.isArray(raw)) throw invalidInput(`${where}: matchConditions must be an array.`);
    const conditions = raw.map((condition, i): MatchCondition => {
      const here = `${where}: matchConditions[${i}]`;
      if (
        !isPlainObject(condition) ||
        (condition.matchType !== 'prefix' && condition.matchType !== 'suffix')
      ) {
        throw invalidInput(`${here} needs matchType "prefix" or "suffix" and a path.`);
      }
      if (!Array.isArray(condition.path)) throw invalidInput(`${here}: path must be an array of labels.`);
      const labels = condition.path.filter((label) => label !== '*');
      checkNamespace(labels, here, { allowEmpty: true, forWrite: false });
      return { matchType: condition.matchType, path: condition.path as string[] };
    });
    const prefix = conditions.find((c) => c.matchType === 'prefix')?.path ?? [];
    const wildcard = prefix.indexOf('*');
    const named = wildcard < 0 ? prefix : prefix.slice(0, wildcard);
    const maxDepth = count(operation.maxDepth, 'maxDepth', where, undefined);
    return {
      kind: 'list',
      at,
      target: prefixTarget(this.#mapping, named, where),
      conditions,
      maxDepth: maxDepth === 0 ? undefined : maxDepth,
      limit: count(operation.limit, 'limit', where, undefined),
      offset: count(operation.offset, 'offset', where, 0)!,
    };
  }

  /** The document as stored JSON: a plain object within the fact value limit. */
  #document(value: unknown, where: string): Record<string, unknown> {
    if (!isPlainObject(value)) throw invalidInput(`${where}: value must be an object (or null to delete).`);
    let json: string;
    try {
      json = JSON.stringify(value);
    } catch (error) {
      throw invalidInput(`${where}: value must be JSON-serialisable (${(error as Error).message}).`);
    }
    const bytes = Buffer.byteLength(json, 'utf8');
    if (bytes > LIMITS.maxFactValueBytes) {
      throw new StrataError({
        code: 'payload_too_large',
        message: `${where}: the value is ${bytes} bytes of JSON; at most ${LIMITS.maxFactValueBytes} fit in one item.`,
        details: { bytes, limit: LIMITS.maxFactValueBytes },
      });
    }
    return JSON.parse(json) as Record<string, unknown>;
  }

  #texts(value: Record<string, unknown>, index: unknown, where: string): string[] {
    if (index === false) return [];
    if (index === undefined || index === null)
      return this.#fields === false ? [] : indexTexts(value, this.#fields);
    if (!Array.isArray(index) || index.some((f) => typeof f !== 'string')) {
      throw invalidInput(`${where}: index must be false or a list of field paths.`);
    }
    return indexTexts(
      value,
      index.map((field: string) => parseFieldPath(field, where)),
    );
  }

  // ------------------------------------------------------------------ reads

  /** The current items stored at exactly `scope`. */
  async #itemsAt(scope: Scope): Promise<StoredItem[]> {
    const facts = await this.#memory.facts.list(scope, { entityType: ITEM_ENTITY_TYPE });
    const items: StoredItem[] = [];
    for (const fact of facts) {
      const stored = this.#stored(fact, scope);
      if (stored) items.push(stored);
    }
    return items;
  }

  /**
   * The current items a search or listing reads: those of one scope, or of every item home in a
   * subtree (the store lists the subtree's scopes; each home is read on its own).
   */
  async #itemsIn(target: PrefixTarget): Promise<StoredItem[]> {
    if ('scope' in target) return this.#itemsAt(target.scope);
    const items: StoredItem[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.#memory.store.scopes.list({
        scope: target.subtree.root,
        limit: 1000,
        ...(cursor ? { cursor } : {}),
      });
      for (const scope of page.items) {
        if (target.subtree.isHome(scope)) items.push(...(await this.#itemsAt(scope)));
      }
      cursor = page.nextCursor;
    } while (cursor);
    return items;
  }

  /** A fact as a store item of `scope`, or undefined when it is not one. */
  #stored(fact: FactRecord, scope: Scope): StoredItem | undefined {
    if (fact.key !== ITEM_FACT_KEY || !sameScope(fact.scope, scope) || !isPlainObject(fact.value))
      return undefined;
    const address = parsePath(fact.entityId);
    if (!address) return undefined;
    let home: Scope | undefined;
    try {
      home = this.#mapping.scopeOf(address.namespace);
    } catch {
      return undefined;
    }
    if (!home || !sameScope(home, scope)) return undefined;
    return { scope, fact, path: fact.entityId, ...address, value: fact.value };
  }

  #item(stored: StoredItem): Item {
    return {
      namespace: stored.namespace,
      key: stored.key,
      value: stored.value,
      createdAt: new Date(createdAtOf(stored.fact)),
      updatedAt: new Date(stored.fact.lastConfirmedAt),
    };
  }

  async #get(scope: Scope, path: string): Promise<Item | null> {
    const fact = await this.#memory.facts.get(scope, factKey(path));
    const stored = fact ? this.#stored(fact, scope) : undefined;
    return stored ? this.#item(stored) : null;
  }

  async #search(plan: Extract<Plan, { kind: 'search' }>): Promise<SearchItem[]> {
    const candidates = (await this.#itemsIn(plan.target))
      .filter((item) => startsWith(item.namespace, plan.prefix) && matchesFilter(item.value, plan.filter))
      .sort(
        (a, b) =>
          b.fact.lastConfirmedAt - a.fact.lastConfirmedAt || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0),
      );
    let ordered: Array<{ item: StoredItem; score?: number }> = candidates.map((item) => ({ item }));
    if (plan.query !== undefined && candidates.length > 0) {
      const scores = await this.#scores(plan.query, candidates);
      const scoreOf = (item: StoredItem) => scores.get(itemId(item));
      const scored = ordered
        .filter((c) => scoreOf(c.item) !== undefined)
        .map((c) => ({ ...c, score: scoreOf(c.item)! }))
        .sort((a, b) => b.score - a.score);
      ordered = [...scored, ...ordered.filter((c) => scoreOf(c.item) === undefined)];
    }
    return ordered
      .slice(plan.offset, plan.offset + plan.limit)
      .map(({ item, score }) => ({ ...this.#item(item), ...(score !== undefined ? { score } : {}) }));
  }

  /**
   * Relevance of the candidates to `query`: the engine's hybrid episodic recall over each scope the
   * candidates live in, each item scored by the best of the episodes that index its fact (the fused,
   * re-weighted score recall reports, also for candidates it left out as near-duplicates of another
   * item's text or below its cut).
   */
  async #scores(query: string, candidates: StoredItem[]): Promise<Map<string, number>> {
    const byScope = new Map<string, { scope: Scope; owners: Map<string, string> }>();
    for (const candidate of candidates) {
      const key = scopeKey(candidate.scope);
      const entry = byScope.get(key) ?? { scope: candidate.scope, owners: new Map<string, string>() };
      for (const episodeId of indexEpisodeIdsOf(candidate.fact))
        entry.owners.set(episodeId, itemId(candidate));
      byScope.set(key, entry);
    }
    const scores = new Map<string, number>();
    for (const { scope, owners } of byScope.values()) {
      if (owners.size === 0) continue;
      const context = await this.#memory.recall(scope, {
        query,
        layers: ['episodes'],
        maxEpisodes: QUERY_EPISODES,
        budget: { tokens: 1_000_000 },
      });
      for (const entry of context.explain()) {
        const owner = entry.layer === 'episodes' ? owners.get(entry.id) : undefined;
        if (owner === undefined || entry.scores === undefined) continue;
        scores.set(owner, Math.max(scores.get(owner) ?? Number.NEGATIVE_INFINITY, entry.scores.final));
      }
    }
    return scores;
  }

  async #list(plan: Extract<Plan, { kind: 'list' }>): Promise<string[][]> {
    const seen = new Map<string, string[]>();
    for (const item of await this.#itemsIn(plan.target)) {
      if (!plan.conditions.every((condition) => matchesCondition(item.namespace, condition))) continue;
      const namespace = plan.maxDepth === undefined ? item.namespace : item.namespace.slice(0, plan.maxDepth);
      seen.set(namespace.join(':'), namespace);
    }
    const sorted = [...seen.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([, namespace]) => namespace);
    return sorted.slice(plan.offset, plan.limit === undefined ? undefined : plan.offset + plan.limit);
  }

  // ------------------------------------------------------------------ writes

  /**
   * The item's document as the fact's value, its texts as the fact's index (the engine keeps the
   * episodes, replaces the ones whose text changed, and deletes them with the fact).
   */
  async #put(plan: Extract<Plan, { kind: 'put' }>): Promise<void> {
    const { scope, path } = plan;
    const current = await this.#memory.facts.get(scope, factKey(path));
    const createdAt =
      current && sameScope(current.scope, scope) ? createdAtOf(current) : this.#memory.clock.now();
    const { fact } = await this.#memory.facts.remember(scope, {
      ...factKey(path),
      value: plan.value as never,
      metadata: { [ITEM_METADATA_KEY]: { createdAt } },
      index: { texts: plan.texts, speaker: INDEX_SPEAKER },
    });
    if (!fact)
      throw new StrataError({ code: 'internal', message: `${WHERE}: the engine did not store the item.` });
  }

  /** Every version of the item and the episodes that index it (`forgetItem`, audited). */
  async #delete(scope: Scope, path: string): Promise<void> {
    const fact = await this.#memory.facts.get(scope, factKey(path));
    if (fact && sameScope(fact.scope, scope)) await this.#memory.forgetItem(scope, fact.id);
  }
}

/** When an item was first put: kept in its fact's metadata across versions. */
function createdAtOf(fact: FactRecord): number {
  const kept = fact.metadata[ITEM_METADATA_KEY];
  const at = isPlainObject(kept) ? kept.createdAt : undefined;
  return typeof at === 'number' ? at : fact.createdAt;
}

function itemId(item: StoredItem): string {
  return `${scopeKey(item.scope)}\u0000${item.path}`;
}
