import type { MemoryContext, RecalledFact } from '@strata-memory/core';
import { normalizeName } from '@strata-memory/core/store';
import { factLabel } from './decisions.ts';
import { label } from './print.ts';

/**
 * There is no model to answer, so a scene names the facts that answer its question and the demo
 * shows whether recall put them in front of the agent.
 */
export interface FactAbout {
  entity: string;
  key: string;
}

export function recalledFacts(context: MemoryContext, about: FactAbout): RecalledFact[] {
  const entity = normalizeName(about.entity);
  const key = normalizeName(about.key);
  return context.sections.facts.filter((f) => f.fact.entityId === entity && f.fact.key === key);
}

/** Prints `facts that answer it: …` and returns them (in the order asked). */
export function showAnswer(context: MemoryContext, about: FactAbout[]): RecalledFact[] {
  const found = about.flatMap((a) => recalledFacts(context, a));
  const text = found.map((f) => factLabel(f.fact) + (f.stale ? ' (stale)' : '')).join('; ');
  label(`facts that answer it: ${text || 'none recalled'}`);
  return found;
}
