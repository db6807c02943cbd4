/**
 * The AI SDK major under test. `vitest.config.ts` runs the suite against `ai` 7
 * (LanguageModelV4); `vitest.ai6.config.ts` runs the same files with `ai` and `ai/test` aliased
 * to the `ai-v6` dev dependency (LanguageModelV3), so the adapter and the tests both load ai 6.
 * TypeScript always sees ai 7's types: the shapes used here are the same in both majors.
 */
import type { Scope } from '@strata-memory/core';
import * as aiTest from 'ai/test';
import { memoryToolsContext } from '../src/index.ts';

type MockLanguageModel = aiTest.MockLanguageModelV4;
type MockEmbeddingModel = aiTest.MockEmbeddingModelV4;
type MockOf<T> = new (settings?: ConstructorParameters<typeof aiTest.MockLanguageModelV4>[0]) => T;
type EmbeddingMockOf<T> = new (settings?: ConstructorParameters<typeof aiTest.MockEmbeddingModelV4>[0]) => T;

const exported = aiTest as unknown as Record<string, unknown>;
const hasV4 = typeof exported.MockLanguageModelV4 === 'function';

/** 7 or 6. */
export const AI_MAJOR: 6 | 7 = hasV4 ? 7 : 6;

/** `MockLanguageModelV4` on ai 7, `MockLanguageModelV3` on ai 6. */
export const MockLanguageModel = (
  hasV4 ? exported.MockLanguageModelV4 : exported.MockLanguageModelV3
) as MockOf<MockLanguageModel>;

/** `MockEmbeddingModelV4` on ai 7, `MockEmbeddingModelV3` on ai 6. */
export const MockEmbeddingModel = (
  hasV4 ? exported.MockEmbeddingModelV4 : exported.MockEmbeddingModelV3
) as EmbeddingMockOf<MockEmbeddingModel>;

/** The `generateText` / agent settings that hand the memory tools their scope through the tool context. */
export function toolScopeSettings(scope: Scope): Record<string, unknown> {
  return AI_MAJOR === 7
    ? { toolsContext: memoryToolsContext(scope) }
    : { experimental_context: { strata: scope } };
}

type CallOptions = MockLanguageModel['doGenerateCalls'][number];
type GenerateResult = Awaited<ReturnType<MockLanguageModel['doGenerate']>>;
type StreamPart =
  Awaited<ReturnType<MockLanguageModel['doStream']>>['stream'] extends ReadableStream<infer P> ? P : never;

/** One scripted model answer: text, tool calls, or both. */
export interface ScriptedStep {
  text?: string;
  toolCalls?: Array<{ id: string; name: string; input: Record<string, unknown> }>;
}

export type Script = ScriptedStep[] | ((call: CallOptions, index: number) => ScriptedStep);

export interface ScriptedModel {
  model: MockLanguageModel;
  /** Every call the model received (generate and stream), in order, as the middleware left it. */
  calls: CallOptions[];
}

const usage: GenerateResult['usage'] = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

function stepAt(script: Script, call: CallOptions, index: number): ScriptedStep {
  if (typeof script === 'function') return script(call, index);
  const step = script[Math.min(index, script.length - 1)];
  if (!step) throw new Error('scripted model: empty script');
  return step;
}

function finishReason(step: ScriptedStep): GenerateResult['finishReason'] {
  return step.toolCalls?.length
    ? { unified: 'tool-calls', raw: 'tool_calls' }
    : { unified: 'stop', raw: 'stop' };
}

function generateResult(step: ScriptedStep): GenerateResult {
  const content: GenerateResult['content'] = [];
  if (step.text !== undefined) content.push({ type: 'text', text: step.text });
  for (const call of step.toolCalls ?? []) {
    content.push({
      type: 'tool-call',
      toolCallId: call.id,
      toolName: call.name,
      input: JSON.stringify(call.input),
    });
  }
  return { content, finishReason: finishReason(step), usage, warnings: [] };
}

function streamParts(step: ScriptedStep): StreamPart[] {
  const parts: StreamPart[] = [{ type: 'stream-start', warnings: [] }];
  if (step.text !== undefined) {
    const middle = Math.ceil(step.text.length / 2);
    parts.push(
      { type: 'text-start', id: 't0' },
      { type: 'text-delta', id: 't0', delta: step.text.slice(0, middle) },
      { type: 'text-delta', id: 't0', delta: step.text.slice(middle) },
      { type: 'text-end', id: 't0' },
    );
  }
  for (const call of step.toolCalls ?? []) {
    parts.push({
      type: 'tool-call',
      toolCallId: call.id,
      toolName: call.name,
      input: JSON.stringify(call.input),
    });
  }
  parts.push({ type: 'finish', finishReason: finishReason(step), usage });
  return parts;
}

/** A mock language model that answers from a script, for both `generateText` and `streamText`. */
export function scriptedModel(script: Script): ScriptedModel {
  const calls: CallOptions[] = [];
  const model = new MockLanguageModel({
    async doGenerate(options) {
      calls.push(options);
      return generateResult(stepAt(script, options, calls.length - 1));
    },
    async doStream(options) {
      calls.push(options);
      const parts = streamParts(stepAt(script, options, calls.length - 1));
      return {
        stream: new ReadableStream<StreamPart>({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      };
    },
  });
  return { model, calls };
}

/** The system messages of a call, in order. */
export function systemMessages(call: CallOptions | undefined): string[] {
  if (!call) throw new Error('no such model call');
  return call.prompt.flatMap((m) => (m.role === 'system' ? [m.content] : []));
}
