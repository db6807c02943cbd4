import {
  BaseMemory,
  type InputValues,
  type MemoryVariables,
  type OutputValues,
} from '@langchain/core/memory';
import { BaseMessage, SystemMessage } from '@langchain/core/messages';
import {
  invalidInput,
  type Layer,
  type Memory,
  type ObserveInput,
  type Principal,
  parseScope,
  type Scope,
  StrataError,
} from '@strata-memory/core';
import {
  layerSchema,
  memoryInstanceSchema,
  parseArgs,
  principalSchema,
} from '@strata-memory/core/integration';
import { z } from 'zod/v4';
import { toObserveInput } from '../messages/message-conversion.ts';

export interface StrataMemoryOptions {
  /** The engine (`createMemory(...)`). */
  memory: Memory;
  /** The conversation: a scope with `threadId`, e.g. `{ userId, threadId }`. */
  scope: Scope;
  /** The prompt variable the memory fills. Default `history` (as `BufferMemory`). */
  memoryKey?: string;
  /** Which input is the user's message. Default: the only input that is not a memory key. */
  inputKey?: string;
  /** Which output is the answer. Default: the only output. */
  outputKey?: string;
  /** `true`: the memory block as one `SystemMessage` (for a `MessagesPlaceholder`); `false`: as text. */
  returnMessages?: boolean;
  /** Token budget of the memory block. Default: the engine's `policy.defaultBudgetTokens`. */
  maxTokenLimit?: number;
  /** Layers to recall (default all). */
  layers?: Layer[];
  /** Who is speaking: recall sees only items at or below its access level; writes record it. */
  principal?: Principal;
}

const keySchema = z.string().min(1).max(256);

const optionsSchema = z
  .object({
    memory: memoryInstanceSchema,
    scope: z.unknown(),
    memoryKey: keySchema.optional(),
    inputKey: keySchema.optional(),
    outputKey: keySchema.optional(),
    returnMessages: z.boolean().optional(),
    maxTokenLimit: z.number().int().min(16).max(1_000_000).optional(),
    layers: z.array(layerSchema).min(1).optional(),
    principal: principalSchema.optional(),
  })
  .strict();

const WHERE = 'StrataMemory';

/**
 * A LangChain `BaseMemory` backed by Strata, for chains built on `@langchain/classic`: a one-line
 * swap for `BufferMemory`, `ConversationSummaryBufferMemory` or `VectorStoreRetrieverMemory`.
 *
 * `loadMemoryVariables` recalls with the user's input as the query and fills `memoryKey` with the
 * engine's memory block (the conversation so far within the budget, facts, relevant episodes
 * from earlier sessions, graph paths). `saveContext` observes the input and the answer as one
 * turn. `clear` deletes the conversation's messages; long-term memory stays.
 */
export class StrataMemory extends BaseMemory {
  readonly scope: Scope;
  readonly memoryKey: string;
  readonly inputKey: string | undefined;
  readonly outputKey: string | undefined;
  readonly returnMessages: boolean;
  readonly #memory: Memory;
  readonly #budget: number | undefined;
  readonly #layers: Layer[] | undefined;
  readonly #principal: Principal | undefined;

  constructor(options: StrataMemoryOptions) {
    super();
    const parsed = parseArgs(optionsSchema, options, WHERE);
    const scope = parseScope(parsed.scope, `${WHERE}: scope`);
    if (scope.threadId === undefined) {
      throw new StrataError({
        code: 'invalid_scope',
        message: `${WHERE}: the scope needs a threadId (one memory per conversation), e.g. { userId, threadId }.`,
      });
    }
    this.scope = scope;
    this.memoryKey = parsed.memoryKey ?? 'history';
    this.inputKey = parsed.inputKey;
    this.outputKey = parsed.outputKey;
    this.returnMessages = parsed.returnMessages ?? false;
    this.#memory = parsed.memory;
    this.#budget = parsed.maxTokenLimit;
    this.#layers = parsed.layers;
    this.#principal = parsed.principal;
  }

  get memoryKeys(): string[] {
    return [this.memoryKey];
  }

  async loadMemoryVariables(values: InputValues): Promise<MemoryVariables> {
    const input = this.#pick(values, this.inputKey, 'input', false);
    const query = input === undefined ? undefined : textOf(input);
    const context = await this.#memory.recall(this.scope, {
      ...(query?.trim() ? { query } : {}),
      ...(this.#budget ? { budget: { tokens: this.#budget } } : {}),
      ...(this.#layers ? { layers: this.#layers } : {}),
      ...(this.#principal ? { principal: this.#principal } : {}),
    });
    const rendered = context.render();
    if (!this.returnMessages) return { [this.memoryKey]: rendered };
    return { [this.memoryKey]: rendered ? [new SystemMessage(rendered)] : [] };
  }

  async saveContext(inputValues: InputValues, outputValues: OutputValues): Promise<void> {
    const input = this.#pick(inputValues, this.inputKey, 'input', true);
    const output = this.#pick(outputValues, this.outputKey, 'output', true);
    const turn: ObserveInput[] = [asMessage(input, 'user'), asMessage(output, 'assistant')];
    await this.#memory.observe(this.scope, turn, this.#principal ? { principal: this.#principal } : {});
  }

  /** Deletes the conversation's messages (working buffer and rolling summary); long-term memory stays. */
  async clear(): Promise<void> {
    await this.#memory.store.threads.delete({ scope: this.scope });
  }

  /** The value of `key`, or of the only key that is not a memory key; `required` throws when there is none. */
  #pick(values: Record<string, unknown>, key: string | undefined, what: string, required: boolean): unknown {
    if (key !== undefined) {
      if (!(key in values) && required) {
        throw invalidInput(`${WHERE}: the ${what} values have no "${key}" (${what}Key).`, { key });
      }
      return values[key];
    }
    const keys = Object.keys(values).filter((k) => k !== this.memoryKey && k !== 'stop');
    if (keys.length === 1) return values[keys[0]!];
    if (!required) return undefined;
    throw invalidInput(
      `${WHERE}: the ${what} values have ${keys.length} keys (${keys.join(', ')}); set ${what}Key to say which one is the ${what === 'input' ? "user's message" : 'answer'}.`,
      { keys },
    );
  }
}

function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (BaseMessage.isInstance(value)) return value.text;
  return undefined;
}

function asMessage(value: unknown, role: 'user' | 'assistant'): ObserveInput {
  if (typeof value === 'string') return { role, content: value };
  if (BaseMessage.isInstance(value)) return { ...toObserveInput(value), role };
  throw invalidInput(`${WHERE}: the ${role === 'user' ? 'input' : 'output'} must be a string or a message.`, {
    type: typeof value,
  });
}
