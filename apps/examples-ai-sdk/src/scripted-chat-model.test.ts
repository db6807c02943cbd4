import { describe, expect, it } from 'vitest';
import { scriptedReply } from './scripted-chat-model.ts';

type Call = Parameters<typeof scriptedReply>[0];

function call(user: string, memory?: string): Call {
  return {
    prompt: [
      ...(memory ? [{ role: 'system' as const, content: memory }] : []),
      { role: 'user' as const, content: [{ type: 'text' as const, text: user }] },
    ],
  };
}

const MEMORY = [
  '<memory>',
  'Facts:',
  '- user ada · name: Ada · favourite city: Lisbon & Porto (tom, 2026-01-01)',
  '</memory>',
].join('\n');

describe('scriptedReply', () => {
  it('answers "what is my …?" only from the facts in the memory block', () => {
    expect(scriptedReply(call('What is my name?', MEMORY))).toBe('Your name is Ada.');
    expect(scriptedReply(call("what's my favourite city", MEMORY))).toBe(
      'Your favourite city is Lisbon & Porto.',
    );
    expect(scriptedReply(call('What is my name?'))).toBe("I don't know your name yet.");
  });

  it('lists what it remembers, acknowledges statements, and declines other questions', () => {
    expect(scriptedReply(call('What do you remember about me?', MEMORY))).toBe(
      'I remember: your name is Ada; your favourite city is Lisbon & Porto.',
    );
    expect(scriptedReply(call('My name is Ada.'))).toBe("Got it, I'll remember that.");
    expect(scriptedReply(call('How far is the moon?'))).toMatch(/only answer questions/);
  });
});
