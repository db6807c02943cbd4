import type { MastraDBMessage } from '@mastra/core/memory';
import type { StorageListMessagesInput } from '@mastra/core/storage';
import { invalidInput, type Store, type ThreadRecord } from '@strata-memory/core';
import { toMastraMessages } from '../messages/record-to-mastra.ts';
import { checkId, type Namespace, requireThread } from '../scope/thread-scope.ts';
import { pageOf, sortDirection } from './page-window.ts';
import { readAllMessages } from './read-all.ts';

export interface MessagePage {
  messages: MastraDBMessage[];
  total: number;
  page: number;
  perPage: number | false;
  hasMore: boolean;
}

type Filter = NonNullable<StorageListMessagesInput['filter']>;

function inDateRange(message: MastraDBMessage, range: Filter['dateRange']): boolean {
  if (!range) return true;
  const at = message.createdAt.getTime();
  if (range.start) {
    const start = new Date(range.start).getTime();
    if (range.startExclusive ? at <= start : at < start) return false;
  }
  if (range.end) {
    const end = new Date(range.end).getTime();
    if (range.endExclusive ? at >= end : at > end) return false;
  }
  return true;
}

function matchesMetadata(message: MastraDBMessage, metadata: Filter['metadata']): boolean {
  if (!metadata) return true;
  const own = message.content.metadata ?? {};
  return Object.entries(metadata).every(([key, value]) => own[key] === value);
}

/** Messages around `id` in its thread (`withPreviousMessages` before, `withNextMessages` after). */
function contextWindow(
  thread: MastraDBMessage[],
  include: NonNullable<StorageListMessagesInput['include']>[number],
): MastraDBMessage[] {
  const at = thread.findIndex((m) => m.id === include.id);
  if (at < 0) return [];
  const before = Math.max(0, include.withPreviousMessages ?? 0);
  const after = Math.max(0, include.withNextMessages ?? 0);
  return thread.slice(Math.max(0, at - before), at + after + 1);
}

/**
 * Mastra's `recall` / `listMessages` over Strata threads: the messages of one or more threads
 * (each checked against `resourceId` when given), filtered by date and metadata, sorted by
 * `createdAt`, paged, plus any `include`d messages with their neighbours.
 */
export async function listMessages(
  store: Store,
  namespace: Namespace,
  args: StorageListMessagesInput,
): Promise<MessagePage> {
  const threadIds = (Array.isArray(args.threadId) ? args.threadId : [args.threadId]).map((id) =>
    checkId(id, 'threadId'),
  );
  if (threadIds.length === 0) throw invalidInput('threadId must name at least one thread');
  const resourceId = args.resourceId === undefined ? undefined : checkId(args.resourceId, 'resourceId');
  if (args.orderBy?.field !== undefined && args.orderBy.field !== 'createdAt') {
    throw invalidInput(`orderBy.field must be "createdAt" (got ${JSON.stringify(args.orderBy.field)})`);
  }
  const direction = sortDirection(args.orderBy?.direction, 'ASC');
  const byTime = (a: MastraDBMessage, b: MastraDBMessage) => {
    const order = a.createdAt.getTime() - b.createdAt.getTime();
    return direction === 'ASC' ? order : -order;
  };

  const loaded = new Map<string, MastraDBMessage[]>();
  const load = async (thread: ThreadRecord) => {
    const id = thread.scope.threadId!;
    let messages = loaded.get(id);
    if (!messages) {
      messages = toMastraMessages(await readAllMessages(store, thread.scope));
      loaded.set(id, messages);
    }
    return messages;
  };

  const threads = await Promise.all(
    [...new Set(threadIds)].map((threadId) => requireThread(store, namespace, { threadId, resourceId })),
  );
  const all: MastraDBMessage[] = [];
  for (const thread of threads) all.push(...(await load(thread)));
  const matching = all
    .filter((m) => inDateRange(m, args.filter?.dateRange) && matchesMetadata(m, args.filter?.metadata))
    .sort(byTime);
  const page = pageOf(matching, args, 40);

  const messages = [...page.items];
  const seen = new Set(messages.map((m) => m.id));
  for (const include of args.include ?? []) {
    const homes = include.threadId
      ? [
          await requireThread(store, namespace, {
            threadId: checkId(include.threadId, 'threadId'),
            resourceId,
          }),
        ]
      : threads;
    for (const home of homes) {
      for (const message of contextWindow(await load(home), include)) {
        if (seen.has(message.id)) continue;
        seen.add(message.id);
        messages.push(message);
      }
    }
  }
  if (messages.length > page.items.length) messages.sort(byTime);
  return { messages, total: page.total, page: page.page, perPage: page.perPage, hasMore: page.hasMore };
}
