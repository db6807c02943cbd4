import type { StorageThreadType } from '@mastra/core/memory';
import { invalidInput, type Store, type ThreadRecord } from '@strata-memory/core';
import { toMetadata } from '../messages/json-value.ts';
import {
  checkId,
  findThreads,
  foreignThread,
  type Namespace,
  ownerOf,
  threadScope,
} from '../scope/thread-scope.ts';
import { storedTitle } from './thread-record.ts';

function timeOf(value: unknown, fallback: number): number {
  const ms =
    value instanceof Date ? value.getTime() : typeof value === 'string' ? Date.parse(value) : Number.NaN;
  return Number.isFinite(ms) && ms >= 0 ? ms : fallback;
}

/**
 * Mastra's `saveThread`: creates the thread in its resource, or updates its title and metadata
 * (merged). A thread id another resource already uses is refused: saving never moves a thread,
 * nor creates one in a resource that does not own the id.
 */
export async function saveThread(
  store: Store,
  namespace: Namespace,
  thread: StorageThreadType,
): Promise<ThreadRecord> {
  if (typeof thread !== 'object' || thread === null)
    throw invalidInput('saveThread: thread must be an object');
  const threadId = checkId(thread.id, 'threadId');
  const resourceId = checkId(thread.resourceId, 'resourceId');
  const scope = threadScope(namespace, resourceId, threadId);
  const existing = await findThreads(store, namespace, threadId);
  if (existing.some((t) => ownerOf(t) !== resourceId)) throw foreignThread(threadId, resourceId);
  const now = Date.now();
  const title = storedTitle(thread.title);
  const metadata = toMetadata(thread.metadata);
  return store.threads.upsert({
    scope,
    ...(title !== undefined ? { title } : {}),
    ...(metadata !== undefined ? { metadata } : {}),
    at: existing.length > 0 ? timeOf(thread.updatedAt, now) : timeOf(thread.createdAt, now),
  });
}
