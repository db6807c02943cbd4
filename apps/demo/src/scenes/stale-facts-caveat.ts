import { recalledFacts } from '../answers.ts';
import { maria } from '../cast.ts';
import { valueText } from '../decisions.ts';
import type { Demo } from '../demo.ts';
import { narrate, sceneTitle } from '../print.ts';
import { claimNoLargerThanHistory, openSession } from '../session.ts';
import { LEAD_TIME } from './correction-wins.ts';

const DAY_MS = 86_400_000;

/**
 * Scene 7. A hundred days pass on the simulated clock. Facts nobody confirmed for longer than
 * `staleAfterDays` (90) are still the current values, but the agent is told they may be out of date.
 */
export async function staleFactsCaveat(demo: Demo): Promise<void> {
  const { memory, clock, checks } = demo;
  sceneTitle(7, '100 days later: stale facts carry a caveat');

  clock.laterDays(100);
  narrate(`The simulated clock jumps 100 days. It is now ${clock.today()}.`);
  const later = openSession(demo, maria, 'maria-after-summer');
  const context = await later.asks("Is Supplier X's lead time still the same?", [LEAD_TIME]);

  const staleAfter = memory.policy.staleAfterDays * DAY_MS;
  const overdue = context.sections.facts.filter((f) => clock.now() - f.fact.lastConfirmedAt > staleAfter);
  const uncaveated = overdue.filter((f) => !f.stale || !f.text.includes('unconfirmed since'));
  checks.claim(
    `every recalled fact unconfirmed for over ${memory.policy.staleAfterDays} days is marked stale, with "unconfirmed since" in the text`,
    overdue.length > 0 && uncaveated.length === 0,
    overdue.length === 0
      ? 'no overdue fact was recalled'
      : `without a caveat: ${uncaveated.map((f) => f.text).join(' | ')}`,
  );
  const leadTimes = recalledFacts(context, LEAD_TIME).map((f) => valueText(f.fact.value));
  checks.claim(
    'the correction still holds 100 days on: the lead time is 30 days',
    leadTimes.length === 1 && leadTimes[0] === '30 days',
    `recalled: ${leadTimes.join(', ') || 'nothing'}`,
  );
  claimNoLargerThanHistory(demo, [context]);
}
