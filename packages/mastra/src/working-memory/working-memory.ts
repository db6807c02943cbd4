import {
  type FactRecord,
  invalidInput,
  LIMITS,
  type Memory,
  type Principal,
  type Scope,
  StrataError,
} from '@strata-memory/core';
import { normalizeName } from '@strata-memory/core/store';
import {
  checkId,
  findThread,
  type Namespace,
  ownerOf,
  requireOwnedThread,
  resourceScope,
  unknownThread,
} from '../scope/thread-scope.ts';
import {
  parseWorkingMemory,
  renderJson,
  renderMarkdown,
  type WorkingMemoryPatch,
} from './working-memory-text.ts';

/**
 * Working memory is what memory holds about the resource itself: its facts of entity type `user`
 * under the resource id, the same facts the extractor writes for "my name is …". Reading renders
 * them; writing patches them key by key through `facts.remember` (a changed value supersedes the
 * old one, which stays in the fact's history).
 */
export const WORKING_MEMORY_ENTITY_TYPE = 'user';

export interface WorkingMemoryTarget {
  /**
   * Where reads look and writes go: the thread's scope when a thread is named (the engine keeps
   * the facts at the resource's long-term scope), else the resource's.
   */
  scope: Scope;
  resourceId: string;
}

/** The scope working memory acts on: the resource's, through the thread when one is named (and owned). */
export async function workingMemoryTarget(
  memory: Memory,
  namespace: Namespace,
  args: { threadId?: string | undefined; resourceId?: string | undefined },
): Promise<WorkingMemoryTarget> {
  let resourceId = args.resourceId === undefined ? undefined : checkId(args.resourceId, 'resourceId');
  let scope: Scope | undefined;
  if (args.threadId !== undefined && args.threadId !== '') {
    const threadId = checkId(args.threadId, 'threadId');
    if (resourceId !== undefined) {
      scope = (await requireOwnedThread(memory.store, namespace, { threadId, resourceId })).scope;
    } else {
      const thread = await findThread(memory.store, namespace, threadId);
      if (!thread) throw unknownThread(threadId);
      scope = thread.scope;
      resourceId = ownerOf(thread);
    }
  }
  if (resourceId === undefined) {
    throw new StrataError({
      code: 'invalid_scope',
      message: 'working memory needs a resourceId (or a threadId of an existing thread)',
    });
  }
  return { scope: scope ?? resourceScope(namespace, resourceId), resourceId };
}

export async function readWorkingMemoryFacts(
  memory: Memory,
  target: WorkingMemoryTarget,
  principal: Principal | undefined,
): Promise<FactRecord[]> {
  const facts = await memory.facts.list(
    target.scope,
    { entityType: WORKING_MEMORY_ENTITY_TYPE, entity: target.resourceId },
    principal ? { principal } : {},
  );
  return [...facts].sort((a, b) => a.createdAt - b.createdAt || (a.key < b.key ? -1 : 1));
}

/** The working memory as Mastra reads it: Markdown (into the template, if any) or JSON; null when empty. */
export function renderWorkingMemory(
  facts: readonly FactRecord[],
  format: { json: boolean; template?: string },
): string | null {
  if (facts.length === 0) return null;
  return format.json ? renderJson(facts) : renderMarkdown(facts, format.template);
}

function checkPatch(patch: WorkingMemoryPatch): void {
  const key = normalizeName(patch.key);
  if (key.length === 0 || key.length > LIMITS.maxNameChars) {
    throw invalidInput(
      `working memory key "${patch.key.slice(0, 80)}" is empty or longer than ${LIMITS.maxNameChars} characters`,
    );
  }
  const bytes = Buffer.byteLength(JSON.stringify(patch.value), 'utf8');
  if (bytes > LIMITS.maxFactValueBytes) {
    throw new StrataError({
      code: 'payload_too_large',
      message: `working memory value of "${key}" is ${bytes} bytes; at most ${LIMITS.maxFactValueBytes}`,
    });
  }
}

/**
 * Applies an update as patches: each key given is written (or, with JSON `null`, removed); keys the
 * update leaves out are untouched. Every patch is checked before the first is written.
 */
export async function patchWorkingMemory(args: {
  memory: Memory;
  target: WorkingMemoryTarget;
  text: string;
  principal?: Principal;
}): Promise<{ written: number; removed: number }> {
  const { memory, target, principal } = args;
  const patches = parseWorkingMemory(args.text);
  for (const patch of patches) checkPatch(patch);
  const options = principal ? { principal } : {};
  let written = 0;
  let removed = 0;
  for (const patch of patches) {
    const key = { entityType: WORKING_MEMORY_ENTITY_TYPE, entity: target.resourceId, key: patch.key };
    if (patch.value === null) {
      const current = await memory.facts.get(target.scope, key, options);
      if (current && (await memory.forgetItem(target.scope, current.id, options)).deleted) removed += 1;
      continue;
    }
    const result = await memory.facts.remember(target.scope, { ...key, value: patch.value, ...options });
    if (result.fact && !result.confirmed) written += 1;
  }
  return { written, removed };
}
