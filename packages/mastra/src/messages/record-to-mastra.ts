import type { MastraDBMessage } from '@mastra/core/memory';
import type { MessageRecord } from '@strata-memory/core';
import { MASTRA_CONTENT_KEY } from './mastra-to-observe.ts';

type Content = MastraDBMessage['content'];
type Part = Content['parts'][number];

function keptContent(record: MessageRecord): Content | undefined {
  const kept = record.metadata[MASTRA_CONTENT_KEY];
  if (typeof kept !== 'object' || kept === null || Array.isArray(kept)) return undefined;
  const content = kept as unknown as Content;
  return content.format === 2 && Array.isArray(content.parts) ? content : undefined;
}

/** Text and tool calls as Mastra parts (for messages written without Mastra's own content). */
function rebuiltContent(record: MessageRecord): Content {
  const parts: Part[] = [];
  if (record.content.length > 0) parts.push({ type: 'text', text: record.content });
  for (const call of record.toolCalls ?? []) {
    parts.push({
      type: 'tool-invocation',
      toolInvocation: { state: 'call', toolCallId: call.id, toolName: call.name, args: call.input },
    });
  }
  return { format: 2, parts, ...(record.role === 'user' ? { content: record.content } : {}) };
}

/**
 * A stored message as Mastra's `MastraDBMessage`: Mastra's own content when it was kept, else the
 * text and tool calls. System and tool messages (written to the thread by other means than
 * Mastra) are not conversation turns Mastra can replay: undefined.
 */
export function toMastraMessage(record: MessageRecord): MastraDBMessage | undefined {
  if (record.role !== 'user' && record.role !== 'assistant') return undefined;
  return {
    id: record.id,
    role: record.role,
    createdAt: new Date(record.createdAt),
    threadId: record.scope.threadId!,
    resourceId: record.scope.userId!,
    content: keptContent(record) ?? rebuiltContent(record),
  };
}

export function toMastraMessages(records: readonly MessageRecord[]): MastraDBMessage[] {
  const out: MastraDBMessage[] = [];
  for (const record of records) {
    const message = toMastraMessage(record);
    if (message) out.push(message);
  }
  return out;
}
