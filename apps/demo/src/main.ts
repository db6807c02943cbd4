/**
 * `pnpm demo` — Strata's main job, start to finish, offline.
 *
 * A procurement team at Acme talks to an agent over several weeks of simulated time. Memory lives
 * in one SQLite file (.strata/demo.db), texts are embedded by the offline sentence encoder, and
 * facts, decisions and relations are read by the rules extractor: no network, no model, no keys.
 *
 * Each step prints what a person said, what Strata decided, and what the agent would be told
 * (the rendered memory block and its token count next to the cost of the full history). Each
 * scene then checks its claims (✓/✗); any ✗ makes the demo exit non-zero.
 *
 * Run it again and it starts from the memory the previous run left; `--reset` starts over.
 */
import { StrataError } from '@strata-memory/core';
import { saveCalendar } from './calendar.ts';
import { type Demo, openDemo } from './demo.ts';
import { demoOptions, USAGE } from './demo-options.ts';
import { greetPreviousRun } from './previous-run.ts';
import { blank, narrate, notice } from './print.ts';
import { consolidationAudit } from './scenes/consolidation-audit.ts';
import { correctionWins } from './scenes/correction-wins.ts';
import { decisionGraph } from './scenes/decision-graph.ts';
import { everydaySentences } from './scenes/everyday-sentences.ts';
import { factsOverSessions } from './scenes/facts-over-sessions.ts';
import { inboxJobRunsOnce } from './scenes/inbox-job-runs-once.ts';
import { longSessionSummary } from './scenes/long-session-summary.ts';
import { otherUsersStayOut } from './scenes/other-users-stay-out.ts';
import { staleFactsCaveat } from './scenes/stale-facts-caveat.ts';
import { whatIfGoesToReview } from './scenes/what-if-goes-to-review.ts';

async function playTheScenes(demo: Demo): Promise<void> {
  const rerun = await greetPreviousRun(demo);
  demo.resumed = rerun;

  await factsOverSessions(demo); //  1. Maria states facts over several sessions; Tom talks IT payment terms
  await otherUsersStayOut(demo); //  2. construction payment terms: from Maria's facts, never Tom's chat
  await correctionWins(demo); //  3. "no, the lead time is actually 30 days, not 45"
  await whatIfGoesToReview(demo); //  4. "what if we extended terms to 90 days?" → review queue
  await longSessionSummary(demo); //  5. a long session overflows the buffer; "$4,200" survives the summary
  await decisionGraph(demo); //  6. what breaks if we roll back the gRPC migration?
  await staleFactsCaveat(demo); //  7. 100 days later: stale facts carry a caveat
  await inboxJobRunsOnce(demo, { rerun }); //  8. a triage job runs twice; nothing is handled twice
  await consolidationAudit(demo); //  9. consolidation: dry run, real run, audit log
  await everydaySentences(demo); // 10. "My name is Ada and I live in Porto." → facts about Ada
}

async function main(): Promise<number> {
  const options = demoOptions(process.argv.slice(2));
  if (options.help) {
    console.log(USAGE);
    return 0;
  }
  notice('Strata demo — layered memory for an agent, offline');
  narrate('loading the offline sentence encoder…');
  const demo = await openDemo(options);
  narrate(
    `store: SQLite at ${demo.dbPath} · embedder: ${demo.embedder.id} (offline) · ` +
      `extractor: ${demo.extractor.id} · tokenizer: ${demo.memory.tokenizer.id}`,
  );
  narrate(
    'How to read it: "Maria ›" is what a person typed, "Strata ›" what the engine decided, "│" what the ' +
      'agent would be told (the memory block for its system prompt), and ✓/✗ each claim the scene checks.',
  );
  try {
    await playTheScenes(demo);
    await saveCalendar(demo); // the next run's simulated days follow this run's
  } finally {
    await demo.close();
  }

  blank();
  const { failed, total } = demo.checks;
  if (failed.length > 0) {
    notice(`✗ ${failed.length} of ${total} claims failed:`, 'bad');
    for (const claim of failed) notice(`  - ${claim}`, 'bad');
    return 1;
  }
  notice(
    `✓ all ${total} claims hold. Memory is in ${demo.dbPath}: run pnpm demo again to start from it.`,
    'good',
  );
  return 0;
}

try {
  process.exitCode = await main();
} catch (error) {
  if (StrataError.isInstance(error) && error.code === 'invalid_input') {
    console.error(`${error.message}\n\n${USAGE}`);
    process.exitCode = 2;
  } else {
    console.error(error);
    process.exitCode = 1;
  }
}
