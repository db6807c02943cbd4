import {
  BaseStore,
  type Item,
  type MatchCondition,
  type Operation,
  type OperationResults,
} from '@langchain/langgraph';
import {
  type FactRecord,
  type FactSelection,
  invalidInput,
  type JsonValue,
  LIMITS,
  type Memory,
  type Scope,
  StrataError,
} from '@strata-memory/core';
import { memoryInstanceSchema, parseArgs, sameScope, scopeKey } from '@strata-memory/core/integration';
import { storeSchemas } from '@strata-memory/core/store';
import { z } from 'zod/v4';
import { indexTexts, parseFieldPath } from './index-text.ts';
import { encodeLabel, itemPath, parseNamespacePath, parsePath } from './item-path.ts';
import { checkNamespace } from './namespace-rules.ts';
import {
  itemScope,
  type NamespaceScope,
  type PrefixTarget,
  prefixTarget,
  type ScopeMapping,
  scopeMapping,
} from './namespace-scope.ts';

/** Every store item is a fact of this entity type; its entity is the item's path. */
export const ITEM_ENTITY_TYPE = 'store item';
/** The attribute of that fact that holds the item's document. */
export const ITEM_FACT_KEY = 'value';
/** Fact metadata key holding what the engine does not keep itself: `{ createdAt }` of the item. */
export const ITEM_METADATA_KEY = 'langgraphStore';
/** The speaker name index episodes carry (what recall renders before their text). */
const INDEX_SPEAKER = 'saved memory';

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
      filter: Record<string, JsonValue> | undefined;
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

function matchesCondition(namespace: readonly string[], condition: MatchCondition): boolean {
  const { path, matchType } = condition;
  if (path.length > namespace.length) return false;
  const offset = matchType === 'suffix' ? namespace.length - path.length : 0;
  return path.every((label, i) => label === '*' || namespace[offset + i] === label);
}

/** LangGraph's search filter, checked up front (a bad one fails the batch before any write). */
function checkFilter(filter: unknown, where: string): Record<string, JsonValue> | undefined {
  if (filter === undefined || filter === null) return undefined;
  parseArgs(storeSchemas.valueFilterSchema, filter, `${where}: filter`);
  return filter as Record<string, JsonValue>;
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

  /**
   * A prefix search as the engine's fact reads: the items under the prefix (entity ids that start
   * with its encoded labels) that match the filter, in the store's `confirmed` order (most
   * recently updated first), paged by the store; with a query, the items the engine's search
   * scores come first, best first, then the rest in that order.
   */
  async #search(plan: Extract<Plan, { kind: 'search' }>): Promise<SearchItem[]> {
    if (plan.limit === 0) return [];
    const { scope, selection } = this.#selection(plan);
    const end = plan.offset + plan.limit;
    const scored =
      plan.query === undefined
        ? []
        : await this.#memory.facts.search(scope, { ...selection, query: plan.query });
    const results: SearchItem[] = [];
    for (const { fact, score } of scored.slice(plan.offset, end)) {
      const stored = this.#stored(fact, fact.scope);
      if (stored) results.push({ ...this.#item(stored), score });
    }
    if (end <= scored.length) return results;
    const rest = await this.#memory.facts.find(scope, {
      ...selection,
      order: 'confirmed',
      ...(scored.length > 0 ? { exclude: scored.map((s) => s.fact.id) } : {}),
      offset: Math.max(0, plan.offset - scored.length),
      limit: Math.min(LIMITS.maxLimit, end - Math.max(plan.offset, scored.length)),
    });
    for (const fact of rest.items) {
      const stored = this.#stored(fact, fact.scope);
      if (stored) results.push(this.#item(stored));
    }
    return results;
  }

  /** What a search reads, in the engine's terms: the items of the prefix's scope or subtree, under the prefix. */
  #selection(plan: Extract<Plan, { kind: 'search' }>): { scope: Scope; selection: FactSelection } {
    const selection: FactSelection = {
      entityType: ITEM_ENTITY_TYPE,
      key: ITEM_FACT_KEY,
      ...(plan.prefix.length > 0 ? { entityPrefix: `${plan.prefix.map(encodeLabel).join('/')}/` } : {}),
      ...(plan.filter ? { where: plan.filter } : {}),
    };
    return 'scope' in plan.target
      ? { scope: plan.target.scope, selection: { ...selection, within: 'exact' } }
      : { scope: plan.target.subtree.root, selection: { ...selection, within: 'subtree' } };
  }

  /**
   * The namespaces holding items at one item home: the store groups the items' paths (fact entity
   * ids) into their distinct namespaces, so a listing reads one row per namespace, not per item.
   */
  async #namespacesAt(scope: Scope): Promise<string[][]> {
    const namespaces: string[][] = [];
    let cursor: string | undefined;
    do {
      const page = await this.#memory.store.facts.entityPrefixes({
        scope,
        entityType: ITEM_ENTITY_TYPE,
        key: ITEM_FACT_KEY,
        separator: '/',
        limit: 1000,
        ...(cursor ? { cursor } : {}),
      });
      for (const prefix of page.items) {
        const namespace = parseNamespacePath(prefix);
        if (namespace && this.#isHomeOf(namespace, scope)) namespaces.push(namespace);
      }
      cursor = page.nextCursor;
    } while (cursor);
    return namespaces;
  }

  /** The namespaces of a listing's target: one scope's, or those of every item home in a subtree. */
  async #namespacesIn(target: PrefixTarget): Promise<string[][]> {
    if ('scope' in target) return this.#namespacesAt(target.scope);
    const namespaces: string[][] = [];
    let cursor: string | undefined;
    do {
      const page = await this.#memory.store.scopes.list({
        scope: target.subtree.root,
        limit: 1000,
        ...(cursor ? { cursor } : {}),
      });
      for (const scope of page.items) {
        if (target.subtree.isHome(scope)) namespaces.push(...(await this.#namespacesAt(scope)));
      }
      cursor = page.nextCursor;
    } while (cursor);
    return namespaces;
  }

  /** True when the namespace's items live at `scope` under this store's scope mapping. */
  #isHomeOf(namespace: string[], scope: Scope): boolean {
    try {
      const home = this.#mapping.scopeOf(namespace);
      return home !== undefined && sameScope(home, scope);
    } catch {
      return false;
    }
  }

  async #list(plan: Extract<Plan, { kind: 'list' }>): Promise<string[][]> {
    const seen = new Map<string, string[]>();
    for (const stored of await this.#namespacesIn(plan.target)) {
      if (!plan.conditions.every((condition) => matchesCondition(stored, condition))) continue;
      const namespace = plan.maxDepth === undefined ? stored : stored.slice(0, plan.maxDepth);
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
