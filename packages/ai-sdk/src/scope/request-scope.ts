import { SCOPE_LEVELS, type Scope } from '@strata-memory/core';

/** The `providerOptions` key (and tool-context key) a request's scope is read from. */
export const STRATA_OPTIONS_KEY = 'strata';

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
