import {
  idSchema,
  parseScope,
  type Scope,
  type Store,
  StrataError,
  type ThreadRecord,
} from '@strata-memory/core/store';

/**
 * Mastra's resource and thread as a Strata scope: `resource → userId`, `thread → threadId`, under
 * the levels bound when the memory was created (`orgId`, `agentId`). Threads outside this namespace
 * (another org or agent) do not exist as far as this memory is concerned.
 */
export interface Namespace {
  orgId?: string;
  agentId?: string;
}

/** The scope of a resource's long-term memory: `{ orgId?, userId: resourceId, agentId? }`. */
export function resourceScope(namespace: Namespace, resourceId: string): Scope {
  return parseScope({ ...namespace, userId: resourceId }, 'resourceId');
}

/** The scope of one thread of a resource. */
export function threadScope(namespace: Namespace, resourceId: string, threadId: string): Scope {
  checkId(threadId, 'threadId');
  return parseScope({ ...namespace, userId: resourceId, threadId }, 'resourceId / threadId');
}

/** A validated Mastra id (thread, resource or message id). */
export function checkId(value: unknown, what: string): string {
  const result = idSchema.safeParse(value);
  if (!result.success) {
    throw new StrataError({
      code: what === 'resourceId' ? 'invalid_scope' : 'invalid_input',
      message: `${what} ${result.error.issues[0]?.message ?? 'is invalid'} (got ${JSON.stringify(value)}).`,
      details: { argument: what },
    });
  }
  return result.data;
}

function inNamespace(scope: Scope, namespace: Namespace): boolean {
  return (
    scope.userId !== undefined &&
    scope.threadId !== undefined &&
    scope.orgId === namespace.orgId &&
    scope.agentId === namespace.agentId
  );
}

/** Every thread with this id in the namespace (one, unless created outside this adapter). */
export async function findThreads(
  store: Store,
  namespace: Namespace,
  threadId: string,
): Promise<ThreadRecord[]> {
  checkId(threadId, 'threadId');
  const found = await store.threads.lookup({ threadId });
  return found.filter((thread) => inNamespace(thread.scope, namespace));
}

/**
 * The one thread with this id, or null. Mastra looks threads up by id alone; an id that several
 * resources use (possible only for threads written outside this adapter) is a conflict, never a guess.
 */
export async function findThread(
  store: Store,
  namespace: Namespace,
  threadId: string,
): Promise<ThreadRecord | null> {
  const found = await findThreads(store, namespace, threadId);
  if (found.length > 1) {
    throw new StrataError({
      code: 'conflict',
      message:
        `Thread "${threadId}" exists for ${found.length} resources; Mastra addresses threads by id alone, ` +
        'so this memory cannot tell which one is meant. Give each resource its own thread ids.',
      details: { threadId, resources: found.length },
      retryable: false,
    });
  }
  return found[0] ?? null;
}

/** Thrown when a thread belongs to another resource. Never reveals who owns it. */
export function foreignThread(threadId: string, resourceId: string): StrataError {
  return new StrataError({
    code: 'invalid_scope',
    message: `Thread "${threadId}" belongs to another resource, not "${resourceId}". A resource can only use its own threads.`,
    details: { threadId, resourceId },
  });
}

export function unknownThread(threadId: string): StrataError {
  return new StrataError({
    code: 'not_found',
    message: `Thread "${threadId}" was not found. Create it first (saveThread / createThread).`,
    details: { what: 'thread', id: threadId },
  });
}

/**
 * The thread `threadId` of `resourceId`: it must exist and belong to that resource. A thread of
 * another resource is refused with `invalid_scope`; a missing one is `not_found`.
 */
export async function requireOwnedThread(
  store: Store,
  namespace: Namespace,
  args: { threadId: string; resourceId: string },
): Promise<ThreadRecord> {
  const scope = threadScope(namespace, args.resourceId, args.threadId);
  const own = await store.threads.get({ scope });
  if (own) return own;
  const others = await findThreads(store, namespace, args.threadId);
  if (others.length > 0) throw foreignThread(args.threadId, args.resourceId);
  throw unknownThread(args.threadId);
}

/**
 * The thread `threadId`, checked against `resourceId` when one is given (Mastra passes it on some
 * calls and not on others).
 */
export async function requireThread(
  store: Store,
  namespace: Namespace,
  args: { threadId: string; resourceId?: string | undefined },
): Promise<ThreadRecord> {
  if (args.resourceId !== undefined) {
    return requireOwnedThread(store, namespace, { threadId: args.threadId, resourceId: args.resourceId });
  }
  const thread = await findThread(store, namespace, args.threadId);
  if (!thread) throw unknownThread(args.threadId);
  return thread;
}

/** The resource (Mastra) that owns a thread record. */
export function ownerOf(thread: ThreadRecord): string {
  return thread.scope.userId!;
}
