import type { MastraDBMessage } from '@mastra/core/memory';
import type { StorageListMessagesInput } from '@mastra/core/storage';
import { invalidInput, LIMITS, type MessageRecord, type Store, type ThreadRecord } from '@strata-memory/core';
import { toMetadata } from '../messages/json-value.ts';
import { MASTRA_CONTENT_KEY } from '../messages/mastra-to-observe.ts';
import { toMastraMessages } from '../messages/record-to-mastra.ts';
import { checkId, type Namespace, requireThread } from '../scope/thread-scope.ts';
import { readWindow, sortDirection } from './page-window.ts';

export interface MessagePage {
  messages: MastraDBMessage[];
  total: number;
  page: number;
  perPage: number | false;
  hasMore: boolean;
}

type Filter = NonNullable<StorageListMessagesInput['filter']>;
type Include = NonNullable<StorageListMessagesInput['include']>[number];

/** Mastra's date range as the store's inclusive bounds (times are whole milliseconds). */
function timeBounds(range: Filter['dateRange']): { since?: number; until?: number } {
  if (!range) return {};
  const at = (value: Date | string | number, what: string) => {
    const time = new Date(value).getTime();
    if (!Number.isFinite(time))
      throw invalidInput(`filter.dateRange.${what} is not a date (got ${String(value)})`);
    return time;
  };
  const bounds: { since?: number; until?: number } = {};
  if (range.start) bounds.since = at(range.start, 'start') + (range.startExclusive ? 1 : 0);
  if (range.end) bounds.until = at(range.end, 'end') - (range.endExclusive ? 1 : 0);
  return bounds;
}

/** The message `include.id` of `thread` with its neighbours, read around its `seq`. */
async function contextWindow(store: Store, thread: ThreadRecord, include: Include): Promise<MessageRecord[]> {
  const scope = thread.scope;
  const [message] = await store.threads.getMessages({ scope, ids: [checkId(include.id, 'include.id')] });
  if (!message) return [];
  const count = (n: number | undefined) => Math.min(LIMITS.maxLimit, Math.max(0, n ?? 0));
  const before = count(include.withPreviousMessages);
  const after = count(include.withNextMessages);
  const previous =
    before > 0
      ? await store.threads.listMessages({ scope, order: 'desc', beforeSeq: message.seq, limit: before })
      : [];
  const next =
    after > 0
      ? await store.threads.listMessages({ scope, order: 'asc', afterSeq: message.seq, limit: after })
      : [];
  return [...previous.reverse(), message, ...next];
}

/**
 * Mastra's `recall` / `listMessages` over Strata threads: one `threads.findMessages` call per page
 * over the messages of one or more threads (each checked against `resourceId` when given), the
 * date range, metadata (Mastra's `content.metadata`, kept in the message's metadata) and order
 * applied by the store; plus any `include`d messages with their neighbours, read around each one.
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
  const threads = await Promise.all(
    [...new Set(threadIds)].map((threadId) => requireThread(store, namespace, { threadId, resourceId })),
  );
  const { since, until } = timeBounds(args.filter?.dateRange);
  const metadata = toMetadata(args.filter?.metadata);
  const page = await readWindow(
    (window) =>
      until !== undefined && until < 0
        ? Promise.resolve({ items: [], total: 0 })
        : store.threads.findMessages({
            threads: threads.map((thread) => thread.scope),
            // System and tool messages are not turns Mastra replays (see `toMastraMessage`).
            roles: ['user', 'assistant'],
            ...(since === undefined ? {} : { since }),
            ...(until === undefined ? {} : { until }),
            ...(metadata === undefined ? {} : { metadata, metadataAt: [MASTRA_CONTENT_KEY, 'metadata'] }),
            order: direction === 'ASC' ? 'asc' : 'desc',
            ...window,
          }),
    args,
    40,
  );

  const messages = toMastraMessages(page.items);
  const seen = new Set(messages.map((m) => m.id));
  const listed = messages.length;
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
      for (const message of toMastraMessages(await contextWindow(store, home, include))) {
        if (seen.has(message.id)) continue;
        seen.add(message.id);
        messages.push(message);
      }
    }
  }
  if (messages.length > listed) {
    messages.sort((a, b) => {
      const order = a.createdAt.getTime() - b.createdAt.getTime();
      return direction === 'ASC' ? order : -order;
    });
  }
  return { messages, total: page.total, page: page.page, perPage: page.perPage, hasMore: page.hasMore };
}
