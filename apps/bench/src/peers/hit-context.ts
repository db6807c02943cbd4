import type { Tokenizer } from '@strata-memory/core';
import { contextLine, packLines } from '../locomo/strategies/context-lines.ts';
import type { PeerContext, PeerHit } from './peer-memory.ts';

/**
 * The prompt context of a peer whose search returns a list: its hits as lines, in the order it
 * returned them, packed until the budget is full (the same packing as the LoCoMo baselines).
 */
export function hitsContext(args: {
  hits: readonly PeerHit[];
  budget: number;
  tokenizer: Tokenizer;
}): PeerContext {
  const lines = args.hits.map((hit) => contextLine({ turns: hit.turnIds, text: hit.text }));
  const { context } = packLines({ lines, budget: args.budget, tokenizer: args.tokenizer });
  return { turnIds: context.turns, tokens: context.tokens, hits: [...args.hits] };
}

/** A turn as the peers store it: who said it, then what was said. */
export function turnText(turn: { speaker: string; content: string }): string {
  return `${turn.speaker}: ${turn.content}`;
}

/** How many results a peer's search returns for the prompt context (mem0's and Mastra's topK 10). */
export const CONTEXT_TOP_K = 10;
