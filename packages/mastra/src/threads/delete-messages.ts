import type { MessageDeleteInput } from '@mastra/core/memory';
import { invalidInput, LIMITS, type Store } from '@strata-memory/core';
import { checkId, findThread, type Namespace } from '../scope/thread-scope.ts';

interface Target {
  id: string;
  threadId?: string;
}

function targets(input: MessageDeleteInput): Target[] {
  if (!Array.isArray(input))
    throw invalidInput('deleteMessages: pass an array of message ids or { id } objects');
  return input.map((entry, index) => {
    if (typeof entry === 'string') return { id: checkId(entry, `messageIds[${index}]`) };
    if (typeof entry !== 'object' || entry === null) {
      throw invalidInput(`deleteMessages: messageIds[${index}] must be an id or { id }`);
    }
    // Mastra messages passed whole carry their thread: use it rather than searching.
    const threadId = (entry as { threadId?: unknown }).threadId;
    return {
      id: checkId(entry.id, `messageIds[${index}].id`),
      ...(typeof threadId === 'string' ? { threadId: checkId(threadId, 'threadId') } : {}),
    };
  });
}

/**
 * Mastra's `deleteMessages`: removes messages from their threads' history. Mastra names messages
 * by id alone; a message is found through its `threadId` when the entry carries one (a Mastra
 * message object does), else by searching every thread of the bound org. Each resource is its own
 * tenant when no org is bound, so bare ids then cannot be searched for: that is an `invalid_input`
 * error that says what to pass instead. Ids not found are skipped, as Mastra's stores do.
 */
export async function deleteMessages(
  store: Store,
  namespace: Namespace,
  input: MessageDeleteInput,
): Promise<void> {
  const wanted = targets(input);
  if (wanted.length === 0) return;
  const byThread = new Map<string, string[]>();
  const bare: string[] = [];
  for (const target of wanted) {
    if (target.threadId === undefined) bare.push(target.id);
    else byThread.set(target.threadId, [...(byThread.get(target.threadId) ?? []), target.id]);
  }
  if (bare.length > 0 && namespace.orgId === undefined) {
    throw invalidInput(
      'deleteMessages: bare message ids cannot be found without an orgId, because every resource is its own ' +
        'tenant and memory is never searched across tenants. Pass the messages themselves (they carry their ' +
        'threadId), or create strataMemory with an orgId.',
    );
  }
  const scopes = [];
  for (const [threadId, ids] of byThread) {
    const thread = await findThread(store, namespace, threadId);
    if (thread) scopes.push({ scope: thread.scope, ids });
  }
  if (bare.length > 0) {
    const orgScope = {
      orgId: namespace.orgId!,
      ...(namespace.agentId ? { agentId: namespace.agentId } : {}),
    };
    // A bare id names no thread: each of the namespace's threads in the org is asked for it.
    const levels = { userId: true, agentId: namespace.agentId !== undefined };
    let cursor: string | undefined;
    do {
      const page = await store.threads.list({
        scope: orgScope,
        levels,
        limit: LIMITS.maxLimit,
        ...(cursor ? { cursor } : {}),
      });
      for (const thread of page.items) {
        const found = await store.threads.getMessages({ scope: thread.scope, ids: bare });
        if (found.length > 0) scopes.push({ scope: thread.scope, ids: found.map((m) => m.id) });
      }
      cursor = page.nextCursor;
    } while (cursor !== undefined);
  }
  for (const { scope, ids } of scopes) await store.threads.deleteMessages({ scope, ids });
}
