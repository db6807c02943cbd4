/**
 * Type-level checks of the public API against the installed `@mastra/core` (compiled by
 * `tsc --noEmit`, never run): the calls a user writes must type-check without casts.
 */
import { Agent } from '@mastra/core/agent';
import type { MastraMemory } from '@mastra/core/memory';
import type { Memory } from '@strata-memory/core';
import { mastraExtractor, mastraSummarizer, type StrataMastraMemory, strataMemory } from './index.ts';

export function typeChecks(memory: Memory): void {
  const strata: StrataMastraMemory = strataMemory({
    memory,
    orgId: 'acme',
    recall: { budget: { tokens: 1500 } },
  });
  // It is a MastraMemory: an Agent takes it as its memory.
  const asMastra: MastraMemory = strata;
  const agent = new Agent({
    id: 'a',
    name: 'a',
    instructions: 'Be brief.',
    model: 'openai/gpt-5-mini',
    memory: asMastra,
  });
  void agent.generate('hi', { memory: { thread: 't1', resource: 'u1' } });
  void agent.stream('hi', { memory: { thread: 't1', resource: 'u1', options: { readOnly: true } } });
  // The engine stays reachable for direct calls.
  void strata.strata.facts.list({ userId: 'u1' });
  // Model bridges take a model the way an Agent does: a model router string needs no cast.
  void mastraExtractor({ model: 'openai/gpt-5-mini' });
  void mastraSummarizer({ model: 'openai/gpt-5-mini', instructions: 'Be brief.' });
}
