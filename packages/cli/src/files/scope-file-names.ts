import { join } from 'node:path';
import { SCOPE_LEVELS, type Scope } from '@strata-memory/core';

/** The snapshot a memory directory holds (its JSON twin): everything a lossless import needs. */
export const SNAPSHOT_FILE = 'memory.json';

const LEVEL_NAMES = { orgId: 'org', userId: 'user', agentId: 'agent', threadId: 'thread' } as const;

/**
 * An id as one path segment on any common file system: percent-encoded like a URL component, plus
 * `*` and a leading `.` (so `..` stays a name, not a step up).
 */
function segment(id: string): string {
  return encodeURIComponent(id).replaceAll('*', '%2A').replace(/^\./, '%2E');
}

/**
 * Where a scope's Markdown file lives in a memory directory, one folder level per scope level:
 * `org=acme.md`, `org=acme/user=maria.md`, `org=acme/user=maria/thread=t1.md`.
 */
export function scopeFilePath(scope: Scope): string {
  const parts = SCOPE_LEVELS.filter((level) => scope[level] !== undefined).map(
    (level) => `${LEVEL_NAMES[level]}=${segment(scope[level]!)}`,
  );
  const last = parts.pop()!;
  return join(...parts, `${last}.md`);
}
