import { describe, expect, it } from 'vitest';
import type { Prompt } from './model-call.ts';
import { insertSystemContext, readPromptTurn } from './prompt-turn.ts';

const user = (text: string): Prompt[number] => ({ role: 'user', content: [{ type: 'text', text }] });
const assistant = (text: string): Prompt[number] => ({
  role: 'assistant',
  content: [{ type: 'text', text }],
});
const system = (content: string): Prompt[number] => ({ role: 'system', content });

describe('readPromptTurn', () => {
  it('reads the latest user message as the query of a first step', () => {
    const prompt = [system('be brief'), user('hello'), assistant('hi'), user('  my name is Ada  ')];
    expect(readPromptTurn(prompt)).toEqual({ query: 'my name is Ada', firstStep: true });
  });

  it('marks later steps of a tool loop as not first', () => {
    const prompt: Prompt = [
      user('weather in Lisbon?'),
      {
        role: 'assistant',
        content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'weather', input: { city: 'Lisbon' } }],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'c1',
            toolName: 'weather',
            output: { type: 'text', value: 'sunny' },
          },
        ],
      },
    ];
    expect(readPromptTurn(prompt)).toEqual({ query: 'weather in Lisbon?', firstStep: false });
  });

  it('joins text parts and skips files', () => {
    const prompt: Prompt = [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'look at this' },
          {
            type: 'file',
            mediaType: 'image/png',
            data: { type: 'url', url: new URL('https://example.com/a.png') },
          },
          { type: 'text', text: 'and this' },
        ],
      },
    ];
    expect(readPromptTurn(prompt).query).toBe('look at this\nand this');
  });

  it('has no query and nothing to observe without a user message', () => {
    expect(readPromptTurn([system('only instructions')])).toEqual({ firstStep: false });
    expect(readPromptTurn([user('   ')])).toEqual({ firstStep: false });
  });
});

describe('insertSystemContext', () => {
  it('goes after the caller’s own system messages and before the conversation', () => {
    const prompt = [system('one'), system('two'), user('hi')];
    const out = insertSystemContext(prompt, 'MEMORY');
    expect(out.map((m) => m.role)).toEqual(['system', 'system', 'system', 'user']);
    expect(out[2]).toEqual({ role: 'system', content: 'MEMORY' });
    expect(prompt).toHaveLength(3);
  });

  it('goes first when the caller has no system message', () => {
    expect(insertSystemContext([user('hi')], 'MEMORY')[0]).toEqual({ role: 'system', content: 'MEMORY' });
  });
});
