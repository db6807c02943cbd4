import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { Memory } from '@strata-memory/core';
import { strataMemoryTools } from '@strata-memory/langchain';
import { strataMemoryMiddleware } from '@strata-memory/langchain/middleware';
import { namespaceLevels, StrataStore } from '@strata-memory/langchain/store';
import { createAgent } from 'langchain';
import { z } from 'zod/v4';
import { findNotes, saveNote } from './note-tools.ts';

const INSTRUCTIONS =
  'You are a friendly assistant with long-term memory. Use what the memory block says about the user; ' +
  'if it does not say, admit you do not know. Use the memory tools to remember or look things up, and ' +
  "the notebook tools for the user's notes.";

/**
 * The agent: Strata memory in three ways at once.
 * - `strataMemoryMiddleware`: recalls into the system prompt before each model call, observes each turn.
 * - `strataMemoryTools`: remember / recall / forget / correct, for the model to call.
 * - `StrataStore` as LangGraph's `store`: the notebook tools keep notes in it (namespace
 *   `[userId, 'notes']`, mapped to the user's Strata scope).
 */
export function createMemoryAgent(args: { memory: Memory; model: BaseChatModel }) {
  const { memory, model } = args;
  const store = new StrataStore({ memory, scope: namespaceLevels(['userId']) });
  const agent = createAgent({
    model,
    systemPrompt: INSTRUCTIONS,
    tools: [...strataMemoryTools({ memory }), saveNote, findNotes],
    middleware: [strataMemoryMiddleware({ memory })],
    store,
    contextSchema: z.object({ userId: z.string() }),
  });
  return { agent, store };
}
