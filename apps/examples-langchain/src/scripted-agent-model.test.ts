import { type AIMessage, HumanMessage, SystemMessage, ToolMessage } from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import { ScriptedAgentModel, scriptedAnswer } from './scripted-agent-model.ts';

const MEMORY = [
  '<memory>',
  'Facts:',
  '- user ada · name: Ada · favourite city: Lisbon & Porto (tom, 2026-01-01)',
  '</memory>',
].join('\n');

const TOOLS = ['remember', 'recall', 'save_note', 'find_notes'].map((name) => ({ name }));

async function reply(...messages: Array<HumanMessage | SystemMessage | AIMessage | ToolMessage>) {
  return (await new ScriptedAgentModel().bindTools(TOOLS).invoke(messages)) as AIMessage;
}

describe('ScriptedAgentModel', () => {
  it('answers "what is my …?" only from the memory block', () => {
    expect(scriptedAnswer([new SystemMessage(MEMORY), new HumanMessage('What is my name?')])).toBe(
      'Your name is Ada.',
    );
    expect(scriptedAnswer([new SystemMessage(MEMORY), new HumanMessage("what's my favourite city")])).toBe(
      'Your favourite city is Lisbon & Porto.',
    );
    expect(scriptedAnswer([new HumanMessage('What is my name?')])).toBe("I don't know your name yet.");
    expect(scriptedAnswer([new HumanMessage('My name is Ada.')])).toBe("Got it, I'll remember that.");
  });

  it('calls the agent’s tools for its fixed phrasings, then answers from the tool result', async () => {
    const remember = await reply(new HumanMessage('Remember that the gate code is 4411.'));
    expect(remember.tool_calls).toMatchObject([
      { name: 'remember', args: { kind: 'note', text: 'the gate code is 4411.' } },
    ]);
    const note = await reply(new HumanMessage('note: buy milk'));
    expect(note.tool_calls).toMatchObject([{ name: 'save_note', args: { text: 'buy milk' } }]);
    const find = await reply(new HumanMessage('find notes about milk?'));
    expect(find.tool_calls).toMatchObject([{ name: 'find_notes', args: { query: 'milk' } }]);
    const answer = await reply(
      new HumanMessage('find notes about milk'),
      find,
      new ToolMessage({ content: 'buy milk', tool_call_id: find.tool_calls![0]!.id!, name: 'find_notes' }),
    );
    expect(answer.text).toBe('Notes: buy milk');
    expect(answer.tool_calls ?? []).toEqual([]);
  });

  it('does not call a tool the agent does not have', async () => {
    const plain = (await new ScriptedAgentModel().invoke([new HumanMessage('note: buy milk')])) as AIMessage;
    expect(plain.tool_calls ?? []).toEqual([]);
  });
});
