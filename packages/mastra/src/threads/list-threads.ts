import type { StorageListThreadsInput, StorageListThreadsOutput } from '@mastra/core/storage';
import { invalidInput, type Scope, type Store, StrataError, type ThreadRecord } from '@strata-memory/core';
import { checkId, type Namespace, resourceScope } from '../scope/thread-scope.ts';
import { pageOf, sortDirection } from './page-window.ts';
import { readAllThreads } from './read-all.ts';
import { toMastraThread } from './thread-record.ts';

function jsonEquals(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const aKeys = Object.keys(a);
  const bKeys = Object.keys(b);
  if (aKeys.length !== bKeys.length) return false;
  return aKeys.every((key) =>
    jsonEquals((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]),
  );
}

/**
 * Where to list: one resource's threads, or every resource's in the bound org. Each resource is
 * its own tenant unless an org is bound, so listing across resources needs `orgId`.
 */
function listingScope(namespace: Namespace, resourceId: string | undefined): Scope {
  if (resourceId !== undefined) return resourceScope(namespace, checkId(resourceId, 'resourceId'));
  if (namespace.orgId !== undefined) {
    return { orgId: namespace.orgId, ...(namespace.agentId ? { agentId: namespace.agentId } : {}) };
  }
  throw new StrataError({
    code: 'invalid_scope',
    message:
      'listThreads needs filter.resourceId: without an orgId every resource is its own tenant, and memory is ' +
      'never listed across tenants. Pass filter.resourceId, or create strataMemory with an orgId to list every ' +
      "resource's threads in that org.",
  });
}

function inNamespace(thread: ThreadRecord, namespace: Namespace): boolean {
  return (
    thread.scope.userId !== undefined &&
    thread.scope.orgId === namespace.orgId &&
    thread.scope.agentId === namespace.agentId
  );
}

/** Mastra's `listThreads`: filter by resource and metadata (AND), sort, then page. */
export async function listThreads(
  store: Store,
  namespace: Namespace,
  args: StorageListThreadsInput,
): Promise<StorageListThreadsOutput> {
  const filter = args.filter ?? {};
  const field = args.orderBy?.field ?? 'createdAt';
  if (field !== 'createdAt' && field !== 'updatedAt') {
    throw invalidInput(`orderBy.field must be "createdAt" or "updatedAt" (got ${JSON.stringify(field)})`);
  }
  const direction = sortDirection(args.orderBy?.direction, 'DESC');
  const metadata = Object.entries(filter.metadata ?? {});
  const threads = (await readAllThreads(store, listingScope(namespace, filter.resourceId)))
    .filter((thread) => inNamespace(thread, namespace))
    .filter((thread) => metadata.every(([key, value]) => jsonEquals(thread.metadata[key], value)))
    .sort((a, b) => {
      const order = a[field] - b[field] || (a.scope.threadId! < b.scope.threadId! ? -1 : 1);
      return direction === 'ASC' ? order : -order;
    });
  const page = pageOf(threads, args, 100);
  return {
    threads: page.items.map(toMastraThread),
    total: page.total,
    page: page.page,
    perPage: page.perPage,
    hasMore: page.hasMore,
  };
}
