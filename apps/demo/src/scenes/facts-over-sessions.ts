import { contentHash, type EpisodeRecord } from '@strata-memory/core/store';
import { maria, tom } from '../cast.ts';
import type { Demo } from '../demo.ts';
import { narrate, sceneTitle } from '../print.ts';
import { openSession } from '../session.ts';

/**
 * Scene 1. Maria states the facts she works by over several sessions; Tom, at the same company,
 * talks about payment terms for IT equipment in his own conversations.
 */
export async function factsOverSessions(demo: Demo): Promise<void> {
  const { memory, clock, checks } = demo;
  sceneTitle(1, 'Facts stated over several sessions');
  narrate('Maria, procurement manager at Acme, tells the agent how she works. Every message is observed:');
  narrate('kept as an episode, and read by the rules extractor for facts, decisions and relations.');

  const monday = openSession(demo, maria, 'maria-1');
  await monday.says('Construction suppliers are paid net 60.');
  await monday.says("Supplier X's lead time is 45 days.");

  clock.laterDays(2);
  const wednesday = openSession(demo, maria, 'maria-2');
  await wednesday.says('Our approval limit is 50,000 USD; anything above it needs sign-off from the CFO.');
  await wednesday.says("Supplier X's quote for the steel beams is $4,200.");

  narrate('Tom buys the IT equipment at Acme. Same company, same words ("payment terms"), different facts:');
  const tomsDay = openSession(demo, tom, 'tom-1');
  await tomsDay.says("I'm sorting out payment terms for the new IT equipment: laptops, docks and monitors.");
  await tomsDay.says('Hardware vendors are paid net 30.');

  clock.laterDays(1);
  narrate('Next day Maria repeats herself, as people do:');
  const thursday = openSession(demo, maria, 'maria-3');
  await thursday.says('Construction suppliers are paid net 60.');

  const stated = [
    { entity: 'construction suppliers', key: 'payment terms', value: 'net 60' },
    { entity: 'Supplier X', key: 'lead time', value: '45 days' },
    { entityType: 'organization', entity: 'acme', key: 'approval limit', value: '50,000 USD' },
    { entity: 'Supplier X', key: 'quote for the steel beams', value: '$4,200' },
  ];
  const missing: string[] = [];
  for (const { value, ...key } of stated) {
    const [first] = await memory.facts.history(maria.scope, key);
    if (first?.value !== value || first.provenance.principalId !== maria.id) {
      missing.push(`${key.key} = ${value}`);
    }
  }
  checks.claim(
    "each of Maria's four statements became a fact in her memory, with her as its source",
    missing.length === 0,
    `not stored as stated: ${missing.join(', ')}`,
  );

  const hardware = { entity: 'Hardware vendors', key: 'payment terms' };
  const tomsTerms = await memory.facts.get(tom.scope, hardware);
  const seenByMaria = await memory.facts.get(maria.scope, hardware);
  checks.claim(
    "Tom's net 30 is a fact in Tom's memory, invisible from Maria's",
    tomsTerms?.value === 'net 30' && seenByMaria === null,
    `Tom: ${String(tomsTerms?.value ?? 'nothing')}, Maria sees: ${String(seenByMaria?.value ?? 'nothing')}`,
  );

  // In any status: on a later run the simulated calendar has moved on and consolidation may have
  // archived the first copy, which a repeat must still fold into rather than store again.
  const hash = contentHash('Construction suppliers are paid net 60.');
  const copies: EpisodeRecord[] = [];
  let cursor: string | undefined;
  do {
    const page = await memory.store.episodes.list({
      scope: maria.scope,
      status: ['active', 'merged', 'archived'],
      limit: 1000,
      ...(cursor ? { cursor } : {}),
    });
    copies.push(...page.items.filter((e) => e.contentHash === hash));
    cursor = page.nextCursor;
  } while (cursor);
  const terms = await memory.facts.get(maria.scope, {
    entity: 'construction suppliers',
    key: 'payment terms',
  });
  checks.claim(
    'the repeated statement is one episode, and it confirmed the fact instead of adding another',
    copies.length === 1 && terms !== null && terms.version === 1 && terms.lastConfirmedAt > terms.validFrom,
    `${copies.length} episode(s); fact version ${terms?.version ?? '-'}`,
  );
}
