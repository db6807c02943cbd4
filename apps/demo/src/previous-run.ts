import { showAnswer } from './answers.ts';
import { resumeCalendar } from './calendar.ts';
import { maria } from './cast.ts';
import type { Demo } from './demo.ts';
import { isEmpty, takeInventory } from './inventory.ts';
import { narrate, notice, plural, said } from './print.ts';
import { showContext } from './session.ts';
import { formatDay } from './simulated-clock.ts';

/**
 * Before the scenes: a fresh database, or memory from a previous run (and proof that recall already
 * knows what was learned then). Returns true on a re-run.
 */
export async function greetPreviousRun(demo: Demo): Promise<boolean> {
  const inventory = await takeInventory(demo.memory);
  const previousEnd = await resumeCalendar(demo);
  if (isEmpty(inventory)) {
    notice(`No memory yet in ${demo.dbPath}: starting fresh on ${demo.clock.today()}.`);
    return false;
  }
  notice(
    `Memory from a previous run found (${plural(inventory.episodes, 'episode')}, ${plural(inventory.facts, 'fact')}, ` +
      `${plural(inventory.edges, 'graph edge')}, ${plural(inventory.threads, 'thread')}, ` +
      `${plural(inventory.reviewPending, 'review item')} pending, ${plural(inventory.ledgerEntries, 'ledger entry', 'ledger entries')}) ` +
      '— use --reset to start over.',
  );
  if (previousEnd !== undefined) {
    narrate(
      `The previous run's simulated calendar ended on ${formatDay(previousEnd)}; this run carries on from ${demo.clock.today()}.`,
    );
  }
  narrate('Before replaying anything, a brand-new recall for Maria already knows what she taught the agent:');
  const question = "What's Supplier X's lead time?";
  said(maria.name, question);
  const context = await demo.memory.recall(maria.scope, { query: question, budget: { tokens: demo.budget } });
  showContext(demo, context);
  const [leadTime] = showAnswer(context, [{ entity: 'Supplier X', key: 'lead time' }]);
  demo.checks.claim(
    'memory from the previous run is recalled before anything is replayed (lead time: 30 days)',
    leadTime?.fact.value === '30 days',
    leadTime ? `recalled ${String(leadTime.fact.value)}` : 'no lead time recalled',
  );
  narrate(
    'The scenes now replay with the same message ids, so Strata recognises every message and writes nothing twice; every check still has to hold.',
  );
  return true;
}
