import {
  type MastraDBMessage,
  MastraMemory,
  type MemoryConfig,
  type MemoryConfigInternal,
  type MessageDeleteInput,
  type StorageThreadType,
  type WorkingMemoryTemplate,
} from '@mastra/core/memory';
import type {
  InputProcessor,
  InputProcessorOrWorkflow,
  OutputProcessor,
  OutputProcessorOrWorkflow,
} from '@mastra/core/processors';
import type {
  StorageCloneThreadInput,
  StorageCloneThreadOutput,
  StorageListMessagesInput,
  StorageListThreadsInput,
  StorageListThreadsOutput,
} from '@mastra/core/storage';
import type { ToolExecutionContext } from '@mastra/core/tools';
import { type Memory, type Scope, StrataError } from '@strata-memory/core';
import { toMetadata } from '../messages/json-value.ts';
import { type AgentRun, agentRunOf } from '../processors/agent-run.ts';
import { StrataObserveProcessor } from '../processors/observe-processor.ts';
import { StrataRecallProcessor } from '../processors/recall-processor.ts';
import {
  checkId,
  findThread,
  type Namespace,
  requireOwnedThread,
  unknownThread,
} from '../scope/thread-scope.ts';
import { cloneThread } from '../threads/clone-thread.ts';
import { deleteMessages } from '../threads/delete-messages.ts';
import { listMessages } from '../threads/list-messages.ts';
import { listThreads } from '../threads/list-threads.ts';
import { saveMessages } from '../threads/save-messages.ts';
import { saveThread } from '../threads/save-thread.ts';
import { storedTitle, toMastraThread } from '../threads/thread-record.ts';
import { type MemoryToolName, memoryTools } from '../tools/memory-tools.ts';
import {
  patchWorkingMemory,
  readWorkingMemoryFacts,
  renderWorkingMemory,
  workingMemoryTarget,
} from '../working-memory/working-memory.ts';
import { type ResolvedOptions, resolveOptions, type StrataMemoryOptions } from './options.ts';

/**
 * A Mastra `MastraMemory` backed by the Strata engine. Mastra's resource is Strata's `userId`, its
 * thread Strata's `threadId` (under the bound `orgId` / `agentId`). Agents load and save memory
 * through this memory's processors: one recalls before the model is called, one observes the turn
 * when the run is over. Everything else (threads, messages, working memory, tools) translates
 * Mastra's calls into the engine's.
 */
export class StrataMastraMemory extends MastraMemory {
  /** The engine. */
  readonly strata: Memory;
  readonly #options: ResolvedOptions;
  readonly #namespace: Namespace;
  readonly #recallProcessor: StrataRecallProcessor;
  readonly #observeProcessor: StrataObserveProcessor;

  constructor(options: StrataMemoryOptions) {
    const resolved = resolveOptions(options);
    super({ id: resolved.id, name: 'StrataMemory' });
    this.strata = resolved.memory;
    this.#options = resolved;
    this.#namespace = resolved.namespace;
    const deps = {
      memory: this.strata,
      options: resolved,
      scopeOf: (run: AgentRun) => this.#runScope(run),
    };
    this.#recallProcessor = new StrataRecallProcessor(deps);
    this.#observeProcessor = new StrataObserveProcessor(deps);
  }

  /** The Strata scope a thread of a resource maps to, after checking the resource owns it. */
  async threadScope(args: { threadId: string; resourceId: string }): Promise<Scope> {
    return this.#runScope({ threadId: args.threadId, resourceId: args.resourceId, readOnly: false });
  }

  async #runScope(run: AgentRun): Promise<Scope> {
    const thread = await requireOwnedThread(this.strata.store, this.#namespace, {
      threadId: checkId(run.threadId, 'threadId'),
      resourceId: checkId(run.resourceId, 'resourceId'),
    });
    return thread.scope;
  }

  #withPrincipal() {
    return this.#options.principal ? { principal: this.#options.principal } : {};
  }

  // ------------------------------------------------------------------ threads

  async getThreadById({ threadId }: { threadId: string }): Promise<StorageThreadType | null> {
    const thread = await findThread(this.strata.store, this.#namespace, checkId(threadId, 'threadId'));
    return thread ? toMastraThread(thread) : null;
  }

  async listThreads(args: StorageListThreadsInput): Promise<StorageListThreadsOutput> {
    return listThreads(this.strata.store, this.#namespace, args ?? {});
  }

  async saveThread({ thread }: { thread: StorageThreadType; memoryConfig?: MemoryConfigInternal }) {
    return toMastraThread(await saveThread(this.strata.store, this.#namespace, thread));
  }

  async updateThread({
    id,
    title,
    metadata,
  }: {
    id: string;
    title?: string;
    metadata?: Record<string, unknown>;
    memoryConfig?: MemoryConfigInternal;
  }): Promise<StorageThreadType> {
    const threadId = checkId(id, 'threadId');
    const thread = await findThread(this.strata.store, this.#namespace, threadId);
    if (!thread) throw unknownThread(threadId);
    const stored = storedTitle(title);
    const patch = {
      ...(stored !== undefined ? { title: stored } : {}),
      ...(metadata !== undefined ? { metadata: toMetadata(metadata) } : {}),
    };
    return toMastraThread(await this.strata.store.threads.update({ scope: thread.scope, patch }));
  }

  /**
   * Erases the thread, its messages and whatever is stored at the thread's own scope
   * (`memory.forget`). What the resource's long-term memory learned from it stays.
   */
  async deleteThread(threadId: string): Promise<void> {
    const id = checkId(threadId, 'threadId');
    const thread = await findThread(this.strata.store, this.#namespace, id);
    if (!thread) throw unknownThread(id);
    await this.strata.forget(thread.scope, this.#withPrincipal());
  }

  async cloneThread(args: StorageCloneThreadInput): Promise<StorageCloneThreadOutput> {
    return cloneThread({
      memory: this.strata,
      namespace: this.#namespace,
      input: args,
      newId: () => this.generateId({ idType: 'thread', source: 'memory' }),
      ...this.#withPrincipal(),
    });
  }

  // ------------------------------------------------------------------ messages

  async saveMessages(args: {
    messages: MastraDBMessage[];
    memoryConfig?: MemoryConfig | undefined;
  }): Promise<{ messages: MastraDBMessage[] }> {
    if (args.memoryConfig?.readOnly) return { messages: [] };
    const messages = await saveMessages({
      memory: this.strata,
      namespace: this.#namespace,
      messages: args.messages,
      ...this.#withPrincipal(),
    });
    return { messages };
  }

  /**
   * A thread's stored messages, paged the way Mastra's stores page them. The model's context comes
   * from the input processor, not from here: this is for apps and Mastra's own tooling.
   */
  async recall(
    args: StorageListMessagesInput & { threadConfig?: MemoryConfigInternal; vectorSearchString?: string },
  ) {
    const { threadConfig: _threadConfig, vectorSearchString: _search, ...listArgs } = args;
    return listMessages(this.strata.store, this.#namespace, listArgs as StorageListMessagesInput);
  }

  async deleteMessages(messageIds: MessageDeleteInput): Promise<void> {
    await deleteMessages(this.strata.store, this.#namespace, messageIds);
  }

  // ------------------------------------------------------------------ working memory

  async getWorkingMemory({
    threadId,
    resourceId,
    memoryConfig,
  }: {
    threadId: string;
    resourceId?: string;
    memoryConfig?: MemoryConfigInternal;
  }): Promise<string | null> {
    const target = await workingMemoryTarget(this.strata, this.#namespace, { threadId, resourceId });
    const facts = await readWorkingMemoryFacts(this.strata, target, this.#options.principal);
    const template = await this.getWorkingMemoryTemplate({ ...(memoryConfig ? { memoryConfig } : {}) });
    return renderWorkingMemory(facts, {
      json: template?.format === 'json',
      ...(template?.format === 'markdown' ? { template: template.content } : {}),
    });
  }

  async getWorkingMemoryTemplate({
    memoryConfig,
  }: {
    memoryConfig?: MemoryConfigInternal;
  } = {}): Promise<WorkingMemoryTemplate | null> {
    const configured = memoryConfig?.workingMemory;
    if (configured && typeof configured === 'object' && configured.schema) {
      return { format: 'json', content: '{}' };
    }
    const template =
      configured && typeof configured === 'object' && configured.template
        ? configured.template
        : this.#options.workingMemoryTemplate;
    return template ? { format: 'markdown', content: template } : null;
  }

  /**
   * Patches the resource's facts from a working-memory text (Markdown `key: value` lines or a JSON
   * object): keys given are written, keys left out are untouched, never a whole-block replace.
   */
  async updateWorkingMemory({
    threadId,
    resourceId,
    workingMemory,
  }: {
    threadId: string;
    resourceId?: string;
    workingMemory: string;
    memoryConfig?: MemoryConfigInternal;
  }): Promise<void> {
    const target = await workingMemoryTarget(this.strata, this.#namespace, { threadId, resourceId });
    await patchWorkingMemory({ memory: this.strata, target, text: workingMemory, ...this.#withPrincipal() });
  }

  async __experimental_updateWorkingMemoryVNext(args: {
    threadId: string;
    resourceId?: string;
    workingMemory: string;
    searchString?: string;
    memoryConfig?: MemoryConfigInternal;
  }): Promise<{ success: boolean; reason: string }> {
    try {
      const target = await workingMemoryTarget(this.strata, this.#namespace, args);
      const result = await patchWorkingMemory({
        memory: this.strata,
        target,
        text: args.workingMemory,
        ...this.#withPrincipal(),
      });
      return {
        success: true,
        reason: `patched working memory: ${result.written} written, ${result.removed} removed`,
      };
    } catch (error) {
      return { success: false, reason: error instanceof Error ? error.message : String(error) };
    }
  }

  // ------------------------------------------------------------------ agent integration

  /** Strata's memory tools (`remember`, `recall`, `forget`, `correct`); only `recall` for a read-only run. */
  override listTools(config?: MemoryConfig) {
    const names: MemoryToolName[] = config?.readOnly
      ? this.#options.tools.filter((name) => name === 'recall')
      : [...this.#options.tools];
    return memoryTools({
      memory: this.strata,
      scopeOf: (context) => this.#toolScope(context),
      ...this.#withPrincipal(),
      recallBudgetTokens: this.#options.toolRecallBudgetTokens,
      names,
    });
  }

  async #toolScope(context: ToolExecutionContext): Promise<Scope> {
    const run = agentRunOf(context?.requestContext);
    const threadId = run?.threadId ?? context?.agent?.threadId;
    const resourceId = run?.resourceId ?? context?.agent?.resourceId;
    if (!threadId || !resourceId) {
      throw new StrataError({
        code: 'invalid_scope',
        message:
          "Strata memory tools need the run's thread and resource: call the agent with memory: { thread, resource }.",
      });
    }
    return this.#runScope({ threadId, resourceId, readOnly: false });
  }

  override async getInputProcessors(
    configuredProcessors: InputProcessorOrWorkflow[] = [],
  ): Promise<InputProcessor[]> {
    const configured = configuredProcessors.some((p) => 'id' in p && p.id === this.#recallProcessor.id);
    return configured ? [] : [this.#recallProcessor];
  }

  override async getOutputProcessors(
    configuredProcessors: OutputProcessorOrWorkflow[] = [],
  ): Promise<OutputProcessor[]> {
    const configured = configuredProcessors.some((p) => 'id' in p && p.id === this.#observeProcessor.id);
    return configured ? [] : [this.#observeProcessor];
  }
}

/** `new Agent({ memory: strataMemory({ memory }) })`: Strata's layered memory for a Mastra agent. */
export function strataMemory(options: StrataMemoryOptions): StrataMastraMemory {
  return new StrataMastraMemory(options);
}
