import type { MastraDBMessage } from '@mastra/core/memory';
import { LIMITS, type Metadata, type ObserveInput, type ToolCallRecord } from '@strata-memory/core';
import { toJsonValue } from './json-value.ts';

/** Where a Mastra message's own content is kept in a Strata message's metadata, when text alone cannot rebuild it. */
export const MASTRA_CONTENT_KEY = 'mastraContent';

type Part = MastraDBMessage['content']['parts'][number];

/** Parts a text message is rebuilt from without loss. */
const PLAIN_PARTS = new Set(['text', 'step-start']);

/** The text of a message: its text parts (steps separated by a line break), else `content.content`. */
export function messageText(message: MastraDBMessage): string {
  let text = '';
  let stepBreak = false;
  for (const part of message.content.parts ?? []) {
    if (part.type === 'step-start') {
      stepBreak = text.length > 0;
    } else if (part.type === 'text') {
      if (stepBreak && part.text.length > 0) text += '\n';
      stepBreak = false;
      text += part.text;
    }
  }
  if (text.length === 0 && typeof message.content.content === 'string') return message.content.content;
  return text;
}

function toolCalls(parts: readonly Part[]): ToolCallRecord[] {
  const calls: ToolCallRecord[] = [];
  for (const part of parts) {
    if (part.type !== 'tool-invocation') continue;
    const invocation = part.toolInvocation;
    if (invocation.state === 'partial-call') continue;
    calls.push({
      id: invocation.toolCallId,
      name: invocation.toolName,
      input: toJsonValue(invocation.args) ?? null,
    });
  }
  // The store keeps at most 64 per message; the full list stays in the kept content.
  return calls.slice(0, 64);
}

/** True when the text (and tool calls) rebuild the message exactly as Mastra shows it. */
function isPlain(message: MastraDBMessage): boolean {
  const { content } = message;
  if (content.metadata && Object.keys(content.metadata).length > 0) return false;
  if (content.experimental_attachments && content.experimental_attachments.length > 0) return false;
  const texts = (content.parts ?? []).filter((p) => p.type === 'text');
  return texts.length <= 1 && (content.parts ?? []).every((p) => PLAIN_PARTS.has(p.type));
}

/**
 * Mastra's content as metadata, so history can be given back to Mastra as it was (tool results,
 * reasoning, files). Left out when it would not fit the store's metadata limit: the text and tool
 * calls are still kept.
 */
function keptContent(message: MastraDBMessage): Metadata {
  if (isPlain(message)) return {};
  const content = toJsonValue(message.content);
  if (content === undefined) return {};
  const bytes = Buffer.byteLength(JSON.stringify(content), 'utf8');
  // Half the limit: the engine copies message metadata onto the message's episode too.
  if (bytes > LIMITS.maxJsonBytes / 2) return {};
  return { [MASTRA_CONTENT_KEY]: content };
}

/**
 * A Mastra message as the engine observes it: same id (so observing it twice is a no-op), role,
 * text, tool calls and time. System messages are instructions, not conversation, and signals are
 * delivery-time notices: neither is observed (undefined).
 */
export function toObserveInput(message: MastraDBMessage): ObserveInput | undefined {
  if (message.role !== 'user' && message.role !== 'assistant') return undefined;
  const calls = toolCalls(message.content.parts ?? []);
  const metadata = keptContent(message);
  return {
    id: message.id,
    role: message.role,
    content: messageText(message),
    at: message.createdAt instanceof Date ? message.createdAt : new Date(message.createdAt),
    ...(calls.length > 0 ? { toolCalls: calls } : {}),
    ...(Object.keys(metadata).length > 0 ? { metadata } : {}),
  };
}
