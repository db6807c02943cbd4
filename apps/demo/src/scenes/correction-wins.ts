import type { FactRecord, MemoryContext } from '@strata-memory/core';
import { recalledFacts } from '../answers.ts';
import { maria } from '../cast.ts';
import { valueText } from '../decisions.ts';
import type { Demo } from '../demo.ts';
import { sectionLines } from '../memory-block.ts';
import { label, narrate, quote, sceneTitle } from '../print.ts';
import { claimNoLargerThanHistory, openSession } from '../session.ts';
import { formatDay } from '../simulated-clock.ts';

export const LEAD_TIME = { entity: 'Supplier X', key: 'lead time' };

/**
 * Scene 3. Maria corrects the lead time. The old value is superseded, not overwritten: history
 * keeps who said what and when, and every later recall says 30 days.
 */
export async function correctionWins(demo: Demo): Promise<void> {
  const { memory, clock, checks } = demo;
  sceneTitle(3, 'A correction supersedes, and history keeps who and when');

  clock.laterDays(3);
  const monday = openSession(demo, maria, 'maria-5');
  const firstRecall = await monday.asks("What's Supplier X's lead time?", [LEAD_TIME]);
  await monday.says('No, the lead time is actually 30 days, not 45.');

  const history = await memory.facts.history(maria.scope, LEAD_TIME);
  label('facts.history(Supplier X · lead time):');
  quote(history.map(historyRow).join('\n'));

  const current = await memory.facts.get(maria.scope, LEAD_TIME);
  const first = history[0];
  const last = history.at(-1);
  checks.claim(
    'the current lead time is 30 days, a human correction by Maria',
    current?.value === '30 days' &&
      current.metadata.correction === true &&
      current.provenance.principalId === maria.id,
    `current: ${current ? valueText(current.value) : 'none'}`,
  );
  checks.claim(
    'history keeps 45 days as superseded, with who said it and when it stopped being true',
    first?.value === '45 days' &&
      first.status === 'superseded' &&
      first.provenance.principalId === maria.id &&
      first.validTo !== undefined &&
      first.supersededBy === last?.id,
    first ? historyRow(first) : 'no history',
  );

  narrate('Later sessions, other days, other phrasings:');
  const later: MemoryContext[] = [];
  clock.laterDays(2);
  const wednesday = openSession(demo, maria, 'maria-6');
  later.push(
    await wednesday.asks('If I order steel from Supplier X today, when does it arrive?', [LEAD_TIME]),
  );
  clock.laterDays(1);
  const thursday = openSession(demo, maria, 'maria-7');
  later.push(await thursday.asks('Remind me of the lead time for Supplier X.', [LEAD_TIME]));
  const wrong = later.flatMap((context, i) => {
    const values = recalledFacts(context, LEAD_TIME).map((f) => valueText(f.fact.value));
    const lines = sectionLines(context.render(), 'facts').filter((l) => l.includes('lead time'));
    const ok = values.length === 1 && values[0] === '30 days' && lines.every((l) => !l.includes('45'));
    return ok ? [] : [`recall ${i + 1}: facts say ${values.join(', ') || 'nothing'}`];
  });
  checks.claim(
    'every later recall says 30 days in its facts, never 45',
    wrong.length === 0,
    wrong.join('; '),
  );
  claimNoLargerThanHistory(demo, [firstRecall, ...later]);
}

function historyRow(fact: FactRecord): string {
  const until = fact.validTo === undefined ? 'now' : formatDay(fact.validTo);
  const how = fact.metadata.correction === true ? ', correction' : '';
  return `v${fact.version}  ${valueText(fact.value).padEnd(8)}  ${fact.status.padEnd(10)}  said by ${fact.provenance.principalId ?? '?'}${how}, valid ${formatDay(fact.validFrom)} → ${until}`;
}
