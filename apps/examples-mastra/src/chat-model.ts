import type { Agent } from '@mastra/core/agent';
import { scriptedChatModel } from './scripted-chat-model.ts';

/** The model an `Agent` takes. */
export type AgentModel = ConstructorParameters<typeof Agent>[0]['model'];

export interface ChosenModel {
  model: AgentModel;
  /** One line for the banner. */
  description: string;
}

/**
 * OpenAI through Mastra's model router when `OPENAI_API_KEY` is set (model `OPENAI_MODEL`, default
 * `gpt-5-mini`), unless `STRATA_OFFLINE=1`; otherwise the offline scripted model.
 */
export function chooseChatModel(env: NodeJS.ProcessEnv = process.env): ChosenModel {
  if (env.OPENAI_API_KEY && env.STRATA_OFFLINE !== '1') {
    const modelId = env.OPENAI_MODEL ?? 'gpt-5-mini';
    return { model: `openai/${modelId}`, description: `OpenAI ${modelId}` };
  }
  return {
    // Mastra 1.71 declares its own view of ai 7's LanguageModelV4; the agent runs ai 7 models as they are.
    model: scriptedChatModel() as unknown as AgentModel,
    description: 'offline scripted model (set OPENAI_API_KEY to chat with a real one)',
  };
}
