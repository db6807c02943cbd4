import { readFile } from 'node:fs/promises';
import { type CompletionModel, PORT_SPECIFICATION_VERSION, StrataError } from '@strata-memory/core';
import { MockLanguageModelV4 } from 'ai/test';
import { z } from 'zod/v4';

/**
 * A scripted `CompletionModel` that answers the extraction prompt with a recorded reply: the reply
 * recorded for the text of the (single) new message in the prompt. It stands in for a real model so
 * the model-extractor path (prompt, JSON parsing, schema validation, audit of malformed output) is
 * scored on the corpus without a network or a key.
 */

export const RECORDED_MODEL_FILE = new URL('../../data/extraction/recorded-model.json', import.meta.url);

const recordingSchema = z
  .object({
    model: z.string().min(1),
    /** Raw replies (JSON text, or deliberately malformed text) by the message they answer. */
    outputs: z.record(z.string(), z.string()),
  })
  .strict();
export type Recording = z.output<typeof recordingSchema>;

export async function loadRecording(path: string | URL): Promise<Recording> {
  const parsed = recordingSchema.safeParse(JSON.parse(await readFile(path, 'utf8')));
  if (!parsed.success) {
    throw new StrataError({
      code: 'invalid_input',
      message: `${String(path)} is not a recording of model outputs: ${parsed.error.issues
        .slice(0, 5)
        .map((i) => `${i.path.join('.') || '(root)'} ${i.message}`)
        .join('; ')}`,
    });
  }
  return parsed.data;
}

const NEW_MESSAGE = /NEW MESSAGES:\n\[1\] [a-z]+(?: \([^)]*\))?: ([\s\S]*)$/;

export interface RecordedModel extends CompletionModel {
  /** `complete` calls so far. */
  readonly calls: number;
}

function replyFor(recording: Recording, prompt: string): string {
  const text = NEW_MESSAGE.exec(prompt)?.[1]?.trim();
  const reply = text === undefined ? undefined : recording.outputs[text];
  if (reply === undefined) throw new Error(`no recorded reply for ${JSON.stringify(text ?? prompt)}`);
  return reply;
}

export function recordedModel(recording: Recording): RecordedModel {
  let calls = 0;
  return {
    specificationVersion: PORT_SPECIFICATION_VERSION,
    id: recording.model,
    get calls() {
      return calls;
    },
    async complete({ prompt }) {
      calls++;
      return replyFor(recording, prompt);
    },
  };
}

/**
 * The same replies from an AI SDK language model (`MockLanguageModelV4` from `ai/test`), for the
 * path a user of `@strata-memory/ai-sdk` takes: the reply text goes through `generateText` with
 * structured output before the engine sees it.
 */
export function recordedAiSdkModel(recording: Recording): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    provider: 'recorded',
    modelId: recording.model,
    async doGenerate({ prompt }) {
      const user = prompt
        .filter((m) => m.role === 'user')
        .flatMap((m) => m.content)
        .map((part) => (part.type === 'text' ? part.text : ''))
        .join('\n');
      return {
        content: [{ type: 'text', text: replyFor(recording, user) }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: {
          inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: undefined, text: undefined, reasoning: undefined },
        },
        warnings: [],
      };
    },
  });
}
