import { StrataError } from '../errors/strata-error.ts';
import { parseScope, SCOPE_LEVELS, type Scope } from '../scope/scope.ts';

/**
 * The scope of one request to an integration (a model call, an agent run, a tool call): the scope
 * bound when the integration was created plus the levels the request names. A request may add
 * levels the bound scope leaves unset (bind `{ orgId }`, name `{ userId, threadId }` per request)
 * but never change a bound one, so a request cannot move itself into another tenant. With neither
 * a bound nor a request scope the request fails: memory is never read or written without a scope.
 */

/** Validates a scope bound at construction time, so a bad one fails before the first request. */
export function parseBoundScope(scope: unknown, where: string): Scope | undefined {
  return scope === undefined ? undefined : parseScope(scope, `${where}: scope`);
}

/**
 * The bound scope with the request's levels added. `request` is untrusted (`undefined` or `null`
 * means the request names no scope; anything else is validated). Every failure is `invalid_scope`.
 */
export function resolveRequestScope(args: {
  bound: Scope | undefined;
  request: unknown;
  /** Who is asking, for the error message, e.g. `strataMiddleware`. */
  where: string;
  /** How the caller passes a request scope, e.g. `providerOptions.strata`. */
  requestArgument: string;
}): Scope {
  const { bound, request, where, requestArgument } = args;
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
