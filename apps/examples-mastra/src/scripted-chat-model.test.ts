import { describe, expect, it } from 'vitest';
import { scriptedReply } from './scripted-chat-model.ts';

type Call = Parameters<typeof scriptedReply>[0];

function call(messages: Array<{ role: 'system' | 'user' | 'assistant'; text: string }>): Call {
  return {
    prompt: messages.map((m) =>
      m.role === 'system'
        ? { role: 'system', content: m.text }
        : { role: m.role, content: [{ type: 'text', text: m.text }] },
    ),
  } as Call;
}

const block =
  '<memory>\nRecalled from memory.\nFacts:\n- user ada · name: Ada · favourite city: Lisbon (tom, 2026-01-01)\n</memory>';

describe('scriptedReply', () => {
  it('answers "what is my …?" from the memory block only', () => {
    expect(
      scriptedReply(
        call([
          { role: 'system', text: block },
          { role: 'user', text: 'What is my favourite city?' },
        ]),
      ),
    ).toBe('Your favourite city is Lisbon.');
    expect(scriptedReply(call([{ role: 'user', text: 'What is my favourite city?' }]))).toBe(
      "I don't know your favourite city yet.",
    );
  });

  it('answers "what did I say last?" from the history messages only', () => {
    expect(
      scriptedReply(
        call([
          { role: 'user', text: 'I like tea.' },
          { role: 'assistant', text: 'Noted.' },
          { role: 'user', text: 'What did I say last?' },
        ]),
      ),
    ).toBe('You said: "I like tea."');
    expect(scriptedReply(call([{ role: 'user', text: 'What did I say last?' }]))).toBe(
      'You have not said anything in this session yet.',
    );
  });
});
