import {
  AIMessage,
  type BaseMessage,
  ChatMessage,
  HumanMessage,
  SystemMessage,
  ToolMessage,
} from '@langchain/core/messages';
import type {
  JsonValue,
  MessageRecord,
  MessageRole,
  ObserveInput,
  ToolCallRecord,
} from '@strata-memory/core';
import { idSchema, invalidInput, LIMITS } from '@strata-memory/core/store';

/**
 * LangChain messages to and from the engine's message shapes. Text parts are kept (joined); other
 * content parts (images, files, provider blocks) are not stored. Tool calls keep their id, name
 * and arguments; a tool message keeps the id of the call it answers.
 */

const GENERIC_ROLES: Record<string, MessageRole> = {
  user: 'user',
  human: 'user',
  assistant: 'assistant',
  ai: 'assistant',
  system: 'system',
  tool: 'tool',
};

/** The engine role of a LangChain message. */
export function roleOf(message: BaseMessage): MessageRole {
  const type = message.getType();
  if (type === 'human') return 'user';
  if (type === 'ai') return 'assistant';
  if (type === 'system') return 'system';
  if (type === 'tool' || type === 'function') return 'tool';
  if (ChatMessage.isInstance(message)) {
    const role = GENERIC_ROLES[message.role.toLowerCase()];
    if (role) return role;
    throw invalidInput(
      `A ChatMessage with role "${message.role}" has no memory role; use user, assistant, system or tool.`,
      { role: message.role },
    );
  }
  throw invalidInput(`A "${type}" message cannot be stored in memory.`, { type });
}

/** The message's text: its text parts, in order. */
export function messageText(message: BaseMessage): string {
  return message.text;
}

/** True for an id the engine accepts (1..256 bytes of UTF-8, valid Unicode, no control characters). */
export function isUsableId(id: unknown): id is string {
  return typeof id === 'string' && idSchema.safeParse(id).success;
}

function nameOf(message: BaseMessage): string | undefined {
  const name = message.name?.trim();
  return name && name.length <= LIMITS.maxNameChars ? name : undefined;
}

/** Tool-call arguments as stored JSON (functions, undefined and the like dropped). */
function jsonArgs(args: unknown): JsonValue {
  try {
    return JSON.parse(JSON.stringify(args ?? {})) as JsonValue;
  } catch {
    throw invalidInput('Tool call arguments must be JSON-serialisable.');
  }
}

function toolCallsOf(message: BaseMessage): ToolCallRecord[] | undefined {
  if (!AIMessage.isInstance(message) || !message.tool_calls?.length) return undefined;
  return message.tool_calls.map((call, index) => ({
    id: isUsableId(call.id) ? call.id : `${isUsableId(message.id) ? message.id : 'call'}-${index}`,
    name: call.name,
    input: jsonArgs(call.args),
  }));
}

/**
 * A LangChain message as one message to observe. `id` overrides the message's own id (which is
 * used when it is a valid id, so observing the same message twice is a no-op).
 */
export function toObserveInput(message: BaseMessage, options: { id?: string } = {}): ObserveInput {
  const role = roleOf(message);
  const id = options.id ?? (isUsableId(message.id) ? message.id : undefined);
  const name = nameOf(message);
  const toolCalls = toolCallsOf(message);
  const toolCallId =
    ToolMessage.isInstance(message) && isUsableId(message.tool_call_id) ? message.tool_call_id : undefined;
  return {
    ...(id ? { id } : {}),
    role,
    content: messageText(message),
    ...(name ? { name } : {}),
    ...(toolCalls ? { toolCalls } : {}),
    ...(toolCallId ? { toolCallId } : {}),
  };
}

function argsObject(input: JsonValue): Record<string, JsonValue> {
  return typeof input === 'object' && input !== null && !Array.isArray(input) ? input : { input };
}

/** A stored message as the LangChain message of its role, with its id, name and tool calls. */
export function fromMessageRecord(record: MessageRecord): BaseMessage {
  const common = { content: record.content, id: record.id, ...(record.name ? { name: record.name } : {}) };
  switch (record.role) {
    case 'user':
      return new HumanMessage(common);
    case 'system':
      return new SystemMessage(common);
    case 'tool':
      return new ToolMessage({ ...common, tool_call_id: record.toolCallId ?? '' });
    case 'assistant':
      return new AIMessage({
        ...common,
        ...(record.toolCalls?.length
          ? {
              tool_calls: record.toolCalls.map((call) => ({
                id: call.id,
                name: call.name,
                args: argsObject(call.input),
                type: 'tool_call' as const,
              })),
            }
          : {}),
      });
  }
}
