/**
 * Offline models for the tests: `MockLanguageModelV4` from `ai/test`, driven by a script that sees
 * every call's prompt. Each call is recorded so a test can check what the model was shown.
 */
import type { Agent } from '@mastra/core/agent';
import { MockLanguageModelV4 } from 'ai/test';

/**
 * The model type an `Agent` takes. Mastra 1.71 declares its own view of `LanguageModelV4` whose
 * `doGenerate` result type differs from ai 7's, although the agent calls ai 7 models as they are,
 * so the mock is handed over through this type.
 */
export type AgentModel = ConstructorParameters<typeof Agent>[0]['model'];

export type ModelCall = MockLanguageModelV4['doGenerateCalls'][number];
type Prompt = ModelCall['prompt'];

/** What the script answers: text, or tool calls (the agent runs them and calls the model again). */
export type Reply = string | { toolCalls: Array<{ name: string; input: Record<string, unknown> }> };

function usage() {
  return {
    inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: 5, text: 5, reasoning: undefined },
  };
}

let toolCallCounter = 0;

function toolCallParts(reply: Exclude<Reply, string>) {
  return reply.toolCalls.map((call) => ({
    type: 'tool-call' as const,
    toolCallId: `call-${++toolCallCounter}`,
    toolName: call.name,
    input: JSON.stringify(call.input),
  }));
}

function content(reply: Reply) {
  return typeof reply === 'string' ? [{ type: 'text' as const, text: reply }] : toolCallParts(reply);
}

export interface ScriptedModel {
  model: AgentModel;
  /** Every prompt the model received, in order (generate and stream alike). */
  prompts: Prompt[];
}

/** A model that answers each call with `script(prompt, callIndex)`, for `generate` and `stream`. */
export function scriptedModel(script: (prompt: Prompt, call: number) => Reply): ScriptedModel {
  const prompts: Prompt[] = [];
  const next = (prompt: Prompt) => {
    prompts.push(prompt);
    return script(prompt, prompts.length - 1);
  };
  const model = new MockLanguageModelV4({
    provider: 'test',
    modelId: 'scripted',
    async doGenerate(call) {
      const reply = next(call.prompt);
      return {
        content: content(reply),
        finishReason:
          typeof reply === 'string'
            ? { unified: 'stop', raw: 'stop' }
            : { unified: 'tool-calls', raw: 'tool_calls' },
        usage: usage(),
        warnings: [],
      };
    },
    async doStream(call) {
      const reply = next(call.prompt);
      return {
        stream: new ReadableStream({
          start(controller) {
            controller.enqueue({ type: 'stream-start', warnings: [] });
            if (typeof reply === 'string') {
              controller.enqueue({ type: 'text-start', id: 't' });
              for (const delta of reply.split(/(?<= )/))
                controller.enqueue({ type: 'text-delta', id: 't', delta });
              controller.enqueue({ type: 'text-end', id: 't' });
            } else {
              for (const part of toolCallParts(reply)) controller.enqueue(part);
            }
            controller.enqueue({
              type: 'finish',
              finishReason:
                typeof reply === 'string'
                  ? { unified: 'stop', raw: 'stop' }
                  : { unified: 'tool-calls', raw: 'tool_calls' },
              usage: usage(),
            });
            controller.close();
          },
        }),
      };
    },
  });
  return { model: model as unknown as AgentModel, prompts };
}

/** The text of every system message of a prompt, joined. */
export function systemText(prompt: Prompt): string {
  return prompt
    .filter((m) => m.role === 'system')
    .map((m) => m.content)
    .join('\n');
}

/** The conversation of a prompt (user and assistant text), one `role: text` line per message. */
export function conversation(prompt: Prompt): string[] {
  const lines: string[] = [];
  for (const message of prompt) {
    if (message.role !== 'user' && message.role !== 'assistant') continue;
    const text = message.content
      .flatMap((part) => (part.type === 'text' ? [part.text] : []))
      .join('')
      .trim();
    if (text) lines.push(`${message.role}: ${text}`);
  }
  return lines;
}

/** The latest user text of a prompt. */
export function lastUserText(prompt: Prompt): string {
  const users = conversation(prompt).filter((line) => line.startsWith('user: '));
  return users[users.length - 1]?.slice('user: '.length) ?? '';
}
