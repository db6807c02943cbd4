import {
  invalidInput,
  parseScope,
  SCOPE_LEVELS,
  type Scope,
  type ScopeLevel,
  StrataError,
  scopeDepth,
} from '@strata-memory/core/store';

/**
 * Which Strata scope the items of a LangGraph namespace live in. Called with a full namespace (to
 * put, get or delete an item) and with search and listing prefixes; return undefined when the labels
 * given are too few to tell. It must be consistent with prefixes: every namespace that starts with
 * a prefix the function maps must map to that same scope.
 */
export type NamespaceScope = (namespace: readonly string[]) => Scope | undefined;

/**
 * The usual mapping: the leading labels of a namespace name scope levels, in order, on top of an
 * optional base scope. `namespaceLevels(['orgId', 'userId'])` puts `['acme', 'u1', 'memories']` in
 * `{ orgId: 'acme', userId: 'u1' }`; `namespaceLevels(['userId'], { orgId: 'acme' })` puts
 * `['u1', 'memories']` in `{ orgId: 'acme', userId: 'u1' }`. The labels after the levels name a
 * collection inside that scope.
 */
export function namespaceLevels(levels: readonly ScopeLevel[], base?: Scope): NamespaceScope {
  const where = 'namespaceLevels';
  if (levels.length === 0) throw invalidInput(`${where}: name at least one scope level.`);
  for (const level of levels) {
    if (!SCOPE_LEVELS.includes(level)) throw invalidInput(`${where}: "${level}" is not a scope level.`);
    if (level === 'threadId') {
      throw invalidInput(
        `${where}: store items are long-term memory; map namespaces to org, user or agent levels.`,
      );
    }
  }
  if (new Set(levels).size !== levels.length) throw invalidInput(`${where}: a level is named twice.`);
  const fixed = base === undefined ? {} : parseScope(base, `${where}: base`);
  const clash = levels.find((level) => fixed[level] !== undefined);
  if (clash) throw invalidInput(`${where}: the base scope already sets ${clash}.`);
  const map: NamespaceScope = (namespace) => {
    if (namespace.length < levels.length) return undefined;
    const scope: Scope = { ...fixed };
    levels.forEach((level, i) => {
      scope[level] = namespace[i]!;
    });
    return scope;
  };
  return Object.assign(map, { [LEVELS]: { levels: [...levels], base: fixed } });
}

/** What `namespaceLevels` built a mapping from, so a short prefix can name a subtree of scopes. */
const LEVELS = Symbol('strata-memory.namespaceLevels');
type LevelMapping = NamespaceScope & { [LEVELS]?: { levels: ScopeLevel[]; base: Scope } };

/** Scopes under a prefix too short to name one: the subtree that holds them and which scopes in it are item homes. */
export interface ScopeSubtree {
  root: Scope;
  isHome(scope: Scope): boolean;
}

/** The store's `scope` option, resolved: a function for every namespace. */
export interface ScopeMapping {
  /** True when every namespace lives in one scope (any prefix can be searched and listed). */
  readonly fixed: boolean;
  /** The scope of a namespace or prefix, validated; undefined when the labels do not tell. */
  scopeOf(namespace: readonly string[]): Scope | undefined;
  /**
   * For a prefix too short to name a scope: the subtree holding every namespace under it, when the
   * mapping can tell (a `namespaceLevels` mapping with at least one level known); else undefined.
   */
  subtreeOf(prefix: readonly string[]): ScopeSubtree | undefined;
}

function levelSubtree(
  mapping: { levels: ScopeLevel[]; base: Scope },
  prefix: readonly string[],
): ScopeSubtree | undefined {
  const root: Scope = { ...mapping.base };
  mapping.levels.slice(0, prefix.length).forEach((level, i) => {
    root[level] = prefix[i]!;
  });
  if (scopeDepth(root) === 0) return undefined;
  const homeLevels = new Set<ScopeLevel>([...(Object.keys(mapping.base) as ScopeLevel[]), ...mapping.levels]);
  return {
    root,
    isHome: (scope) => SCOPE_LEVELS.every((level) => (scope[level] !== undefined) === homeLevels.has(level)),
  };
}

function checkLongTerm(scope: Scope, where: string): Scope {
  if (scope.threadId !== undefined) {
    throw new StrataError({
      code: 'invalid_scope',
      message: `${where}: store items are long-term memory shared by threads; the scope must not set threadId.`,
    });
  }
  return scope;
}

export function scopeMapping(option: unknown, where: string): ScopeMapping {
  if (typeof option === 'function') {
    const map = option as LevelMapping;
    const levels = map[LEVELS];
    return {
      fixed: false,
      scopeOf(namespace) {
        const scope = map(namespace);
        if (scope === undefined || scope === null) return undefined;
        return checkLongTerm(parseScope(scope, `${where}: the scope of ${JSON.stringify(namespace)}`), where);
      },
      subtreeOf: (prefix) => (levels ? levelSubtree(levels, prefix) : undefined),
    };
  }
  if (option === undefined) {
    throw new StrataError({
      code: 'invalid_scope',
      message: `${where}: give a scope ({ orgId?, userId?, agentId? }) or a namespace mapping (namespaceLevels([...])); memory is never written without one.`,
    });
  }
  const scope = checkLongTerm(parseScope(option, `${where}: scope`), where);
  return { fixed: true, scopeOf: () => scope, subtreeOf: () => undefined };
}

/** The scope of a namespace an item is written to or read from: it must be determined. */
export function itemScope(mapping: ScopeMapping, namespace: readonly string[], where: string): Scope {
  const scope = mapping.scopeOf(namespace);
  if (!scope) {
    throw invalidInput(`${where}: the namespace ${JSON.stringify(namespace)} does not determine a scope.`, {
      namespace: [...namespace],
    });
  }
  return scope;
}

/** Where a search or listing reads: one scope, or every item home in a subtree of scopes. */
export type PrefixTarget = { scope: Scope } | { subtree: ScopeSubtree };

/**
 * Where a search or listing prefix reads: the scope it names, or, under `namespaceLevels`, the
 * subtree of scopes it covers. A prefix that names neither (a mapping function that cannot tell,
 * or no level at all) is `unsupported`.
 */
export function prefixTarget(mapping: ScopeMapping, prefix: readonly string[], where: string): PrefixTarget {
  const scope = mapping.scopeOf(prefix);
  if (scope) return { scope };
  const subtree = mapping.subtreeOf(prefix);
  if (subtree) return { subtree };
  throw new StrataError({
    code: 'unsupported',
    message:
      `${where}: the prefix ${JSON.stringify(prefix)} does not tell which Strata scopes it covers under this ` +
      "store's namespace mapping. Give a prefix that names at least one scope level.",
    details: { prefix: [...prefix] },
  });
}
