import type { Embedder, Scope, Store } from '@strata-memory/core';
import { allTurns, type Conversation, type Turn } from './dataset.ts';

/** How a plain memory stores a turn: what its `observePerSec` measures. */
export type IngestPath = 'episodes' | 'embedded-episodes' | 'messages';

function threadOf(turn: Turn): string {
  return `session-${turn.session}`;
}

async function ingest(args: {
  path: IngestPath;
  store: Store;
  embedder?: Embedder;
  scope: Scope;
  turn: Turn;
}): Promise<void> {
  const { store, scope, turn } = args;
  if (args.path === 'messages') {
    await store.threads.appendMessages({
      scope: { ...scope, threadId: threadOf(turn) },
      messages: [
        { id: turn.id, role: 'user', name: turn.speaker, content: turn.content, createdAt: turn.at },
      ],
    });
    return;
  }
  let embedding: number[] | undefined;
  if (args.path === 'embedded-episodes') {
    if (!args.embedder) throw new RangeError('probeIngest: embedded-episodes needs an embedder');
    [embedding] = await args.embedder.embed({ texts: [turn.content] });
  }
  await store.episodes.put({
    episodes: [
      {
        scope,
        text: turn.content,
        role: 'user',
        speaker: turn.speaker,
        occurredAt: turn.at,
        ...(embedding ? { embedding } : {}),
        provenance: { source: 'observation', messageId: turn.id, threadId: threadOf(turn), at: turn.at },
      },
    ],
  });
}

/**
 * Times a baseline's own ingest path, one turn per call as an agent would write: keyword memory
 * stores episodes, vector memory embeds then stores them, buffer memory appends messages. It
 * writes under a scratch tenant of the same store after the conversation has been evaluated (so
 * keyword statistics never see it), then erases it. Returns turns per second.
 */
export async function probeIngest(args: {
  path: IngestPath;
  store: Store;
  embedder?: Embedder;
  conversation: Conversation;
}): Promise<{ turns: number; elapsedMs: number }> {
  const scope: Scope = { userId: `${args.conversation.id}~ingest-${args.path}` };
  const turns = allTurns(args.conversation);
  const start = performance.now();
  try {
    for (const turn of turns) await ingest({ ...args, scope, turn });
    return { turns: turns.length, elapsedMs: performance.now() - start };
  } finally {
    await args.store.forget({ scope });
  }
}
