import { invalidInput, parseScope, type Scope } from '@strata-memory/core';

const LEVEL_NAMES: Record<string, keyof Scope> = {
  org: 'orgId',
  orgId: 'orgId',
  user: 'userId',
  userId: 'userId',
  agent: 'agentId',
  agentId: 'agentId',
  thread: 'threadId',
  threadId: 'threadId',
};

/**
 * Reads `--scope org=acme,user=maria` (also `orgId=…`, and `agent`, `thread`) into a scope the
 * engine validates. A value may not contain a comma; an unknown level is an error that names the
 * levels.
 */
export function parseScopeOption(spec: string): Scope {
  const scope: Record<string, string> = {};
  for (const part of spec.split(',')) {
    const trimmed = part.trim();
    if (trimmed.length === 0) continue;
    const eq = trimmed.indexOf('=');
    const name = eq < 0 ? trimmed : trimmed.slice(0, eq).trim();
    const level = LEVEL_NAMES[name];
    if (eq < 0 || level === undefined) {
      throw invalidInput(`--scope: "${trimmed}" is not level=value; levels are org, user, agent, thread`, {
        scope: spec,
      });
    }
    if (scope[level] !== undefined) throw invalidInput(`--scope: ${name} is given twice`, { scope: spec });
    scope[level] = trimmed.slice(eq + 1).trim();
  }
  return parseScope(scope, '--scope');
}

/** The `--scope` text for a scope (the inverse of `parseScopeOption`). */
export function formatScope(scope: Scope): string {
  return (['orgId', 'userId', 'agentId', 'threadId'] as const)
    .filter((level) => scope[level] !== undefined)
    .map((level) => `${level.slice(0, -2)}=${scope[level]}`)
    .join(',');
}
