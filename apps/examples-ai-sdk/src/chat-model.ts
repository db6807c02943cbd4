import { createOpenAI } from '@ai-sdk/openai';
import type { LanguageModel } from 'ai';
import { scriptedChatModel } from './scripted-chat-model.ts';

export interface ChosenModel {
  model: Exclude<LanguageModel, string>;
  /** One line for the banner. */
  description: string;
}

/**
 * OpenAI when `OPENAI_API_KEY` is set (model `OPENAI_MODEL`, default `gpt-5-mini`), unless
 * `STRATA_OFFLINE=1`; otherwise the offline scripted model.
 */
export function chooseChatModel(env: NodeJS.ProcessEnv = process.env): ChosenModel {
  const apiKey = env.OPENAI_API_KEY;
  if (apiKey && env.STRATA_OFFLINE !== '1') {
    const modelId = env.OPENAI_MODEL ?? 'gpt-5-mini';
    return { model: createOpenAI({ apiKey })(modelId), description: `OpenAI ${modelId}` };
  }
  return {
    model: scriptedChatModel(),
    description: 'offline scripted model (set OPENAI_API_KEY to chat with a real one)',
  };
}
