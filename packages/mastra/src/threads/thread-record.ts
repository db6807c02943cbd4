import type { StorageThreadType } from '@mastra/core/memory';
import type { ThreadRecord } from '@strata-memory/core';

/** A Strata thread as Mastra's thread: `scope.threadId → id`, `scope.userId → resourceId`. */
export function toMastraThread(record: ThreadRecord): StorageThreadType {
  return {
    id: record.scope.threadId!,
    resourceId: record.scope.userId!,
    ...(record.title !== undefined ? { title: record.title } : {}),
    createdAt: new Date(record.createdAt),
    updatedAt: new Date(record.updatedAt),
    metadata: { ...record.metadata },
  };
}

/** A Mastra title as Strata keeps it: an empty title is no title. */
export function storedTitle(title: string | undefined): string | undefined {
  return title === undefined || title.trim().length === 0 ? undefined : title;
}
