import type { MastraDBMessage } from '@mastra/core/memory';
import { LIMITS, type MessageRecord } from '@strata-memory/core';
import { describe, expect, it } from 'vitest';
import { MASTRA_CONTENT_KEY, messageText, toObserveInput } from './mastra-to-observe.ts';
import { toMastraMessage } from './record-to-mastra.ts';

const at = new Date('2026-03-01T10:00:00Z');

function stored(input: NonNullable<ReturnType<typeof toObserveInput>>, seq = 1): MessageRecord {
  return {
    id: input.id!,
    scope: { userId: 'ada', threadId: 't1' },
    seq,
    role: input.role,
    content: input.content,
    ...(input.toolCalls ? { toolCalls: input.toolCalls } : {}),
    createdAt: new Date(input.at as Date).getTime(),
    metadata: input.metadata ?? {},
  };
}

const toolTurn: MastraDBMessage = {
  id: 'a1',
  role: 'assistant',
  createdAt: at,
  threadId: 't1',
  resourceId: 'ada',
  content: {
    format: 2,
    parts: [
      { type: 'step-start' },
      {
        type: 'tool-invocation',
        toolInvocation: {
          state: 'result',
          toolCallId: 'call-1',
          toolName: 'weather',
          args: { city: 'Lisbon' },
          result: { celsius: 21 },
        },
      },
      { type: 'step-start' },
      { type: 'text', text: 'It is 21 °C in Lisbon.' },
    ],
  },
};

describe('Mastra messages ↔ Strata messages', () => {
  it('a plain text message keeps only its text, and comes back the same', () => {
    const user: MastraDBMessage = {
      id: 'u1',
      role: 'user',
      createdAt: at,
      threadId: 't1',
      resourceId: 'ada',
      content: { format: 2, parts: [{ type: 'text', text: 'Hello' }], content: 'Hello' },
    };
    const input = toObserveInput(user)!;
    expect(input).toEqual({ id: 'u1', role: 'user', content: 'Hello', at });
    expect(toMastraMessage(stored(input))).toEqual(user);
  });

  it('a tool turn keeps its tool calls for the engine and its full content for Mastra', () => {
    const input = toObserveInput(toolTurn)!;
    expect(input.content).toBe('It is 21 °C in Lisbon.');
    expect(input.toolCalls).toEqual([{ id: 'call-1', name: 'weather', input: { city: 'Lisbon' } }]);
    expect(input.metadata?.[MASTRA_CONTENT_KEY]).toBeDefined();
    const back = toMastraMessage(stored(input))!;
    expect(back.content).toEqual(toolTurn.content);
    expect(back).toMatchObject({ id: 'a1', role: 'assistant', threadId: 't1', resourceId: 'ada' });
  });

  it('joins text of separate steps with a line break', () => {
    const twoSteps: MastraDBMessage = {
      ...toolTurn,
      content: {
        format: 2,
        parts: [
          { type: 'text', text: 'Let me check.' },
          { type: 'step-start' },
          { type: 'text', text: 'It is sunny.' },
        ],
      },
    };
    expect(messageText(twoSteps)).toBe('Let me check.\nIt is sunny.');
  });

  it('drops content too large to keep, but still keeps text and tool calls', () => {
    const huge: MastraDBMessage = {
      ...toolTurn,
      content: {
        format: 2,
        parts: [
          {
            type: 'tool-invocation',
            toolInvocation: {
              state: 'result',
              toolCallId: 'call-2',
              toolName: 'fetch',
              args: { url: 'https://example.com' },
              result: 'x'.repeat(LIMITS.maxJsonBytes),
            },
          },
          { type: 'text', text: 'Fetched.' },
        ],
      },
    };
    const input = toObserveInput(huge)!;
    expect(input.metadata).toBeUndefined();
    const back = toMastraMessage(stored(input))!;
    expect(back.content.parts).toEqual([
      { type: 'text', text: 'Fetched.' },
      {
        type: 'tool-invocation',
        toolInvocation: {
          state: 'call',
          toolCallId: 'call-2',
          toolName: 'fetch',
          args: { url: 'https://example.com' },
        },
      },
    ]);
  });

  it('system messages and signals are not observed; system and tool records are not replayed', () => {
    const system = { ...toolTurn, role: 'system' as const };
    const signal = { ...toolTurn, role: 'signal' as const };
    expect(toObserveInput(system)).toBeUndefined();
    expect(toObserveInput(signal)).toBeUndefined();
    const record = stored({ id: 's1', role: 'user', content: 'x', at });
    expect(toMastraMessage({ ...record, role: 'system' })).toBeUndefined();
    expect(toMastraMessage({ ...record, role: 'tool' })).toBeUndefined();
  });
});
