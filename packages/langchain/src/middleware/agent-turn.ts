import { createHash } from 'node:crypto';
import { AIMessage, type BaseMessage, HumanMessage } from '@langchain/core/messages';
import type { ObserveInput } from '@strata-memory/core';
import { isUsableId, messageText, toObserveInput } from '../messages/message-conversion.ts';

/** Index of the latest human message, or -1. */
function lastHumanIndex(messages: readonly BaseMessage[]): number {
  for (let i = messages.length - 1; i >= 0; i--) if (HumanMessage.isInstance(messages[i])) return i;
  return -1;
}

/** The latest human message's text: the recall query. Undefined when there is none (or it has no text). */
export function latestHumanText(messages: readonly BaseMessage[]): string | undefined {
  const index = lastHumanIndex(messages);
  if (index < 0) return undefined;
  const text = messageText(messages[index]!).trim();
  return text || undefined;
}

/**
 * The id a message is observed under: its LangChain id with a digest of what it says. Observing the
 * same message again is then a no-op, while a message that reuses an id with new content (LangGraph
 * replaces messages by id) is observed as the new message it is.
 */
function observedId(message: BaseMessage, input: ObserveInput): string | undefined {
  if (!isUsableId(message.id)) return undefined;
  const digest = createHash('sha256')
    .update(JSON.stringify([input.role, input.content, input.toolCalls ?? []]))
    .digest('hex')
    .slice(0, 16);
  const id = `${message.id}#${digest}`;
  return isUsableId(id) ? id : `lc#${createHash('sha256').update(id).digest('hex').slice(0, 40)}`;
}

/**
 * What one agent turn adds to memory: the latest human message and every AI message after it (its
 * text and tool calls). Tool results and system messages are not observed. Empty when the state
 * holds no human message. An AI message's `name` is dropped: the agent graph stamps its own name
 * (`model` by default) on every reply, so keeping it would label assistant turns differently from
 * the other adapters; they are recorded as plain `assistant` turns.
 */
export function turnToObserve(messages: readonly BaseMessage[]): ObserveInput[] {
  const start = lastHumanIndex(messages);
  if (start < 0) return [];
  const inputs: ObserveInput[] = [];
  for (const message of messages.slice(start)) {
    if (!HumanMessage.isInstance(message) && !AIMessage.isInstance(message)) continue;
    const { name, ...rest } = toObserveInput(message);
    const input: ObserveInput = name && HumanMessage.isInstance(message) ? { ...rest, name } : rest;
    if (!input.content.trim() && !input.toolCalls?.length) continue;
    const id = observedId(message, input);
    inputs.push(id ? { ...input, id } : input);
  }
  return inputs;
}
