import { parseScope, SCOPE_LEVELS, type Scope, StrataError } from '@strata-memory/core';

/** The `providerOptions` key (and tool-context key) a request's scope is read from. */
export const STRATA_OPTIONS_KEY = 'strata';

/** Validates a scope bound at construction time, so a bad one fails before the first request. */
export function parseBoundScope(scope: unknown, where: string): Scope | undefined {
  return scope === undefined ? undefined : parseScope(scope, `${where}: scope`);
}

/**
 * The scope of one request: the bound scope plus the levels the request adds. A request may add
 * levels the bound scope leaves unset (e.g. bind `{ orgId, agentId }`, pass `{ userId, threadId }`
 * per request) but never change a bound level, so a request cannot move itself into another tenant.
 * With neither a bound nor a request scope it fails: memory is never read or written without one.
 */
export function resolveScope({
  bound,
  request,
  where,
  requestArgument,
}: {
  bound: Scope | undefined;
  request: unknown;
  /** Who is asking, for the error message, e.g. `strataMiddleware`. */
  where: string;
  /** How the caller passes a request scope, e.g. `providerOptions.strata`. */
  requestArgument: string;
}): Scope {
  if (request === undefined || request === null) {
    if (bound) return bound;
    throw new StrataError({
      code: 'invalid_scope',
      message:
        `${where}: no scope for this request. Pass ${requestArgument} = { orgId?, userId?, agentId?, threadId? } ` +
        'or bind a scope when creating it; memory is never read or written without a scope.',
    });
  }
  const requested = parseScope(request, requestArgument);
  if (!bound) return requested;
  for (const level of SCOPE_LEVELS) {
    const fixed = bound[level];
    const asked = requested[level];
    if (fixed !== undefined && asked !== undefined && fixed !== asked) {
      throw new StrataError({
        code: 'invalid_scope',
        message:
          `${where}: ${requestArgument}.${level} differs from the bound scope's ${level}. ` +
          'A request may add scope levels, never change bound ones.',
        details: { level },
      });
    }
  }
  return parseScope({ ...bound, ...requested }, requestArgument);
}

/**
 * `providerOptions` that carry `scope` to the middleware: `{ strata: { userId, threadId, ... } }`,
 * typed as the AI SDK's JSON provider options so a `Scope` variable can be passed. Spread it to
 * add other providers' options.
 */
export function strataProviderOptions(scope: Scope): { [STRATA_OPTIONS_KEY]: Record<string, string> } {
  const levels: Record<string, string> = {};
  for (const level of SCOPE_LEVELS) {
    const value = scope[level];
    if (value !== undefined) levels[level] = value;
  }
  return { [STRATA_OPTIONS_KEY]: levels };
}
