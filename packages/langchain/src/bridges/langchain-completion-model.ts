import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, BaseMessage, HumanMessage, SystemMessage } from '@langchain/core/messages';
import { type CompletionModel, PORT_SPECIFICATION_VERSION } from '@strata-memory/core';
import { modelFailure, parseArgs } from '@strata-memory/core/integration';
import { z } from 'zod/v4';

/** How a JSON-Schema request reaches the model. */
export type StructuredOutputMode =
  /** `withStructuredOutput` when the model has it (tool calling or native JSON), else `prompt`. */
  | 'auto'
  /** The schema is appended to the system prompt and the reply is returned as text. */
  | 'prompt';

export interface LangChainCompletionModelOptions {
  /** A LangChain chat model, e.g. `new ChatOpenAI({ model: 'gpt-5-mini' })`. Not one wrapped with memory. */
  model: BaseChatModel;
  /** Recorded as the extractor / summarizer identity. Default `langchain:<model type>[:<model>]`. */
  id?: string;
  /** Default `auto`. */
  structuredOutput?: StructuredOutputMode;
  /** Passed to `withStructuredOutput` as its `method` (e.g. `jsonSchema`, `functionCalling`). */
  structuredOutputMethod?: string;
}

const optionsSchema = z
  .object({
    model: z.custom<BaseChatModel>(
      (value) =>
        typeof value === 'object' && value !== null && typeof (value as BaseChatModel).invoke === 'function',
      'must be a LangChain chat model',
    ),
    id: z.string().min(1).max(256).optional(),
    structuredOutput: z.enum(['auto', 'prompt']).optional(),
    structuredOutputMethod: z.string().min(1).optional(),
  })
  .strict();

/** The function name the model is asked to call with its structured answer. */
const OUTPUT_NAME = 'memory_output';

function identity(model: BaseChatModel): string {
  const type = typeof model._llmType === 'function' ? model._llmType() : model.constructor.name;
  const fields = model as unknown as { model?: unknown; modelName?: unknown };
  const name = typeof fields.model === 'string' ? fields.model : fields.modelName;
  return typeof name === 'string' && name ? `langchain:${type}:${name}` : `langchain:${type}`;
}

/** The text of a model reply: its text parts, or the arguments of its tool call when it has no text. */
function replyText(reply: unknown): string {
  if (typeof reply === 'string') return reply;
  if (BaseMessage.isInstance(reply)) {
    const text = reply.text;
    if (text.trim() || !AIMessage.isInstance(reply) || !reply.tool_calls?.length) return text;
    return JSON.stringify(reply.tool_calls[0]!.args);
  }
  return JSON.stringify(reply);
}

function isRawAndParsed(value: unknown): value is { raw: unknown; parsed: unknown } {
  return (
    typeof value === 'object' &&
    value !== null &&
    Object.keys(value).length === 2 &&
    'raw' in value &&
    'parsed' in value &&
    BaseMessage.isInstance((value as { raw: unknown }).raw)
  );
}

/**
 * A LangChain chat model as the engine's `CompletionModel`, the one model port its LLM extractor
 * (and model summarizers) need. A JSON-Schema request goes through `withStructuredOutput` where the
 * model has it, asking for the raw reply too: parsed output is returned as JSON text, and a reply
 * that did not parse is returned as it was, for the engine to validate and record (a malformed
 * extraction is audited, the turn still stored). Without structured output the schema is added to
 * the system prompt. A call that fails is a `model_failure`.
 */
export function langChainCompletionModel(options: LangChainCompletionModelOptions): CompletionModel {
  const parsed = parseArgs(optionsSchema, options, 'langChainCompletionModel');
  const model = parsed.model;
  const id = parsed.id ?? identity(model);
  const where = `langChainCompletionModel(${id})`;
  const mode = parsed.structuredOutput ?? 'auto';

  function structured(schema: Record<string, unknown>) {
    if (mode !== 'auto' || typeof model.withStructuredOutput !== 'function') return undefined;
    try {
      return model.withStructuredOutput(schema, {
        name: OUTPUT_NAME,
        includeRaw: true,
        ...(parsed.structuredOutputMethod ? { method: parsed.structuredOutputMethod } : {}),
      } as Parameters<BaseChatModel['withStructuredOutput']>[1]);
    } catch {
      // The model cannot do structured output (no tool binding): ask in the prompt instead.
      return undefined;
    }
  }

  return {
    specificationVersion: PORT_SPECIFICATION_VERSION,
    id,
    async complete({ system, prompt, jsonSchema, signal }) {
      const config = signal ? { signal } : {};
      try {
        const runnable = jsonSchema ? structured(jsonSchema) : undefined;
        if (runnable && jsonSchema) {
          const result: unknown = await runnable.invoke(
            [new SystemMessage(system), new HumanMessage(prompt)],
            config,
          );
          if (!isRawAndParsed(result)) return JSON.stringify(result);
          return result.parsed === null || result.parsed === undefined
            ? replyText(result.raw)
            : JSON.stringify(result.parsed);
        }
        const instructions = jsonSchema
          ? `${system}\n\nAnswer with JSON only, matching this JSON Schema:\n${JSON.stringify(jsonSchema)}`
          : system;
        const reply = await model.invoke([new SystemMessage(instructions), new HumanMessage(prompt)], config);
        return replyText(reply);
      } catch (error) {
        throw modelFailure(where, error);
      }
    },
  };
}
