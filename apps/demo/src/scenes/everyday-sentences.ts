import { type FactAbout, recalledFacts } from '../answers.ts';
import { ada } from '../cast.ts';
import type { Demo } from '../demo.ts';
import { label, narrate, quote, sceneTitle } from '../print.ts';
import { claimNoLargerThanHistory, openSession } from '../session.ts';

/** What Ada's plain sentences should leave in her profile, and the value each must hold. */
const PROFILE: Array<FactAbout & { value: string }> = [
  { entity: 'ada', key: 'name', value: 'Ada' },
  { entity: 'ada', key: 'home city', value: 'Porto' },
  { entity: 'ada', key: 'diet', value: 'vegetarian' },
];

/**
 * Scene 10. Nobody fills in a profile form: Ada says who she is in everyday language, the rules
 * extractor turns it into facts about her (name, home city, diet), and a later question is
 * answered from those facts. Saying a thing again confirms the fact instead of adding another.
 */
export async function everydaySentences(demo: Demo): Promise<void> {
  const { clock, checks } = demo;
  sceneTitle(10, 'Everyday sentences become facts about the speaker');
  narrate('Ada joins the finance team and introduces herself to the agent:');

  clock.laterDays(1);
  const intro = openSession(demo, ada, 'ada-1');
  await intro.says('My name is Ada and I live in Porto.');
  await intro.says("I'm vegetarian.");

  clock.laterDays(2);
  const lunch = openSession(demo, ada, 'ada-2');
  await lunch.says('I live in Porto');
  const context = await lunch.asks('Can you book the team lunch for me?', PROFILE);
  label('explain() — why each item is in the block, or left out:');
  quote(String(context.explain()));

  const wrong = PROFILE.filter((expected) => {
    const [recalled] = recalledFacts(context, expected);
    return recalled?.fact.value !== expected.value || recalled.fact.provenance.source !== 'extraction';
  });
  checks.claim(
    "Ada's name, home city and diet were read from her sentences and are in the agent's context",
    wrong.length === 0,
    `missing or wrong: ${wrong.map((f) => `${f.key} (expected ${f.value})`).join(', ')}`,
  );
  const homeCity = recalledFacts(context, PROFILE[1] as FactAbout);
  checks.claim(
    'saying "I live in Porto" again confirmed the fact instead of adding another',
    homeCity.length === 1 && homeCity[0]?.fact.version === 1,
    `recalled: ${homeCity.map((f) => `v${f.fact.version} ${String(f.fact.value)}`).join(', ') || 'nothing'}`,
  );
  claimNoLargerThanHistory(demo, [context]);
}
