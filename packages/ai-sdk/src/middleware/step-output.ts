import type { JsonValue, ObserveInput, ToolCallRecord } from '@strata-memory/core';
import type { GeneratedContent, StreamPart } from './model-call.ts';

/** A tool call's JSON-encoded input as a value; input that is not valid JSON is kept as its raw text. */
function toolInput(input: string): JsonValue {
  try {
    return JSON.parse(input) as JsonValue;
  } catch {
    return input;
  }
}

/** The assistant message one model call produced, as the engine observes it; undefined when empty. */
function assistantMessage(text: string, toolCalls: ToolCallRecord[]): ObserveInput | undefined {
  if (text.trim().length === 0 && toolCalls.length === 0) return undefined;
  return { role: 'assistant', content: text, ...(toolCalls.length > 0 ? { toolCalls } : {}) };
}

/** The answer of a `doGenerate` call: its text parts and tool calls. */
export function assistantFromContent(content: readonly GeneratedContent[]): ObserveInput | undefined {
  let text = '';
  const toolCalls: ToolCallRecord[] = [];
  for (const part of content) {
    if (part.type === 'text') text += part.text;
    else if (part.type === 'tool-call') {
      toolCalls.push({ id: part.toolCallId, name: part.toolName, input: toolInput(part.input) });
    }
  }
  return assistantMessage(text, toolCalls);
}

/** Collects a `doStream` call's text deltas and tool calls as they pass by. */
export class StreamedAnswer {
  #text = '';
  readonly #toolCalls: ToolCallRecord[] = [];

  add(part: StreamPart): void {
    if (part.type === 'text-delta') this.#text += part.delta;
    else if (part.type === 'tool-call') {
      this.#toolCalls.push({ id: part.toolCallId, name: part.toolName, input: toolInput(part.input) });
    }
  }

  message(): ObserveInput | undefined {
    return assistantMessage(this.#text, this.#toolCalls);
  }
}
