import type { MastraDBMessage } from '@mastra/core/memory';
import {
  invalidInput,
  type Memory,
  type ObserveInput,
  type Principal,
  type Scope,
  StrataError,
} from '@strata-memory/core';
import { toObserveInput } from '../messages/mastra-to-observe.ts';
import {
  checkId,
  findThread,
  foreignThread,
  type Namespace,
  ownerOf,
  threadScope,
} from '../scope/thread-scope.ts';

interface ThreadBatch {
  threadId: string;
  resourceId?: string;
  inputs: ObserveInput[];
}

function batches(messages: readonly MastraDBMessage[]): ThreadBatch[] {
  const byThread = new Map<string, ThreadBatch>();
  for (const [index, message] of messages.entries()) {
    if (typeof message !== 'object' || message === null) {
      throw invalidInput(`saveMessages: messages[${index}] must be a message object`);
    }
    checkId(message.id, `messages[${index}].id`);
    if (message.threadId === undefined) {
      throw invalidInput(
        `saveMessages: messages[${index}] has no threadId; every message belongs to a thread`,
      );
    }
    const threadId = checkId(message.threadId, 'threadId');
    const batch = byThread.get(threadId) ?? { threadId, inputs: [] };
    if (message.resourceId !== undefined && message.resourceId !== null) {
      const resourceId = checkId(message.resourceId, 'resourceId');
      if (batch.resourceId !== undefined && batch.resourceId !== resourceId) {
        throw new StrataError({
          code: 'invalid_scope',
          message: `saveMessages: messages of thread "${threadId}" name two resources ("${batch.resourceId}", "${resourceId}").`,
          details: { threadId },
        });
      }
      batch.resourceId = resourceId;
    }
    const input = toObserveInput(message);
    if (input) batch.inputs.push(input);
    byThread.set(threadId, batch);
  }
  return [...byThread.values()];
}

/**
 * Mastra's `saveMessages`: each thread's messages observed in one call (buffer, episodes,
 * extraction), under Mastra's ids, so a message saved twice (here and by the memory's output
 * processor) is observed once. Every thread is checked before anything is written: a thread of
 * another resource is refused; a missing thread is created in the messages' resource.
 */
export async function saveMessages(args: {
  memory: Memory;
  namespace: Namespace;
  messages: readonly MastraDBMessage[];
  principal?: Principal;
}): Promise<MastraDBMessage[]> {
  const { memory, namespace } = args;
  if (!Array.isArray(args.messages)) throw invalidInput('saveMessages: messages must be an array');
  const plan: Array<{ scope: Scope; inputs: ObserveInput[] }> = [];
  for (const batch of batches(args.messages)) {
    const thread = await findThread(memory.store, namespace, batch.threadId);
    if (thread) {
      if (batch.resourceId !== undefined && ownerOf(thread) !== batch.resourceId) {
        throw foreignThread(batch.threadId, batch.resourceId);
      }
      plan.push({ scope: thread.scope, inputs: batch.inputs });
    } else {
      if (batch.resourceId === undefined) {
        throw invalidInput(
          `saveMessages: thread "${batch.threadId}" does not exist and its messages name no resourceId to create it in`,
        );
      }
      plan.push({ scope: threadScope(namespace, batch.resourceId, batch.threadId), inputs: batch.inputs });
    }
  }
  for (const { scope, inputs } of plan) {
    if (inputs.length === 0) continue;
    await memory.observe(scope, inputs, args.principal ? { principal: args.principal } : {});
  }
  return args.messages.filter((m) => m.role === 'user' || m.role === 'assistant');
}
