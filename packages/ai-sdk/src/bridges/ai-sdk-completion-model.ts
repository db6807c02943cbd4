import { type CompletionModel, PORT_SPECIFICATION_VERSION } from '@strata-memory/core';
import { modelFailure, parseArgs } from '@strata-memory/core/integration';
import { generateText, jsonSchema, type LanguageModel, NoObjectGeneratedError, Output } from 'ai';
import { z } from 'zod/v4';

export interface AiSdkCompletionModelOptions {
  /** An AI SDK language model, e.g. `openai('gpt-5-mini')`. Not one wrapped with `strataMiddleware`. */
  model: LanguageModel;
  /** Recorded as the extractor / summarizer identity. Default `provider:modelId`. */
  id?: string;
  /** Retries per call (the AI SDK's own retry). Default 2. */
  maxRetries?: number;
  /** Sampling temperature. Default: the model's. */
  temperature?: number;
  /** Output token limit per call. */
  maxOutputTokens?: number;
}

const optionsSchema = z.object({
  model: z.custom<LanguageModel>(
    (value) =>
      typeof value === 'string' ||
      (typeof value === 'object' &&
        value !== null &&
        typeof (value as { doGenerate?: unknown }).doGenerate === 'function'),
    'must be an AI SDK LanguageModel',
  ),
  id: z.string().min(1).max(256).optional(),
  maxRetries: z.number().int().min(0).max(10).optional(),
  temperature: z.number().min(0).max(2).optional(),
  maxOutputTokens: z.number().int().positive().optional(),
});

function modelIdentity(model: LanguageModel): string {
  return typeof model === 'string' ? model : `${model.provider}:${model.modelId}`;
}

/**
 * An AI SDK `LanguageModel` as the engine's `CompletionModel`, the one model port its LLM
 * extractor and summarizer need. With `jsonSchema` the call asks the provider for JSON output
 * matching it; the text comes back unvalidated, because validating it against the engine's schema
 * (and deciding what malformed output means) is the engine's job. A call that fails is a
 * `model_failure`.
 */
export function aiSdkCompletionModel(options: AiSdkCompletionModelOptions): CompletionModel {
  const parsed = parseArgs(optionsSchema, options, 'aiSdkCompletionModel');
  const id = parsed.id ?? modelIdentity(parsed.model);
  const where = `aiSdkCompletionModel(${id})`;
  return {
    specificationVersion: PORT_SPECIFICATION_VERSION,
    id,
    async complete({ system, prompt, jsonSchema: schema, signal }) {
      const settings = {
        model: parsed.model,
        system,
        prompt,
        ...(signal ? { abortSignal: signal } : {}),
        ...(parsed.maxRetries !== undefined ? { maxRetries: parsed.maxRetries } : {}),
        ...(parsed.temperature !== undefined ? { temperature: parsed.temperature } : {}),
        ...(parsed.maxOutputTokens !== undefined ? { maxOutputTokens: parsed.maxOutputTokens } : {}),
      };
      try {
        if (!schema) return (await generateText(settings)).text;
        // No `validate` on the schema: the AI SDK only parses the JSON; the engine validates it.
        const result = await generateText({
          ...settings,
          output: Output.object({ schema: jsonSchema(schema) }),
        });
        return JSON.stringify(result.output);
      } catch (error) {
        // Text that is not JSON goes back to the engine, which records it as malformed output.
        if (NoObjectGeneratedError.isInstance(error) && typeof error.text === 'string') return error.text;
        throw modelFailure(where, error);
      }
    },
  };
}
