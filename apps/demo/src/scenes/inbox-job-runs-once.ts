import type { JsonValue } from '@strata-memory/core';
import { inboxJob } from '../cast.ts';
import type { Demo } from '../demo.ts';
import { decided, detail, label, narrate, sceneTitle } from '../print.ts';

interface Email {
  id: string;
  from: string;
  subject: string;
}

/** The shared procurement mailbox. One email sits in two folders, so the job sees it twice. */
const MAILBOX: readonly Email[] = [
  { id: 'msg_7f3a', from: 'billing@supplier-x.example', subject: 'Invoice INV-2291 for the steel beams' },
  { id: 'msg_7f3b', from: 'dispatch@supplier-x.example', subject: 'Delivery slot confirmed for Thursday' },
  { id: 'msg_7f3c', from: 'news@steel-weekly.example', subject: 'Steel prices this week' },
  { id: 'msg_7f3b', from: 'dispatch@supplier-x.example', subject: 'Delivery slot confirmed for Thursday' },
  { id: 'msg_7f3d', from: 'lena@parkhale.example', subject: 'Shop drawings ready for approval' },
];

/** The job's own rule for what to do with an email (the agent's logic, not memory's). */
function triage(email: Email): string {
  if (/invoice/i.test(email.subject)) return 'forwarded to accounts payable';
  if (/delivery/i.test(email.subject)) return 'added to the site calendar';
  if (/approval/i.test(email.subject)) return 'flagged for Maria';
  return 'archived';
}

/**
 * One run of the scheduled job: every email is handled through `ledger.once`, so an email already
 * handled (in this run, an earlier run, or by another process) is skipped, with the outcome on record.
 */
async function runInboxJob(demo: Demo, name: string): Promise<{ handled: number; skipped: number }> {
  const { memory } = demo;
  label(`${name} (${demo.clock.today()}):`);
  let handled = 0;
  let skipped = 0;
  for (const email of MAILBOX) {
    const outcome = await memory.ledger.once(inboxJob, `triage:${email.id}`, async () => {
      handled += 1;
      return { action: triage(email), on: demo.clock.today() } satisfies JsonValue;
    });
    if (outcome.ran) detail(`${email.id} "${email.subject}" → ${triage(email)}`);
    else {
      skipped += 1;
      detail(`${email.id} "${email.subject}" → skipped: already handled (${describe(outcome.result)})`);
    }
  }
  await memory.state.set(inboxJob, 'last-run', { on: demo.clock.today(), handled, skipped });
  decided(`ledger: ${handled} handled now, ${skipped} already handled; checkpoint "last-run" saved in state`);
  return { handled, skipped };
}

function describe(result: JsonValue | undefined): string {
  if (result && typeof result === 'object' && !Array.isArray(result)) {
    return `${String(result.action)} on ${String(result.on)}`;
  }
  return 'no result recorded';
}

/**
 * Scene 8. An inbox-triage job runs twice over the same mailbox. The second run handles nothing
 * twice; on a re-run of the demo, the first run handles nothing either.
 */
export async function inboxJobRunsOnce(demo: Demo, options: { rerun: boolean }): Promise<void> {
  const { memory, clock, checks } = demo;
  sceneTitle(8, 'An inbox-triage job runs twice over the same mailbox');
  narrate(`${MAILBOX.length} emails in the shared procurement mailbox (msg_7f3b sits in two folders).`);

  clock.laterDays(1);
  const first = await runInboxJob(demo, 'morning run');
  clock.laterMinutes(60);
  const second = await runInboxJob(demo, 'the same job, an hour later');

  const distinct = new Set(MAILBOX.map((e) => e.id));
  if (options.rerun) {
    checks.claim(
      `the first run handles nothing: all ${distinct.size} emails were handled by the previous run of the demo`,
      first.handled === 0,
      `${first.handled} handled again`,
    );
  } else {
    checks.claim(
      `the first run handles each of the ${distinct.size} distinct emails exactly once (msg_7f3b once, not twice)`,
      first.handled === distinct.size,
      `${first.handled} handled`,
    );
  }
  checks.claim(
    'the second run handles nothing twice',
    second.handled === 0,
    `${second.handled} handled again`,
  );
  const unrecorded: string[] = [];
  for (const id of distinct) {
    const entry = await memory.store.ledger.get({ scope: inboxJob, key: `triage:${id}` });
    if (entry?.status !== 'done' || entry.result === undefined) unrecorded.push(id);
  }
  checks.claim(
    'every email has its outcome on record in the ledger',
    unrecorded.length === 0,
    `not recorded: ${unrecorded.join(', ')}`,
  );
}
