import { randomUUID } from 'node:crypto';
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import {
  AIMessage,
  type BaseMessage,
  HumanMessage,
  SystemMessage,
  ToolMessage,
} from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import { blockFacts } from '@strata-memory/core/test';

/**
 * An offline stand-in for a tool-calling chat model, so the example runs without an API key. It is
 * not clever, and it knows nothing itself: it answers "what is my …?" only from the memory block
 * the Strata middleware put in its system prompt, and it calls the agent's tools for a few fixed
 * phrasings. A right answer after a restart therefore shows that memory survived it.
 */

type Call = { name: string; args: Record<string, unknown> };

const QUESTION =
  /^(?:what(?:'s| is| was)|do you (?:know|remember)|tell me)\s+(?:my|our)\s+([\p{L}\p{N}' -]+?)\s*\??$/iu;
const REMEMBER = /^remember(?: that|:)\s+(.+)$/i;
const RECALL = /^what do you remember about\s+(.+?)\??$/i;
const NOTE = /^note:\s*(.+)$/i;
const FIND_NOTES = /^find notes? (?:about|on)\s+(.+?)\??$/i;
/** The facts in the memory block of the system prompt, as `{ key, value }`. */
function rememberedFacts(messages: BaseMessage[]): Array<{ key: string; value: string }> {
  const facts: Array<{ key: string; value: string }> = [];
  for (const message of messages) {
    if (!SystemMessage.isInstance(message)) continue;
    facts.push(...blockFacts(message.text));
  }
  return facts;
}

function lastHumanText(messages: BaseMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    if (HumanMessage.isInstance(messages[i])) return messages[i]!.text.trim();
  }
  return '';
}

/** The tool this turn calls, if its phrasing asks for one. */
function toolFor(text: string): Call | undefined {
  const remember = REMEMBER.exec(text);
  if (remember) return { name: 'remember', args: { kind: 'note', text: remember[1]!.trim() } };
  const recall = RECALL.exec(text);
  if (recall) return { name: 'recall', args: { query: recall[1]!.trim() } };
  const note = NOTE.exec(text);
  if (note) return { name: 'save_note', args: { text: note[1]!.trim() } };
  const find = FIND_NOTES.exec(text);
  if (find) return { name: 'find_notes', args: { query: find[1]!.trim() } };
  return undefined;
}

/** The final answer once a tool has run. */
function afterTool(result: ToolMessage): string {
  const output = result.text;
  if (result.name === 'remember') return "Noted, I'll remember that.";
  if (result.name === 'save_note') return 'Saved the note.';
  if (result.name === 'find_notes') return output === 'no notes' ? 'No notes found.' : `Notes: ${output}`;
  if (result.name === 'recall') {
    const items = (JSON.parse(output) as { items: Array<{ layer: string; text: string }> }).items;
    const lines = items
      .filter((i) => i.layer === 'episodes')
      .slice(0, 2)
      .map((i) => i.text);
    return lines.length > 0 ? `From memory: ${lines.join(' | ')}` : 'I do not remember anything about that.';
  }
  return output;
}

/** The scripted answer to a turn without a tool. */
export function scriptedAnswer(messages: BaseMessage[]): string {
  const text = lastHumanText(messages);
  const question = QUESTION.exec(text);
  if (question) {
    const key = question[1]!.toLowerCase();
    const fact = rememberedFacts(messages).find((f) => f.key.toLowerCase() === key);
    return fact ? `Your ${fact.key} is ${fact.value}.` : `I don't know your ${key} yet.`;
  }
  if (text.endsWith('?'))
    return 'I can only answer questions about what you told me, like "what is my name?".';
  return "Got it, I'll remember that.";
}

/** A tool-calling `BaseChatModel` that follows the script above. */
export class ScriptedAgentModel extends BaseChatModel {
  readonly toolNames: string[];

  constructor(toolNames: string[] = []) {
    super({});
    this.toolNames = toolNames;
  }

  _llmType(): string {
    return 'scripted-agent';
  }

  override bindTools(tools: Array<{ name: string }>) {
    return new ScriptedAgentModel(tools.map((t) => t.name));
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const last = messages.at(-1);
    let reply: AIMessage;
    if (last && ToolMessage.isInstance(last)) {
      reply = new AIMessage({ content: afterTool(last), id: randomUUID() });
    } else {
      const call = toolFor(lastHumanText(messages));
      reply =
        call && this.toolNames.includes(call.name)
          ? new AIMessage({
              content: '',
              id: randomUUID(),
              tool_calls: [{ ...call, id: `call_${randomUUID()}`, type: 'tool_call' }],
            })
          : new AIMessage({ content: scriptedAnswer(messages), id: randomUUID() });
    }
    return { generations: [{ text: reply.text, message: reply }] };
  }
}
