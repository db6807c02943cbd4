import { Agent } from '@mastra/core/agent';
import { type CompletionModel, PORT_SPECIFICATION_VERSION } from '@strata-memory/core';
import { modelFailure, parseArgs } from '@strata-memory/core/integration';
import { z } from 'zod/v4';

/** A model as a Mastra `Agent` takes it: `'openai/gpt-5-mini'`, an AI SDK language model, a config object. */
export type MastraModel = ConstructorParameters<typeof Agent>[0]['model'];

export interface MastraCompletionModelOptions {
  /** The model, as you would give it to `new Agent({ model })`. Not an agent with Strata memory. */
  model: MastraModel;
  /** Recorded as the extractor / summarizer identity. Default `mastra:<model id>`. */
  id?: string;
  /** Sampling temperature. Default: the model's. */
  temperature?: number;
  /** Output token limit per call. */
  maxOutputTokens?: number;
}

const optionsSchema = z
  .object({
    model: z.custom<MastraModel>(
      (value) =>
        typeof value === 'string' ||
        typeof value === 'function' ||
        Array.isArray(value) ||
        (typeof value === 'object' && value !== null),
      'must be a model a Mastra Agent takes',
    ),
    id: z.string().min(1).max(256).optional(),
    temperature: z.number().min(0).max(2).optional(),
    maxOutputTokens: z.number().int().positive().optional(),
  })
  .strict();

function modelIdentity(model: MastraModel): string {
  if (typeof model === 'string') return `mastra:${model}`;
  const fields = model as { provider?: unknown; modelId?: unknown; id?: unknown };
  if (typeof fields.provider === 'string' && typeof fields.modelId === 'string') {
    return `mastra:${fields.provider}:${fields.modelId}`;
  }
  return typeof fields.id === 'string' ? `mastra:${fields.id}` : 'mastra:model';
}

/**
 * A Mastra model as the engine's `CompletionModel`, the one model port its LLM extractor and
 * summarizer need. Each call runs one step of a plain Mastra `Agent` (no memory, no tools) with the
 * engine's system text as its instructions, so whatever Mastra resolves a model from (a
 * `provider/model` string through its model router, an AI SDK model, a config object) works. With a
 * JSON Schema the schema goes into the instructions and the reply text is returned as it is: the
 * engine parses and validates it, and records malformed output (the turn is still stored). A call
 * that fails is a `model_failure`.
 */
export function mastraCompletionModel(options: MastraCompletionModelOptions): CompletionModel {
  const parsed = parseArgs(optionsSchema, options, 'mastraCompletionModel');
  const id = parsed.id ?? modelIdentity(parsed.model);
  const where = `mastraCompletionModel(${id})`;
  const agent = new Agent({
    id: 'strata-memory-model',
    name: 'Strata memory model',
    instructions: 'You write memory for another agent.',
    model: parsed.model,
  });
  const modelSettings = {
    ...(parsed.temperature !== undefined ? { temperature: parsed.temperature } : {}),
    ...(parsed.maxOutputTokens !== undefined ? { maxOutputTokens: parsed.maxOutputTokens } : {}),
  };
  return {
    specificationVersion: PORT_SPECIFICATION_VERSION,
    id,
    async complete({ system, prompt, jsonSchema, signal }) {
      const instructions = jsonSchema
        ? `${system}\n\nAnswer with JSON only, matching this JSON Schema:\n${JSON.stringify(jsonSchema)}`
        : system;
      try {
        const result = await agent.generate(prompt, {
          instructions,
          maxSteps: 1,
          ...(Object.keys(modelSettings).length > 0 ? { modelSettings } : {}),
          ...(signal ? { abortSignal: signal } : {}),
        });
        const failed = (result as { error?: unknown }).error;
        if (failed) throw failed;
        return result.text;
      } catch (error) {
        throw modelFailure(where, error);
      }
    },
  };
}
