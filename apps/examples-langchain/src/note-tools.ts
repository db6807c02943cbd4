import { randomUUID } from 'node:crypto';
import { tool } from '@langchain/core/tools';
import type { BaseStore } from '@langchain/langgraph';
import { z } from 'zod/v4';

/**
 * A notebook the agent keeps in LangGraph's long-term store (`runtime.store`), which here is a
 * `StrataStore`: notes are Strata facts, and `find_notes` is Strata's hybrid recall.
 */

export const NOTES = 'notes';

interface NoteRuntime {
  store: BaseStore;
  context: { userId: string };
}

function runtimeOf(runtime: unknown): NoteRuntime {
  const value = runtime as Partial<NoteRuntime>;
  if (!value.store || !value.context?.userId)
    throw new Error('the notebook tools need an agent store and a userId');
  return value as NoteRuntime;
}

export const saveNote = tool(
  async ({ text }, runtime) => {
    const { store, context } = runtimeOf(runtime);
    await store.put([context.userId, NOTES], randomUUID(), { text });
    return 'saved';
  },
  {
    name: 'save_note',
    description: "Save a note in the user's notebook, to find it again later.",
    schema: z.object({ text: z.string().min(1).describe('The note, in a full sentence.') }),
  },
);

export const findNotes = tool(
  async ({ query }, runtime) => {
    const { store, context } = runtimeOf(runtime);
    const found = await store.search([context.userId, NOTES], { query, limit: 3 });
    const matching = found.filter((item) => (item as { score?: number }).score !== undefined);
    return matching.length > 0 ? matching.map((item) => String(item.value.text)).join(' | ') : 'no notes';
  },
  {
    name: 'find_notes',
    description: "Search the user's notebook.",
    schema: z.object({ query: z.string().min(1).describe('What the note is about.') }),
  },
);
