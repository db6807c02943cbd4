import { recalledFacts } from '../answers.ts';
import { maria, tom } from '../cast.ts';
import type { Demo } from '../demo.ts';
import { narrate, plural, sceneTitle } from '../print.ts';
import { claimNoLargerThanHistory, openSession } from '../session.ts';

/**
 * Scene 2. Maria asks about construction payment terms. Plain vector memory would happily return
 * Tom's "payment terms" conversation; Strata answers from Maria's facts, and Tom's items are not
 * even candidates: isolation is in the store's queries, not a filter afterwards.
 */
export async function otherUsersStayOut(demo: Demo): Promise<void> {
  const { memory, clock, checks } = demo;
  sceneTitle(2, "Answered from Maria's facts, never from Tom's conversation");

  clock.laterDays(1);
  const friday = openSession(demo, maria, 'maria-4');
  const constructionTerms = { entity: 'construction suppliers', key: 'payment terms' };
  const context = await friday.asks('What payment terms do we have with our construction suppliers?', [
    constructionTerms,
  ]);
  const [terms] = recalledFacts(context, constructionTerms);

  checks.claim(
    'the answer is in the facts: construction suppliers · payment terms = net 60',
    terms?.fact.value === 'net 60',
    terms ? `recalled ${String(terms.fact.value)}` : 'not recalled',
  );
  claimNoLargerThanHistory(demo, [context]);

  const tomsEpisodes = await memory.store.episodes.list({
    scope: tom.scope,
    status: ['active', 'merged', 'archived'],
    limit: 500,
  });
  const tomsFacts = await memory.facts.list(tom.scope);
  const tomsIds = new Set([...tomsEpisodes.items.map((e) => e.id), ...tomsFacts.map((f) => f.id)]);
  const considered = context.explain().filter((entry) => tomsIds.has(entry.id));
  const rendered = context.render();
  const leaked = [...tomsEpisodes.items.map((e) => e.text), 'net 30', 'Hardware vendors'].filter((text) =>
    rendered.includes(text),
  );
  narrate(
    `Tom has ${plural(tomsEpisodes.items.length, 'episode')} and ${plural(tomsFacts.length, 'fact')} in memory; recall at Maria's scope cannot reach them.`,
  );
  checks.claim(
    `nothing of Tom's is in Maria's context, and none of his ${tomsIds.size} items was even a candidate`,
    considered.length === 0 && leaked.length === 0,
    `candidates: ${considered.map((e) => e.id).join(', ') || 'none'}; leaked text: ${leaked.join(' | ') || 'none'}`,
  );
}
