import { maria } from '../cast.ts';
import type { Demo } from '../demo.ts';
import { sectionLines } from '../memory-block.ts';
import { label, narrate, quote, sceneTitle } from '../print.ts';
import { claimNoLargerThanHistory, openSession } from '../session.ts';

const QUOTED = '$4,200';

/** An afternoon going through the steel order: far more than the working window holds. */
const STEEL_ORDER_NOTES = [
  `Going through Supplier X's steel order with you now. The beams come to ${QUOTED} in total, delivered to the Northside site.`,
  'The order number is PO-7781.',
  'Delivery has to reach the Northside site before the slab pour on 14 April.',
  'Site contact for deliveries is Dan Okafor, he signs the delivery notes.',
  'Rebar: 120 bundles of 12 mm, from the same supplier.',
  'Gate B is the only gate that takes trucks over 7.5 tonnes.',
  'Crane hire is booked separately, not through Supplier X.',
  'Invoices go to ap@acme.example with the PO number in the subject.',
  'The steel must come with mill certificates, one per batch.',
  'Galvanised finish on all external beams.',
  'Offloading is between 7am and 3pm, weekdays only.',
  'Any damaged beams get photographed and reported within 24 hours.',
  'Retention is 5% until the structural engineer signs off.',
  'Please remind me to chase the mill certificates next Tuesday.',
  'The structural engineer is Lena Park from Park & Hale.',
  'Bolts and fixings come from a different supplier, Fastenal.',
  'We need the shop drawings approved before fabrication starts.',
  'Site parking for the delivery driver is on Mill Road.',
  'Weekend deliveries are not allowed under the council permit.',
  'The site manager wants a call an hour before each truck arrives.',
];

/**
 * Scene 5. A long session overflows the working window. What falls out is folded into a rolling
 * summary, and the summary must keep every amount, number, date and name word for word: "$4,200"
 * never becomes "about $4,200".
 */
export async function longSessionSummary(demo: Demo): Promise<void> {
  const { memory, clock, checks } = demo;
  sceneTitle(5, `A long session overflows the buffer; the summary keeps "${QUOTED}" exactly`);

  clock.laterDays(3);
  const afternoon = openSession(demo, maria, 'maria-steel-order');
  narrate(
    `${STEEL_ORDER_NOTES.length} messages in one thread (Strata's decisions shown only when it stores more than an episode):`,
  );
  for (const note of STEEL_ORDER_NOTES) await afternoon.says(note, { quiet: true });

  const context = await afternoon.asks('What did the steel beams come to in total?', [
    { entity: 'Supplier X', key: 'quote for the steel beams' },
  ]);
  const stored = (await memory.store.threads.get({ scope: afternoon.scope }))?.summary;
  label('the rolling summary, as stored on the thread:');
  quote(stored ?? '(no summary)');

  const stillInWindow = context.sections.working.some((m) => m.content.includes(QUOTED));
  checks.claim(
    `the turn that said "${QUOTED}" fell out of the working window`,
    !stillInWindow && context.sections.working.length > 0,
    stillInWindow ? 'it is still in the window: the session did not overflow' : 'the window is empty',
  );
  checks.claim(
    `the rolling summary keeps "${QUOTED}" word for word`,
    stored?.includes(QUOTED) === true,
    stored ? 'not in the stored summary' : 'no summary was written',
  );
  const shown = sectionLines(context.render(), 'summary');
  checks.claim(
    `the summary the agent is told still says "${QUOTED}"`,
    shown.some((line) => line.includes(QUOTED)),
    shown.length > 0 ? `the rendered summary starts "${shown[0]}"` : 'no summary in the rendered block',
  );
  checks.claim(
    `the whole block fits the ${demo.budget}-token budget`,
    context.tokens <= demo.budget,
    `${context.tokens} tokens`,
  );
  claimNoLargerThanHistory(demo, [context]);
}
