import type { LanguageModelMiddleware } from 'ai';

/**
 * The language model call shapes the middleware reads, taken from the installed `ai` package's
 * own middleware type (LanguageModelV4 in ai 7, V3 in ai 6: the parts used here are the same).
 */
type TransformParams = NonNullable<LanguageModelMiddleware['transformParams']>;
type WrapGenerate = NonNullable<LanguageModelMiddleware['wrapGenerate']>;
type WrapStream = NonNullable<LanguageModelMiddleware['wrapStream']>;

export type CallOptions = Parameters<TransformParams>[0]['params'];
export type Prompt = CallOptions['prompt'];
export type PromptMessage = Prompt[number];
export type GenerateResult = Awaited<ReturnType<WrapGenerate>>;
export type GeneratedContent = GenerateResult['content'][number];
export type StreamResult = Awaited<ReturnType<WrapStream>>;
export type StreamPart = StreamResult['stream'] extends ReadableStream<infer PART> ? PART : never;
