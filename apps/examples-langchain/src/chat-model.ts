import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { ChatOpenAI } from '@langchain/openai';
import { ScriptedAgentModel } from './scripted-agent-model.ts';

export interface ChosenModel {
  model: BaseChatModel;
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
    const model = env.OPENAI_MODEL ?? 'gpt-5-mini';
    return { model: new ChatOpenAI({ apiKey, model }), description: `OpenAI ${model}` };
  }
  return {
    model: new ScriptedAgentModel(),
    description: 'offline scripted model (set OPENAI_API_KEY to chat with a real one)',
  };
}
