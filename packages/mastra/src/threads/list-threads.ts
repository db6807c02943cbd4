import type { StorageListThreadsInput, StorageListThreadsOutput } from '@mastra/core/storage';
import { invalidInput, type Scope, type Store, StrataError } from '@strata-memory/core';
import { toMetadata } from '../messages/json-value.ts';
import { checkId, type Namespace, resourceScope } from '../scope/thread-scope.ts';
import { readWindow, sortDirection } from './page-window.ts';
import { toMastraThread } from './thread-record.ts';

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

/**
 * Mastra's `listThreads` as one `threads.list` call per page: the namespace's threads (a resource
 * set, the bound org and agent exactly), filtered by metadata, sorted and paged by the store.
 */
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
  const direction = sortDirection(args.orderBy?.direction, 'DESC') === 'ASC' ? 'asc' : 'desc';
  const scope = listingScope(namespace, filter.resourceId);
  const levels = {
    orgId: namespace.orgId !== undefined,
    userId: true,
    agentId: namespace.agentId !== undefined,
  };
  // As saved: Mastra metadata is kept as JSON (dates as ISO strings).
  const metadata = toMetadata(filter.metadata);
  const page = await readWindow(
    (window) =>
      store.threads.list({
        scope,
        levels,
        ...(metadata === undefined ? {} : { metadata }),
        order: { field, direction },
        ...window,
      }),
    args,
    100,
  );
  return {
    threads: page.items.map(toMastraThread),
    total: page.total,
    page: page.page,
    perPage: page.perPage,
    hasMore: page.hasMore,
  };
}
