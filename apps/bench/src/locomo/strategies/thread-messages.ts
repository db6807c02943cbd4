import { LIMITS, type MessageRecord, type Scope, type Store, type ThreadRecord } from '@strata-memory/core';

async function allThreads(store: Store, scope: Scope): Promise<ThreadRecord[]> {
  const threads: ThreadRecord[] = [];
  let cursor: string | undefined;
  do {
    const page = await store.threads.list({ scope, limit: LIMITS.maxLimit, cursor });
    threads.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return threads;
}

async function lastMessageAt(store: Store, thread: ThreadRecord): Promise<number> {
  const [last] = await store.threads.listMessages({ scope: thread.scope, order: 'desc', limit: 1 });
  return last?.createdAt ?? thread.updatedAt;
}

/** The threads in the subtree of `scope`, newest first by the time of their last message. */
export async function threadsNewestFirst(store: Store, scope: Scope): Promise<ThreadRecord[]> {
  const threads = await allThreads(store, scope);
  const dated = await Promise.all(
    threads.map(async (thread) => ({ thread, at: await lastMessageAt(store, thread) })),
  );
  return dated.sort((a, b) => b.at - a.at).map(({ thread }) => thread);
}

/** Every message of one thread, in `order`, page by page. */
export async function* threadMessages(
  store: Store,
  thread: ThreadRecord,
  order: 'asc' | 'desc',
): AsyncGenerator<MessageRecord> {
  let bound: number | undefined;
  for (;;) {
    const page = await store.threads.listMessages({
      scope: thread.scope,
      order,
      limit: LIMITS.maxLimit,
      ...(bound === undefined ? {} : order === 'asc' ? { afterSeq: bound } : { beforeSeq: bound }),
    });
    yield* page;
    if (page.length < LIMITS.maxLimit) return;
    bound = page.at(-1)!.seq;
  }
}
