import { maria } from '../cast.ts';
import { factLabel, valueText } from '../decisions.ts';
import type { Demo } from '../demo.ts';
import { label, narrate, quote, sceneTitle } from '../print.ts';
import { claimNoLargerThanHistory, openSession } from '../session.ts';

/**
 * Scene 4. A what-if is not a policy. "What if we extended terms to 90 days?" goes to the review
 * queue for a human to approve or reject; the facts keep saying net 60.
 */
export async function whatIfGoesToReview(demo: Demo): Promise<void> {
  const { memory, clock, checks } = demo;
  sceneTitle(4, 'A what-if lands in the review queue, not in the facts');

  clock.laterDays(1);
  const friday = openSession(demo, maria, 'maria-8');
  const context = await friday.asks('What if we extended terms to 90 days?', [
    { entity: 'construction suppliers', key: 'payment terms' },
  ]);

  const queue = await memory.review.list(maria.scope);
  label('review.list(Maria) — waiting for a human:');
  quote(
    queue
      .map(
        (item) =>
          `${item.reason.padEnd(14)} ${factLabel({ entityId: String(item.proposal.entityId), key: String(item.proposal.key), value: item.proposal.value ?? null })}  (from "${String(item.proposal.evidence ?? '')}")`,
      )
      .join('\n') || '(empty)',
  );
  narrate('Approving it (memory.review.approve) would write the fact; nobody has, so it stays a proposal.');

  const whatIf = queue.find((item) => item.reason === 'hypothetical' && item.proposal.value === '90 days');
  checks.claim(
    'the what-if waits in the review queue as a hypothetical',
    whatIf !== undefined && whatIf.status === 'pending',
    `queue: ${queue.map((i) => `${i.reason} ${valueText(i.proposal.value ?? null)}`).join(', ') || 'empty'}`,
  );
  const facts = await memory.facts.list(maria.scope);
  const ninety = facts.filter((f) => valueText(f.value).includes('90'));
  const terms = await memory.facts.get(maria.scope, {
    entity: 'construction suppliers',
    key: 'payment terms',
  });
  checks.claim(
    'no fact says 90 days; construction suppliers are still paid net 60',
    ninety.length === 0 && terms?.value === 'net 60',
    `${ninety.map(factLabel).join(', ') || 'no 90-day fact'}; terms: ${terms ? valueText(terms.value) : 'none'}`,
  );
  claimNoLargerThanHistory(demo, [context]);
}
