import type { MessageRecord, Scope, Store, ThreadRecord } from '@strata-memory/core';

const PAGE = 1_000;

/** Every thread in the subtree of `scope`, following the store's cursor. */
export async function readAllThreads(store: Store, scope: Scope): Promise<ThreadRecord[]> {
  const out: ThreadRecord[] = [];
  let cursor: string | undefined;
  do {
    const page = await store.threads.list({ scope, limit: PAGE, ...(cursor ? { cursor } : {}) });
    out.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return out;
}

/** Every message of a thread, oldest first. */
export async function readAllMessages(store: Store, scope: Scope): Promise<MessageRecord[]> {
  const out: MessageRecord[] = [];
  let afterSeq: number | undefined;
  for (;;) {
    const page = await store.threads.listMessages({
      scope,
      order: 'asc',
      limit: PAGE,
      ...(afterSeq === undefined ? {} : { afterSeq }),
    });
    out.push(...page);
    if (page.length < PAGE) return out;
    afterSeq = page[page.length - 1]!.seq;
  }
}
