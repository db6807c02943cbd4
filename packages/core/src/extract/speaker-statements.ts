import { tagPhrase } from './english-model.ts';
import { GROUP_ENTITY, SPEAKER_ENTITY } from './entity-references.ts';
import {
  cleanPhrase,
  isValidKey,
  isValidValue,
  type PatternFact,
  stripDeterminers,
  words,
} from './noun-phrases.ts';
import { cleanValue } from './value-phrases.ts';

/**
 * More of what the speaker says of themselves, in the other ways English says it:
 *
 *   "I'm a senior analyst", "I'm now the head teacher" → job title
 *   "I run the finance team"                   → job title = runs the finance team
 *   "I follow a vegan diet", "I'm allergic to peanuts" → diet = vegan, allergy = peanuts
 *   "My passport expires in June 2028"         → passport expiry = June 2028
 *   "The name's Oliver", "This is Tom from accounts" → name
 */

type SpeakerFact = Omit<PatternFact, 'kind' | 'evidence'>;

const speaker = (key: string, value: string, confidence = 0.9): SpeakerFact => ({
  ...SPEAKER_ENTITY,
  key,
  value,
  confidence,
  named: false,
});

/** The proper name a phrase opens with: "Vireo in Oslo" → "Vireo", "St Mary's Hospital in Leeds" → "St Mary's Hospital". */
export function leadingProperName(phrase: string): string | undefined {
  const run: string[] = [];
  // What follows the name: after "Acme's" a noun makes it an owner ("Acme's office").
  let owned = false;
  for (const token of tagPhrase(cleanPhrase(phrase))) {
    if (run.length > 0 && /^['’]s$/.test(token.text)) {
      run[run.length - 1] += token.text;
      continue;
    }
    const inName = run.length > 0 && (/^(?:of|de|da|do|&)$/i.test(token.text) || /^\p{Lu}/u.test(token.text));
    if (token.pos !== 'PROPN' && !inName) {
      owned = /^(?:NOUN|ADJ|NUM)$/.test(token.pos);
      break;
    }
    run.push(token.text);
  }
  // "Sainsbury's", "St Mary's", "McDonald's on weekends": the name itself.
  while (
    run.length > 0 &&
    (/^(?:of|de|da|do|&)$/i.test(run.at(-1)!) || (owned && /['’]s$/.test(run.at(-1)!)))
  )
    run.pop();
  return run.length > 0 ? run.join(' ') : undefined;
}

/** The last word of a job: "engineer", "nurse", "CTO". */
const JOB_SUFFIX = /(?:er|or|ist|ian|ant|ent|ect|ive)$/i;
const JOB_WORDS = new Set(
  'nurse chef pilot head lead chief clerk agent analyst architect intern student trainee founder cofounder co-founder partner secretary professor lecturer tutor surgeon dentist paramedic'.split(
    ' ',
  ),
);
/** Words with a job's ending that name no job: "I'm a member", "I'm a morning person". */
const NOT_JOB_WORDS = new Set(
  'member customer user beginner newcomer number fan parent resident patient client winner loser other mother father brother sister owner lover believer talker sleeper riser eater drinker smoker'.split(
    ' ',
  ),
);

/** A job by its words: "data engineer", "CTO", "head of operations" (judged by what comes before "of"). */
export function isJobTitle(title: string): boolean {
  const of = /^(.+?)\s+of\s+\S/i.exec(title);
  if (of) return isJobTitle(of[1]!);
  const tokens = words(title);
  const head = tokens.at(-1) ?? '';
  if (tokens.length === 0 || tokens.length > 4 || NOT_JOB_WORDS.has(head.toLowerCase())) return false;
  if (/^\p{Lu}{2,4}$/u.test(head)) return tokens.length === 1;
  if (!JOB_WORDS.has(head.toLowerCase()) && !JOB_SUFFIX.test(head)) return false;
  return tagPhrase(title).every((t) => /^(?:NOUN|ADJ|PROPN|VERB)$/.test(t.pos));
}

const I_AM_JOB = /^I\s+am\s+(?:now\s+)?(?:an?|the)\s+(.+?)(?:\s+(at|with|for)\s+(\p{Lu}.*))?$/u;

/**
 * "I'm a senior product designer at Klarna", "I'm the CTO": the job, and the named organisation
 * it is held at as the employer, with less confidence than "I work at" gives it (a hospital, a
 * site or a client is named the same way).
 */
function jobFacts(text: string): SpeakerFact[] | null {
  const job = I_AM_JOB.exec(text);
  if (!job) return null;
  const title = cleanValue(job[1]!);
  if (!isJobTitle(title)) return null;
  const out = [speaker('job title', title, 0.85)];
  const employer = job[3] ? leadingProperName(job[3]) : undefined;
  if (employer) out.push(speaker('employer', employer, 0.8));
  return out;
}

/** Units of an organisation a person can run: "the finance team", "our EMEA sales division". */
const UNIT_NOUNS =
  /^(?:team|teams|department|group|unit|division|office|desk|function|practice|programme|program|lab|squad|branch|store|shop|clinic|ward|warehouse|restaurant|kitchen)$/i;
const RUN_UNIT =
  /^I\s+(run|lead|manage|head|head up|oversee|supervise|coordinate)\s+((?:the|our|a)\s+.+?)(?:\s+(?:at|for)\s+(\p{Lu}.*))?$/u;
const THIRD_PERSON: Record<string, string> = { 'head up': 'heads up', oversee: 'oversees' };

function runsUnit(text: string): SpeakerFact[] | null {
  const run = RUN_UNIT.exec(text);
  if (!run) return null;
  const unit = cleanValue(run[2]!);
  const head = words(unit).at(-1) ?? '';
  if (!UNIT_NOUNS.test(head) || words(unit).length > 6) return null;
  const verb = run[1]!.toLowerCase();
  const out = [speaker('job title', `${THIRD_PERSON[verb] ?? `${verb}s`} ${unit}`, 0.85)];
  const employer = run[3] ? leadingProperName(run[3]) : undefined;
  if (employer) out.push(speaker('employer', employer, 0.85));
  return out;
}

const DIET_WORDS =
  /^(vegetarian|vegan|pescatarian|pescetarian|keto|ketogenic|paleo|gluten-free|dairy-free|lactose-free|low-carb|low-fodmap|kosher|halal|plant-based|mediterranean)$/i;
const ON_A_DIET =
  /^I\s+(?:am on|follow|keep|stick to|eat|only eat)\s+(?:an?\s+|a strict\s+)?(\S+)(?:\s+diet)?(?:\s+(?:only|food only|food))?(?=$|,|\s+(?:at the moment|for now|now|these days|nowadays)\b)/i;
const ALLERGIC = /^I\s+am\s+(?:severely\s+|very\s+|mildly\s+)?allergic\s+to\s+(.+)$/i;

function dietFacts(text: string): SpeakerFact[] | null {
  const diet = ON_A_DIET.exec(text);
  if (diet && DIET_WORDS.test(diet[1]!)) return [speaker('diet', diet[1]!.toLowerCase())];
  const allergy = ALLERGIC.exec(text);
  if (allergy) {
    const value = cleanValue(allergy[1]!);
    return isValidValue(value) && words(value).length <= 4 ? [speaker('allergy', value)] : [];
  }
  return null;
}

/** Conditions a person says they have with "I am …": "I'm diabetic", "I'm asthmatic". */
const CONDITIONS =
  /^I\s+am\s+(diabetic|pre-?diabetic|asthmatic|epileptic|coeliac|celiac|anaemic|anemic|hypertensive|colou?r-?blind|deaf|hard of hearing|partially sighted|visually impaired|hearing impaired|pregnant|immunocompromised)$/i;

/** "I speak Russian and English", "I can speak basic Spanish": named languages only. */
const SPEAK = /^I\s+(?:can\s+|also\s+)?speak\s+(.+?)(?:\s+(?:fluently|well|a little))?$/i;

/** "I drive an electric car", "I drive a Volvo XC60": what the speaker drives. */
const DRIVE = /^I\s+(?:now\s+)?drive\s+(?:an?|the)\s+(.+)$/i;

/**
 * "I have a dog named Max", "we've got a van called Betty", "I just adopted a kitten named Miso last
 * week": the name is the capitalised words after "named" or "called".
 */
const NAMED_THING =
  /^(I|[Ww]e)\s+(?:have|have got|got|own|(?:just\s+)?(?:adopted|bought|got))\s+an?\s+(?:new\s+|little\s+|young\s+|old\s+)?(\p{Ll}[\p{Ll}-]*(?:\s+\p{Ll}[\p{Ll}-]*)?)\s+(?:named|called)\s+(\p{Lu}[\p{L}'’-]*(?:\s+\p{Lu}[\p{L}'’-]*)?)(?:\s+\p{Ll}.*)?$/u;

/** What the speaker (or team) has, by the name it goes by: "a dog named Max" → dog name = Max. */
function namedThing(text: string): SpeakerFact[] | null {
  const match = NAMED_THING.exec(text);
  if (!match) return null;
  const thing = match[2]!;
  const tags = tagPhrase(`a ${thing}`).slice(1);
  if (tags.at(-1)?.pos !== 'NOUN' || !tags.every((t) => t.pos === 'NOUN' || t.pos === 'ADJ')) return null;
  const key = `${thing} name`;
  if (!isValidKey(key)) return null;
  const owner = match[1] === 'I' ? SPEAKER_ENTITY : GROUP_ENTITY;
  return [{ ...owner, key, value: match[3]!, confidence: 0.85, named: false }];
}

function personalFacts(text: string): SpeakerFact[] | null {
  const named = namedThing(text);
  if (named) return named;
  const condition = CONDITIONS.exec(text);
  if (condition) return [speaker('medical condition', condition[1]!.toLowerCase())];
  const speak = SPEAK.exec(text);
  if (speak) {
    const tags = tagPhrase(speak[1]!);
    const names = tags.filter((t) => t.pos === 'PROPN');
    const rest = tags.filter(
      (t) => t.pos !== 'PROPN' && !/^(?:and|,|or|some|basic|fluent|conversational|native)$/i.test(t.text),
    );
    return names.length > 0 && rest.length === 0 ? [speaker('languages', cleanValue(speak[1]!))] : null;
  }
  const drive = DRIVE.exec(text);
  if (drive) {
    const vehicle = cleanValue(drive[1]!.replace(/\s+(?:to|into|from|for|every|most|at|on)\s.*$/i, ''));
    const head = tagPhrase(vehicle).at(-1);
    const vehicleLike =
      head &&
      /^(?:NOUN|PROPN|NUM|ADJ)$/.test(head.pos) &&
      !/^(?:lot|bit|little|few|while|way|ways)$/i.test(head.text);
    return vehicleLike && words(vehicle).length <= 4 && isValidValue(vehicle)
      ? [speaker('car', vehicle, 0.85)]
      : null;
  }
  return null;
}

/**
 * What a speaker says they never eat or drink, the one negated statement read as a fact:
 * "I don't eat pork" → diet = no pork.
 */
const ABSTAIN = /^I\s+(?:do not|don't|never|no longer|do not ever)\s+(?:eat|drink|touch)\s+(?:any\s+)?(.+)$/i;

export function abstentionFacts(text: string): SpeakerFact[] {
  const abstain = ABSTAIN.exec(text.replace(/[.!]+$/, ''));
  if (!abstain) return [];
  const food = cleanValue(abstain[1]!);
  const tags = tagPhrase(food);
  if (tags.length === 0 || tags.length > 3 || !tags.every((t) => /^(?:NOUN|ADJ|PROPN)$/.test(t.pos)))
    return [];
  return [speaker('diet', `no ${food.toLowerCase()}`, 0.85)];
}

/** What a date-bound thing does on its date, as the attribute: "expires" → "expiry". */
const DATE_VERBS: Record<string, string> = {
  expires: 'expiry',
  'runs out': 'expiry',
  lapses: 'expiry',
  renews: 'renewal',
  ends: 'end date',
  starts: 'start date',
  begins: 'start date',
};
const MY_THING_ON =
  /^(my|our)\s+(.+?)\s+(expires|runs out|lapses|renews|ends|starts|begins)\s+(?:on|in|at|by)?\s*(.+)$/i;

/** "My passport expires in June 2028": the speaker's (or team's) document and its date. */
function documentDates(text: string): SpeakerFact[] | null {
  const match = MY_THING_ON.exec(text);
  if (!match) return null;
  const thing = stripDeterminers(match[2]!).toLowerCase();
  const value = cleanValue(match[4]!.replace(/^the\s+(?=end|start|beginning)/i, ''));
  const stated = tagPhrase(value)[0];
  if (!stated || !/^(?:NUM|PROPN|NOUN|ADJ)$/.test(stated.pos)) return null;
  const key = `${thing} ${DATE_VERBS[match[3]!.toLowerCase()]!}`;
  if (words(thing).length > 3 || !isValidKey(key) || !isValidValue(value)) return null;
  const owner = match[1]!.toLowerCase() === 'my' ? SPEAKER_ENTITY : GROUP_ENTITY;
  return [{ ...owner, key, value, confidence: 0.85, named: false }];
}

const NAME_LEAD = /^(?:the name's|the name is|name's|this is)\s+/i;
const NAME_THEN = /^(\p{Lu}[\p{L}'’-]+(?:\s+\p{Lu}[\p{L}'’-]+)?)(?:\s+(?:from|here)\b.*)?$/u;

/** "Aurélie here", "Tom here from accounts": a name said the way one opens a call. */
const NAME_HERE = /^(\p{Lu}[\p{L}'’-]+(?:\s+\p{Lu}[\p{L}'’-]+)?)\s+here(?:\s+from\b.*)?$/u;

/** "The name's Oliver", "This is Tom from accounts", "Aurélie here": a name the model tags as one. */
function nameFacts(text: string): SpeakerFact[] | null {
  const lead = NAME_LEAD.exec(text);
  const match = lead ? NAME_THEN.exec(text.slice(lead[0].length)) : NAME_HERE.exec(text);
  if (!match) return null;
  const name = match[1]!;
  // As for "I am Elena": a name the model tags as one, and not a describing word in lower case ("Looky here").
  const asName = tagPhrase(`I am ${name}`).slice(2);
  const asWord = tagPhrase(`I am ${name.toLowerCase()}`).slice(2);
  if (!asName.every((t) => t.pos === 'PROPN') || asWord.some((t) => t.pos === 'ADJ')) return null;
  return [speaker('name', name)];
}

/** "I'm on Eastern Time", "I'm in CET": a time zone by its name or abbreviation. */
const TIME_ZONE =
  /^I\s+am\s+(?:on|in)\s+((?:\p{Lu}[\p{L}]*\s+){0,2}(?:Time|Standard Time|Daylight Time)|(?:UTC|GMT)(?:\s?[+-]\s?\d{1,2}(?::\d{2})?)?|\p{Lu}{2}T|\p{Lu}{1,2}[SD]T)(?:\s+(?:time|time zone))?$/u;
/** "I usually fly out of Gatwick": the airport the speaker flies from is their home airport. */
const FLY_FROM =
  /^I\s+(?:usually\s+|always\s+|normally\s+|mostly\s+)?fly\s+(?:out of|from)\s+(\p{Lu}[\p{L}]*(?:\s+\p{Lu}[\p{L}]*)?)$/u;
/** "I use they/them", "I go by she/her pronouns". */
const USE_PRONOUNS = /^I\s+(?:use|go by)\s+(\p{Ll}+\/\p{Ll}+(?:\/\p{Ll}+)?)(?:\s+pronouns)?$/u;

/** "I prefer to fly with KLM", "I prefer Lufthansa when I fly": the airline, by name. */
const FLY_WITH =
  /^I\s+(?:really\s+|much\s+|always\s+|usually\s+)?(?:prefer|would prefer|like)\s+(?:to\s+fly\s+(?:with|on)\s+(\p{Lu}[\p{L}]*(?:\s+\p{Lu}[\p{L}]*)*)|(\p{Lu}[\p{L}]*(?:\s+\p{Lu}[\p{L}]*)*)\s+when\s+I\s+fly)$/u;

function placeAndTime(text: string): SpeakerFact[] | null {
  const airline = FLY_WITH.exec(text);
  if (airline) return [speaker('preferred airline', airline[1] ?? airline[2]!)];
  const zone = TIME_ZONE.exec(text);
  if (zone) return [speaker('time zone', zone[1]!)];
  const airport = FLY_FROM.exec(text);
  if (airport) return [speaker('home airport', airport[1]!)];
  const pronouns = USE_PRONOUNS.exec(text);
  if (pronouns) return [speaker('pronouns', pronouns[1]!)];
  return null;
}

export function moreSpeakerFacts(text: string): SpeakerFact[] | null {
  const bare = text.replace(/[.!]+$/, '');
  return (
    jobFacts(bare) ??
    runsUnit(bare) ??
    dietFacts(bare) ??
    documentDates(bare) ??
    nameFacts(bare) ??
    placeAndTime(bare) ??
    personalFacts(bare)
  );
}

/** Kinds of choice a preference is about, by the words that name the options. */
const CHOICE_KINDS: Array<[RegExp, string]> = [
  [
    /^(?:e-?mails?|phone|phone calls?|calls?|texts?|texting|text messages?|sms|slack|whatsapp|video calls?|voice ?mail)$/i,
    'contact',
  ],
  [
    /^(?:trains?|planes?|flights?|flying|driving|cars?|buses|bus|coach|coaches|ferry|ferries|rail|taxis?|the train|the bus|the car|the plane)$/i,
    'travel',
  ],
  [/^(?:aisle|window|aisle seats?|window seats?|the aisle|the window)$/i, 'seat'],
];

/** "email" → "contact", "trains" → "travel": the kind of choice a preference is about. */
export function choiceTopic(choice: string): string | undefined {
  const phrase = cleanPhrase(choice)
    .toLowerCase()
    .replace(/^(?:an?|the)\s+/, '');
  return CHOICE_KINDS.find(([pattern]) => pattern.test(phrase))?.[1];
}

/** A verb before the thing chosen: "I'd rather take the train". */
const CHOOSING_VERB = /^(?:take|have|get|use|book|go by|travel by|go with|sit in|sit by|get|receive)\s+/i;
/** "I prefer to travel by train", "I prefer to fly with KLM": the thing chosen, after the verb. */
const PREFER_TO =
  /^(I\s+(?:really\s+|much\s+)?(?:prefer|would prefer|'d prefer))\s+to\s+(?:travel|go|get around|commute|fly)\s+(?:by|on|with)\s+/i;
const RATHER = /^I\s+(?:would|'d)\s+(?:much\s+|really\s+|far\s+)?rather\s+(?:have\s+)?(.+?)\s+than\s+(.+)$/i;
const LIKE_BETTER = /^I\s+(?:like|love|enjoy)\s+(.+?)\s+(?:better than|more than)\s+(.+)$/i;

/** "I'd rather take the train than fly", "I like tea better than coffee" → "I prefer the train over fly". */
export function preferenceClause(text: string): string {
  // "close to", "next to": a place, not the alternative "to" names ("trains to planes").
  const bare = text.replace(/[.!]+$/, '').replace(/\b(?:close|next|near)\s+to\b/gi, 'near');
  if (PREFER_TO.test(bare)) return bare.replace(PREFER_TO, '$1 ');
  const match = RATHER.exec(bare) ?? LIKE_BETTER.exec(bare);
  if (!match) return bare;
  return `I prefer ${match[1]!.replace(CHOOSING_VERB, '')} over ${match[2]!.replace(CHOOSING_VERB, '')}`;
}
