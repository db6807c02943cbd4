import { parseScope, SCOPE_LEVELS, type Scope, StrataError } from '@strata-memory/core';
import { parseBoundScope, resolveRequestScope } from '@strata-memory/core/integration';

/**
 * What LangChain hands a middleware hook or a tool at run time, as far as scope is concerned:
 * the agent's `context` (from `createAgent({ contextSchema })`, passed as `invoke(input, { context })`)
 * and the run's `configurable` (LangGraph's `thread_id`).
 */
export interface RunScopeSource {
  context?: unknown;
  configurable?: Record<string, unknown> | undefined;
}

/** Computes a run's scope from its context and configurable. Return undefined when there is none. */
export type ScopeResolver = (source: RunScopeSource) => Scope | undefined;

/**
 * A scope bound once (`{ orgId: 'acme' }`), to which each run adds the levels its `context` and
 * `configurable.thread_id` name; or a function that computes the whole scope of a run.
 */
export type ScopeOption = Scope | ScopeResolver;

/** A validated scope option: a bound scope, a resolver, or nothing (every run must name its scope). */
export type ParsedScopeOption = { bound?: Scope; resolver?: ScopeResolver };

/** Validates a scope option at construction, so a bad bound scope fails before the first run. */
export function parseScopeOption(option: unknown, where: string): ParsedScopeOption {
  if (typeof option === 'function') return { resolver: option as ScopeResolver };
  const bound = parseBoundScope(option, where);
  return bound ? { bound } : {};
}

function noScope(where: string): StrataError {
  return new StrataError({
    code: 'invalid_scope',
    message:
      `${where}: no scope for this run. Bind one ({ scope: { orgId?, userId?, agentId? } }), pass ` +
      'context: { userId, ... } / configurable: { thread_id } when invoking, or give a scope function; ' +
      'memory is never read or written without a scope.',
  });
}

/**
 * The levels a run names itself: `context.orgId`, `context.userId`, `context.agentId` and
 * `context.threadId` (strings), with LangGraph's `configurable.thread_id` as the thread when the
 * context names none. A context that names a thread different from `thread_id` is rejected.
 */
export function scopeNamedByRun(source: RunScopeSource, where: string): Scope {
  const named: Record<string, unknown> = {};
  const context = source.context;
  if (typeof context === 'object' && context !== null) {
    for (const level of SCOPE_LEVELS) {
      const value = (context as Record<string, unknown>)[level];
      if (value !== undefined && value !== null) named[level] = value;
    }
  }
  const threadId = source.configurable?.thread_id;
  if (threadId !== undefined && threadId !== null) {
    if (named.threadId !== undefined && named.threadId !== threadId) {
      throw new StrataError({
        code: 'invalid_scope',
        message: `${where}: context.threadId differs from configurable.thread_id; a run has one thread.`,
      });
    }
    named.threadId = typeof threadId === 'number' ? String(threadId) : threadId;
  }
  if (Object.keys(named).length === 0) return {};
  return parseScope(named, `${where}: the run's context`);
}

/**
 * The scope of one run. With a resolver, its result (validated). Otherwise the engine's rule for a
 * bound scope and a request: the run may add levels the bound scope leaves unset, never change a
 * bound one (so a run cannot move itself into another tenant). With neither, `invalid_scope`.
 */
export function resolveRunScope(option: ParsedScopeOption, source: RunScopeSource, where: string): Scope {
  if (option.resolver) {
    const resolved = option.resolver(source);
    if (resolved === undefined || resolved === null) throw noScope(where);
    return parseScope(resolved, `${where}: the scope function's result`);
  }
  const named = scopeNamedByRun(source, where);
  if (!option.bound && Object.keys(named).length === 0) throw noScope(where);
  return resolveRequestScope({
    bound: option.bound,
    request: Object.keys(named).length > 0 ? named : undefined,
    where,
    requestArgument: "the run's context",
  });
}
