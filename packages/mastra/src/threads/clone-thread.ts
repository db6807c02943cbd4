import { randomUUID } from 'node:crypto';
import type { StorageCloneThreadInput, StorageCloneThreadOutput } from '@mastra/core/storage';
import {
  conflict,
  invalidInput,
  LIMITS,
  type Memory,
  type MessageRecord,
  type ObserveInput,
  type Principal,
  type Scope,
  type Store,
} from '@strata-memory/core';
import { toMetadata } from '../messages/json-value.ts';
import { toMastraMessages } from '../messages/record-to-mastra.ts';
import {
  checkId,
  findThread,
  findThreads,
  type Namespace,
  ownerOf,
  threadScope,
  unknownThread,
} from '../scope/thread-scope.ts';
import { storedTitle, toMastraThread } from './thread-record.ts';

/** Every message of a thread by `seq`, in pages: a clone copies the thread, so it reads all of it. */
async function threadMessages(store: Store, scope: Scope): Promise<MessageRecord[]> {
  const out: MessageRecord[] = [];
  for (;;) {
    const last = out[out.length - 1];
    const page = await store.threads.listMessages({
      scope,
      limit: LIMITS.maxLimit,
      ...(last ? { afterSeq: last.seq } : {}),
    });
    out.push(...page);
    if (page.length < LIMITS.maxLimit) return out;
  }
}

function selected(messages: MessageRecord[], options: StorageCloneThreadInput['options']): MessageRecord[] {
  let out = messages;
  const filter = options?.messageFilter;
  if (filter?.messageIds && filter.messageIds.length > 0) {
    const ids = new Set(filter.messageIds);
    out = out.filter((m) => ids.has(m.id));
  }
  if (filter?.startDate) {
    const start = new Date(filter.startDate).getTime();
    out = out.filter((m) => m.createdAt >= start);
  }
  if (filter?.endDate) {
    const end = new Date(filter.endDate).getTime();
    out = out.filter((m) => m.createdAt <= end);
  }
  const limit = options?.messageLimit;
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 0)) {
    throw invalidInput(`cloneThread: options.messageLimit must be an integer >= 0 (got ${limit})`);
  }
  if (limit && out.length > limit) out = out.slice(-limit);
  return out;
}

/**
 * Mastra's `cloneThread`: a new thread (in the source's resource unless `resourceId` says
 * otherwise) with copies of the chosen messages under new ids. The copies are observed without
 * extraction: the conversation is copied, not restated, so no fact is confirmed twice.
 */
export async function cloneThread(args: {
  memory: Memory;
  namespace: Namespace;
  input: StorageCloneThreadInput;
  newId: () => string;
  principal?: Principal;
}): Promise<StorageCloneThreadOutput> {
  const { memory, namespace, input } = args;
  const store = memory.store;
  const sourceId = checkId(input.sourceThreadId, 'sourceThreadId');
  const source = await findThread(store, namespace, sourceId);
  if (!source) throw unknownThread(sourceId);
  const resourceId =
    input.resourceId === undefined ? ownerOf(source) : checkId(input.resourceId, 'resourceId');
  const newThreadId = checkId(input.newThreadId ?? args.newId(), 'newThreadId');
  if ((await findThreads(store, namespace, newThreadId)).length > 0) {
    throw conflict(`cloneThread: thread "${newThreadId}" already exists`, { threadId: newThreadId });
  }
  const messages = selected(await threadMessages(store, source.scope), input.options);
  const scope = threadScope(namespace, resourceId, newThreadId);
  const now = Date.now();
  const title =
    storedTitle(input.title) ?? (source.title ? storedTitle(`Clone of ${source.title}`) : undefined);
  const last = messages[messages.length - 1];
  await store.threads.upsert({
    scope,
    ...(title !== undefined ? { title: title.slice(0, LIMITS.maxNameChars) } : {}),
    metadata: {
      ...toMetadata(input.metadata),
      clone: {
        sourceThreadId: sourceId,
        clonedAt: new Date(now).toISOString(),
        ...(last ? { lastMessageId: last.id } : {}),
      },
    },
    at: now,
  });
  const messageIdMap: Record<string, string> = {};
  const copies: ObserveInput[] = messages.map((m) => {
    const id = randomUUID();
    messageIdMap[m.id] = id;
    return {
      id,
      role: m.role,
      content: m.content,
      at: m.createdAt,
      metadata: m.metadata,
      ...(m.name ? { name: m.name } : {}),
      ...(m.toolCalls ? { toolCalls: m.toolCalls } : {}),
      ...(m.toolCallId ? { toolCallId: m.toolCallId } : {}),
    };
  });
  for (let i = 0; i < copies.length; i += LIMITS.maxBatch) {
    await memory.observe(scope, copies.slice(i, i + LIMITS.maxBatch), {
      extract: false,
      ...(args.principal ? { principal: args.principal } : {}),
    });
  }
  const thread = await store.threads.get({ scope });
  if (!thread) throw unknownThread(newThreadId);
  return {
    thread: toMastraThread(thread),
    clonedMessages: toMastraMessages(await threadMessages(store, scope)),
    messageIdMap,
  };
}
