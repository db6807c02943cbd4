import { RELATION_WORDS } from '../text/relations.ts';
import type { Clause } from './clauses.ts';
import { commerceFacts } from './commerce-patterns.ts';
import { decisionFrom } from './decision-patterns.ts';
import { tagPhrase } from './english-model.ts';
import { GROUP_ENTITY, SPEAKER_ENTITY, UNRESOLVED_ENTITY } from './entity-references.ts';
import {
  cleanPhrase,
  isEntityPhrase,
  isValidKey,
  isValidValue,
  stripDeterminers,
  words,
} from './noun-phrases.ts';
import { ruleFacts } from './rule-patterns.ts';
import {
  abstentionFacts,
  choiceTopic,
  isJobTitle,
  leadingProperName,
  moreSpeakerFacts,
  preferenceClause,
} from './speaker-statements.ts';
import { stateFacts } from './state-patterns.ts';
import { parseSubject, properOwner } from './subject-phrases.ts';
import { tentativeFacts } from './tentative-values.ts';
import { cleanValue } from './value-phrases.ts';
import { verbFacts, versionFacts } from './verb-patterns.ts';

/**
 * Fact statements the rules extractor recognises, one clause at a time:
 *
 * - "my name is Maria" · "call me Maria"
 * - "my/our <attribute> is <value>" · "<Entity>'s <attribute> is <value>"
 * - "the <attribute> for/of/from/by <Entity> is <value>" · "<Entity> <attribute> is <value>"
 * - "<Name> is my/our <role>" (stored as the role's value)
 * - payments and prices: "<Entity> are paid <terms>", "we pay <Entity> <terms>", "<Name> quoted
 *   <amount> for <item>" (see `commerce-patterns.ts`)
 * - threshold rules: "approvals above 50,000 USD need sign-off" (see `rule-patterns.ts`)
 * - decisions: "we chose X over Y for Z because R" (see `decision-patterns.ts`)
 * - attributes stated with a verb: "<Thing> opens at 6 am", "<Thing> is managed by <Name>",
 *   "<Thing> has 1,200 pallet spaces" (see `verb-patterns.ts`)
 * - questions, what-ifs, plans, hedges and quotes: the value proposed, for review (see
 *   `tentative-values.ts`)
 * - "<subject> changed to <value>" and other explicit updates
 * - "I prefer X [over Y] [for Z]"
 * - in a what-if or conditional: "<actor> extended <attribute> to <value>", "<subject> was <value>",
 *   "we paid <Entity> <terms>" (kind `hypothetical`, always reviewed)
 *
 * Values are kept exactly as written ("$4,200", "45 days", "net 60"), without a trailing clause
 * ("net 30, laptops and monitors included" → "net 30"; see `value-phrases.ts`).
 */

export interface FactCandidate {
  entityType: string;
  entity: string;
  key: string;
  value: string;
  confidence: number;
  kind: 'statement' | 'correction' | 'hypothetical';
  /** True when the entity was named in the sentence. */
  named: boolean;
  evidence: string;
}

export interface FactPatternContext {
  knownEntities: ReadonlySet<string>;
}

const COPULA =
  /^(.+?)\s+(?:(?:is|are)\s+(?:now\s+)?(?:up|down)\s+to(?=\s+[$€£¥]?\d)|(?:comes|come|came|amounts|amount|works out)\s+(?:to|at)(?=\s+[$€£¥]?\d)|is|are|will be|is now|are now|has changed to|have changed to|changed to|was changed to|has been changed to|went up to|went down to|has gone up to|has gone down to|increased to|has increased to|decreased to|has decreased to|dropped to|has dropped to|rose to|has risen to|moved to|has moved to|slipped to|has slipped to|changes to|will change to|fell to|has fallen to|climbed to|has climbed to|jumped to|has jumped to|grew to|has grown to|is set to|are set to|has been set to|has been updated to|was updated to|is updated to|(?:was|were|has been|have been|is being|is now)\s+(?:raised|lowered|increased|decreased|reduced|cut|extended|shortened|moved|pushed|bumped|revised|adjusted|reset|lifted|brought|doubled|halved|tripled|trimmed|hiked|postponed|delayed|switched)(?:\s+(?:up|down|back))?\s+to)\s+(.+)$/i;
const PARTICIPLE_VALUE =
  /\s(?:is|are)\s+(?:\p{Ll}+(?:ed|en)|kept|set|held|run)\s+(?:until|till|from|at|on|by|every|within)\s/u;
const HYPOTHETICAL_COPULA = /^(.+?)\s+(?:is|are|was|were|became|went to|goes to)\s+(.+)$/i;
const HYPOTHETICAL_LEAD =
  /^(?:what if|suppose|supposing|imagine|hypothetically|let'?s say|say|in case|assuming|assume|if)\b\s*(?:that\s+)?/i;
/** What follows a proposed value and is not part of it: a condition, a purpose, a time to come. */
const HYPOTHETICAL_TAIL = /\s+(?:if|unless|when|instead|then|for|next|later|soon|this|by then)\b.*$/i;
const MOVED_TO = /^(.+?)\s+(?:moved|switched|upgraded|downgraded|changed|went)\s+(?:back\s+)?to\s+(.+)$/i;
const CHANGE_TO =
  /^(?:(we|i|they|you|he|she)\s+)?(?:\w+\s+)?(?:extend|extended|change|changed|raise|raised|lower|lowered|increase|increased|reduce|reduced|set|cut|move|moved|bump|bumped|push|pushed|drop|dropped|shorten|shortened|lengthen|lengthened|update|updated|make|made|upgrade|upgraded|downgrade|downgraded)\s+(.+?)\s+to\s+(.+)$/i;
const NAME_IS =
  /^(?:my name is|my name's|i am called|i'm called|(?:please\s+|just\s+)?call me|i go by|you can call me|everyone calls me|people call me|my friends call me|friends call me)\s+(.+)$/i;
const PREFER =
  /^i\s+(?:really\s+|strongly\s+|much\s+|generally\s+|usually\s+)?(?:prefer|would prefer|'d prefer|would rather have)\s+(.+?)(?:\s+(?:over|to|rather than|instead of)\s+(.+?))?(?:\s+for\s+(.+?))?$/i;

/** Nouns naming a recurring or planned event: "the board meeting", "the fire drill", "sprint planning". */
const EVENT_NOUNS =
  /^(?:meeting|review|drill|planning|standup|stand-up|all-hands|offsite|sync|retro|retrospective|demo|workshop|training|audit|inspection|interview|webinar|kickoff|kick-off|party|dinner|ceremony|conference|summit|check-in)$/i;
const TIMING = /^(?:every|each|daily|nightly|weekly|monthly|quarterly|yearly|annually|on|at|in|from)\b/i;

/**
 * "The board meeting is on 12 June", "The fire drill is every six months": an event's timing is
 * its own attribute (`schedule` when it recurs, else `date` or `time`). The event must be named
 * by more than its kind ("the meeting is at 4 pm" names no event and stays unowned).
 */
function eventTiming(subject: string, stated: string): Omit<FactCandidate, 'kind' | 'evidence'> | null {
  const rawValue = stated.trim().replace(/^(?:now|currently|still)\s+/i, '');
  const name = stripDeterminers(subject);
  const tokens = words(name);
  const head = tokens[tokens.length - 1] ?? '';
  const modified = tokens.length >= 2 || head.includes('-');
  if (!modified || tokens.length > 4 || !EVENT_NOUNS.test(head) || !TIMING.test(rawValue.trim())) return null;
  if (!/^the\s/i.test(subject) && !/^\p{Lu}/u.test(name)) return null;
  const value = cleanValue(rawValue.replace(/^(?:on|at|in)\s+/i, ''));
  if (!isValidValue(value)) return null;
  const recurring =
    /^(?:every|each|daily|nightly|weekly|monthly|quarterly|yearly|annually)\b|\b(?:every|each)\b/i.test(
      value,
    );
  const key = recurring
    ? 'schedule'
    : /\b(?:am|pm|noon|midnight|\d{1,2}:\d{2})\b/i.test(value)
      ? 'time'
      : 'date';
  return { entityType: 'entity', entity: name, key, value, confidence: 0.8, named: true };
}

/**
 * Words too vague to be a value elsewhere ("it is done", "we are ready") are the value of a
 * status: "the Helix migration status is done".
 */
function isStatusValue(subject: string, value: string): boolean {
  return (
    /\b(?:status|state|stage|phase)$/i.test(cleanPhrase(subject)) &&
    /^(?:done|ready|pending|tbd|complete|completed|finished|blocked|on hold|cancelled|canceled)$/i.test(value)
  );
}

/** "X is A and Y is B", "it is SAT, my home airport is SAT" → two parts; a lone "and" inside a value stays. */
function copulaParts(text: string): string[] {
  const parts = text.split(
    /\s*(?:,\s*|;\s*)?(?:\band\b|\bbut\b|\bwhile\b)\s+(?=[^,]*?\b(?:is|are)\b)|,\s+(?=(?:my|our|the|its|their)\s[^,]*?\b(?:is|are)\b)/i,
  );
  return parts.every((p) => /\b(?:is|are)\b/i.test(p)) ? parts : [text];
}

/** "My name is Ada and I live in Porto", "I am Grace, I run …": each statement about the speaker on its own. */
const AND_I = /,?\s+(?:and|but)\s+(?=I\s)|,\s+(?=I\s)/;

const LIVE_IN =
  /^I\s+(?:(?:now\s+|currently\s+|still\s+)?live|am (?:now\s+|currently\s+)?living|have been living|have lived|have been based|am based|am located|reside|moved|have moved|relocated|have relocated|am based out of)\s+(?:in|to|out of)?\s*(\p{Lu}.+)$/iu;
const WORK_AS = /^I\s+work\s+as\s+(?:an?\s+)?(.+?)(?:\s+(?:at|for)\s+(.+))?$/i;
const WORK_AT = /^I\s+work\s+(?:at|for)\s+(.+)$/i;
const DIETS =
  /^I\s+am\s+(?:a\s+)?(vegetarian|vegan|pescatarian|pescetarian|keto|paleo|gluten-free|dairy-free|lactose-free|[a-z]+\s+intolerant|kosher|halal|teetotal)(?=$|,|\s+(?:who|that|but|at the moment|for now|now|these days|nowadays)\b)/i;
/** "I am Elena", "I am Elena, the new office manager": a name the model tags as one, then a role. */
const I_AM_NAME =
  /^I\s+am\s+(\p{Lu}[\p{L}'’-]+(?:\s+\p{Lu}[\p{L}'’-]+)?)(?:,\s+((?:the|your|a|an)\s+)?(.+))?$/u;
const ROLE_AT = /^(.+?)\s+(?:over\s+)?(?:at|with)\s+(\p{Lu}.*)$/u;
/** "I am a nurse": one noun after the article is what the speaker does. */
const I_AM_A = /^I\s+am\s+an?\s+(\p{Ll}+)$/u;
const MY_PRONOUNS = /^my\s+pronouns\s+are\s+(\p{L}+\/\p{L}+(?:\/\p{L}+)?)$/iu;

/** What the speaker says of themselves: where they live, their work, their diet. */
function speakerFacts(text: string): Omit<FactCandidate, 'kind' | 'evidence'>[] | null {
  const live = LIVE_IN.exec(text);
  if (live) {
    const place = leadingProperName(live[1]!);
    return place
      ? [{ ...SPEAKER_ENTITY, key: 'home city', value: place, confidence: 0.9, named: false }]
      : [];
  }
  const workAs = WORK_AS.exec(text);
  if (workAs) {
    const out: Omit<FactCandidate, 'kind' | 'evidence'>[] = [];
    const title = cleanValue(workAs[1]!);
    if (isValidValue(title) && words(title).length <= 4) {
      out.push({ ...SPEAKER_ENTITY, key: 'job title', value: title, confidence: 0.9, named: false });
    }
    const employer = workAs[2] ? leadingProperName(workAs[2]) : undefined;
    if (employer)
      out.push({ ...SPEAKER_ENTITY, key: 'employer', value: employer, confidence: 0.9, named: false });
    return out;
  }
  const workAt = WORK_AT.exec(text);
  if (workAt) {
    const employer = leadingProperName(workAt[1]!);
    return employer
      ? [{ ...SPEAKER_ENTITY, key: 'employer', value: employer, confidence: 0.9, named: false }]
      : [];
  }
  const diet = DIETS.exec(text);
  if (diet)
    return [{ ...SPEAKER_ENTITY, key: 'diet', value: diet[1]!.toLowerCase(), confidence: 0.9, named: false }];
  const pronouns = MY_PRONOUNS.exec(text);
  if (pronouns) {
    return [{ ...SPEAKER_ENTITY, key: 'pronouns', value: pronouns[1]!, confidence: 0.9, named: false }];
  }
  return nameAndRole(text) ?? moreSpeakerFacts(text);
}

/** Someone the speaker names by how they are related: "my sister", "my older brother". */
const RELATIVE = new RegExp(
  `^my\\s+((?:little|older|younger|big|eldest|oldest|youngest|twin)\\s+)?(${RELATION_WORDS})\\s+(is|has|lives|works|speaks|drives|moved)\\b\\s*(.*)$`,
  'i',
);
const FIRST_PERSON: Readonly<Record<string, string>> = {
  is: 'am',
  has: 'have',
  lives: 'live',
  works: 'work',
  speaks: 'speak',
  drives: 'drive',
  moved: 'moved',
};

/**
 * What the speaker says of a relative is said as they would say it of themselves, keyed by the
 * relation: "My sister lives in Lisbon" → sister home city = Lisbon, "my mum is allergic to
 * penicillin" → mum allergy = penicillin. A name ("my brother is Tom") is left to the patterns
 * that read a role's holder.
 */
function relativeFacts(text: string): Omit<FactCandidate, 'kind' | 'evidence'>[] | null {
  const match = RELATIVE.exec(text);
  const verb = match ? FIRST_PERSON[match[3]!.toLowerCase()] : undefined;
  if (!match || !verb || (verb === 'am' && /^\p{Lu}/u.test(match[4]!))) return null;
  const relation = `${match[1] ?? ''}${match[2]!}`.toLowerCase();
  const facts = speakerFacts(`I ${verb} ${match[4]!}`)?.filter((f) => f.entity === SPEAKER_ENTITY.entity);
  if (!facts || facts.length === 0) return null;
  return facts.map((f) => ({ ...f, key: `${relation} ${f.key}` }));
}

/** "I am Elena[, the new office manager]", "I am a nurse". */
function nameAndRole(text: string): Omit<FactCandidate, 'kind' | 'evidence'>[] | null {
  const bare = text.replace(/[.!]+$/, '');
  const named = I_AM_NAME.exec(bare);
  if (named) {
    const [, name, article, role] = named;
    // "I am Italian" is an adjective, "I am Elena" a name: the model decides, read in lower case too.
    const asName = tagPhrase(`I am ${name}`).slice(2);
    const asWord = tagPhrase(`I am ${name!.toLowerCase()}`).slice(2);
    if (!asName.every((t) => t.pos === 'PROPN') || asWord.some((t) => t.pos === 'ADJ')) return null;
    const out = [{ ...SPEAKER_ENTITY, key: 'name', value: name!, confidence: 0.9, named: false }];
    // "lead producer over at Pixelforge Games": the role, then where it is held.
    const held = role ? ROLE_AT.exec(cleanValue(role)) : null;
    const title = held ? held[1]! : role ? cleanValue(role) : '';
    // With an article any noun phrase is the role ("the new office manager"); without one, a job's words.
    const role_ = article ? tagPhrase(title).at(-1)?.pos === 'NOUN' : isJobTitle(title);
    if (title && words(title).length <= 4 && role_) {
      out.push({ ...SPEAKER_ENTITY, key: 'job title', value: title, confidence: 0.85, named: false });
      const employer = held ? leadingProperName(held[2]!) : undefined;
      if (employer)
        out.push({ ...SPEAKER_ENTITY, key: 'employer', value: employer, confidence: 0.8, named: false });
    }
    return out;
  }
  const occupation = I_AM_A.exec(bare);
  if (occupation && tagPhrase(`I am a ${occupation[1]!}`).at(-1)?.pos === 'NOUN') {
    return [{ ...SPEAKER_ENTITY, key: 'job title', value: occupation[1]!, confidence: 0.85, named: false }];
  }
  return null;
}

/**
 * The thing preferred, without what follows it: "aisle seats near the front" → "aisle seats",
 * "aisle seats and extra legroom" → "aisle seats", "quiet rooms away from the lift" → "quiet rooms".
 */
function leadingChoice(phrase: string): string {
  const tokens = tagPhrase(phrase);
  const end = tokens.findIndex(
    (t, i) =>
      i > 0 &&
      (/^(?:ADP|CCONJ|SCONJ|PUNCT)$/.test(t.pos) ||
        (/^(?:ADV|ADJ)$/.test(t.pos) && tokens[i + 1]?.pos === 'ADP')),
  );
  if (end < 0) return phrase;
  return tokens
    .slice(0, end)
    .map((t) => t.text)
    .join(' ')
    .replace(/\s+(['’]s)\b/g, '$1');
}

/** "aisle seats" → "seat", "Marriott hotels" → "hotel": the head noun a preference is about, singular. */
function preferenceTopic(choice: string): string | undefined {
  const tags = tagPhrase(choice).filter((t) => t.pos !== 'DET');
  const head = tags.at(-1)?.pos === 'NOUN' ? tags.at(-1)!.text.toLowerCase() : undefined;
  // A bare noun ("email") is the choice itself; a modified one ("a standing desk") is a kind of its head.
  if (!head || tags.length < 2) return undefined;
  return head.length > 3 && head.endsWith('s') && !head.endsWith('ss') ? head.slice(0, -1) : head;
}

/** "went from 45 days to 30 days", "we cut the lead time from 45 to 30 days": the old value is not stated as held. */
const FROM_TO =
  /^(.+?\s(?:went|gone|changed|moved|rose|risen|fell|fallen|dropped|jumped|increased|decreased|grew|grown|cut|raised|lowered|reduced|extended|shortened|pushed|bumped|switched|shifted)(?:\s+(?:up|down|back))?(?:\s+(?:the|our|my|its|their)\s[^,]+?)?)\s+from\s+(?:[^,]|,(?=\d))+?\s+to\s+(.+)$/i;

const SWITCHED_TO_DOING =
  /^(.+?)\s+(?:has\s+|have\s+)?(?:switched|moved|changed|gone|went)\s+(?:over\s+)?to\s+(\p{Ll}{2,})ing\s+(.+)$/u;

/**
 * "Apex Cloud switched to billing us monthly" → "Apex Cloud bills us monthly": what is done now,
 * read as the statement of it (the change itself makes the clause a correction, see `clauses.ts`).
 */
function doingInstead(text: string): string {
  if (!/\bto\s+\p{Ll}+ing\s/u.test(text)) return text;
  const match = SWITCHED_TO_DOING.exec(text);
  if (!match) return text;
  let stem = match[2]!;
  // "shipping" → "ship", but "billing" → "bill"; "invoicing" → "invoice".
  if (/([b-df-hj-km-rt-y])\1$/.test(stem)) stem = stem.slice(0, -1);
  else if (/(?:[cvz]|[^aeiou]g|[^aeiou]at|[^aeiou]ur)$/.test(stem)) stem += 'e';
  const verb = /(?:s|x|z|ch|sh)$/.test(stem)
    ? `${stem}es`
    : /[^aeiou]y$/.test(stem)
      ? `${stem.slice(0, -1)}ies`
      : `${stem}s`;
  return `${match[1]} ${verb} ${match[3]}`;
}

/** "Helen Ashby replaces Sipho Dlamini as our grant officer": the role is the newcomer's. */
const REPLACES_AS =
  /^(.+?)\s+(?:replaces|replaced|is replacing|has replaced|will replace|takes over from|took over from|has taken over from)\s+.+?\s+as\s+((?:the|our|my|their)\s+.+)$/i;
/** Verbs a person does a thing with, as the participle a passive would use: "Kwame chairs the jury". */
const ROLE_VERBS: Record<string, string> = {
  chairs: 'chaired',
  chairing: 'chaired',
  leads: 'led',
  leading: 'led',
  manages: 'managed',
  managing: 'managed',
  owns: 'owned',
  runs: 'run',
  running: 'run',
  covers: 'covered',
  covering: 'covered',
  coordinates: 'coordinated',
  coordinating: 'coordinated',
  organises: 'organised',
  organizes: 'organized',
  organising: 'organised',
  organizing: 'organized',
  maintains: 'maintained',
  hosts: 'hosted',
  hosting: 'hosted',
  oversees: 'overseen',
  overseeing: 'overseen',
  supervises: 'supervised',
  coaches: 'coached',
  coaching: 'coached',
};
const PERSON_DOES =
  /^(\p{Lu}[\p{L}'’-]+(?:\s+\p{Lu}[\p{L}'’-]+){0,2})\s+(?:now\s+|also\s+)?(?:is\s+(?:now\s+)?)?(\p{Ll}+)\s+(the\s+.+)$/u;

/** "Kwame Asante chairs the shorts jury" → "the shorts jury is chaired by Kwame Asante", read as that. */
function personFirst(written: string): string {
  // "it is Tegan Lloyd who chairs the board": the cleft says "Tegan Lloyd chairs the board".
  const text = written.replace(
    /^it\s+is\s+(\p{Lu}[\p{L}'’-]*(?:\s+\p{Lu}[\p{L}'’-]*){0,2})\s+who\s+/u,
    '$1 ',
  );
  const replaced = REPLACES_AS.exec(text);
  if (replaced) return `${replaced[2]} is ${replaced[1]}`;
  const does = PERSON_DOES.exec(text.replace(/[.!]+$/, ''));
  const participle = does ? ROLE_VERBS[does[2]!.toLowerCase()] : undefined;
  if (!does || !participle) return text;
  const person = tagPhrase(does[1]!);
  if (!person.every((t) => t.pos === 'PROPN')) return text;
  const thing = does[3]!.replace(/\s+(?:now|again|from\s+\p{Lu}\p{Ll}+|instead)$/u, '');
  return `${thing} is ${participle} by ${does[1]}`;
}

function statementFacts(text: string, ctx: FactPatternContext): Omit<FactCandidate, 'kind' | 'evidence'>[] {
  // "Name's Oksana Petrenko, sales manager at Northgate Motors": the name, then a role, as "I am … , …" says them.
  text = personFirst(text).replace(
    /^(?:my name is|my name's|the name is|the name's|name is|name's)\s+(?=\p{Lu}[^,]*,\s)/iu,
    'I am ',
  );
  const fromTo = FROM_TO.exec(text);
  if (fromTo) text = `${fromTo[1]!.replace(/\s(?:went|gone)$/i, ' changed')} to ${fromTo[2]!}`;
  text = doingInstead(text);
  if (AND_I.test(text)) return text.split(AND_I).flatMap((part) => statementFacts(part, ctx));
  const speaker = relativeFacts(text) ?? speakerFacts(text);
  if (speaker) return speaker;
  const name = NAME_IS.exec(text);
  if (name) {
    const value = cleanValue(name[1]!);
    const tokens = words(value);
    if (tokens.length >= 1 && tokens.length <= 4 && tokens.every((t) => /^\p{Lu}/u.test(t))) {
      return [{ ...SPEAKER_ENTITY, key: 'name', value, confidence: 0.95, named: false }];
    }
    return [];
  }

  const prefer = PREFER.exec(preferenceClause(text));
  if (prefer) {
    const choice = cleanValue(leadingChoice(prefer[1]!));
    const topic = prefer[3] ? stripDeterminers(prefer[3]) : undefined;
    if (!isValidValue(choice) || words(choice).length > 6) return [];
    // Set against an alternative, the kind of the two names the preference ("email over calls" →
    // contact) before what it is for ("trains to planes for short trips" → travel).
    const kind = choiceTopic(choice) ?? (prefer[2] ? choiceTopic(prefer[2]) : undefined);
    const head = preferenceTopic(choice);
    const purpose = topic && isValidKey(topic) && !(kind && prefer[2]) ? topic : undefined;
    const key = purpose
      ? `preference for ${purpose.toLowerCase()}`
      : kind
        ? `${kind} preference`
        : head
          ? `${head} preference`
          : `preference: ${choice.toLowerCase()}`;
    // The choice is the preference; what it was chosen over is not a value of it.
    return [{ ...SPEAKER_ENTITY, key, value: choice, confidence: 0.9, named: false }];
  }

  const decision = decisionFrom(text, ctx.knownEntities);
  if (decision) return decision.facts;
  const commerce = commerceFacts(text, ctx.knownEntities);
  if (commerce) return commerce;
  const rule = ruleFacts(text, ctx.knownEntities);
  if (rule) return rule;
  const state = stateFacts(text);
  if (state) return state;
  const version = versionFacts(text, ctx.knownEntities);
  if (version) return version;

  // "The help desk is staffed until 8 pm": a participle and its preposition are the attribute.
  if (PARTICIPLE_VALUE.test(text)) {
    const stated = verbFacts(text, ctx.knownEntities);
    if (stated) return stated;
  }
  const out: Omit<FactCandidate, 'kind' | 'evidence'>[] = [];
  let lastNamed: { entityType: string; entity: string } | undefined;
  for (const part of copulaParts(text)) {
    const match = COPULA.exec(part);
    if (!match) continue;
    let subject = match[1]!;
    // "X's lead time is 45 days and their terms are net 60": "their" is X, named earlier in the sentence.
    const pronoun = /^(?:their|its)\s+(.+)$/i.exec(cleanPhrase(subject));
    if (pronoun) {
      if (!lastNamed) continue;
      subject = `${lastNamed.entity}'s ${pronoun[1]!}`;
    }
    const value = cleanValue(match[2]!);
    if (!isValidValue(value) && !isStatusValue(subject, value)) continue;
    // "is holding up the sign-off": a verb in progress is something done, not a value.
    const first = words(value)[0] ?? '';
    if (first === 'being' || (/^\p{Ll}+ing$/u.test(first) && tagPhrase(value)[0]?.pos === 'VERB')) continue;

    // "<Name> is our account manager" → our account manager = <Name>.
    const role = /^(my|our)\s+(.+)$/i.exec(value);
    if (role) {
      const holder = stripDeterminers(subject);
      const key = cleanPhrase(role[2]!).toLowerCase();
      if (!isValidKey(key)) continue;
      if (!isEntityPhrase(holder, { knownEntities: ctx.knownEntities, atSentenceStart: false })) continue;
      const owner = role[1]!.toLowerCase() === 'my' ? SPEAKER_ENTITY : GROUP_ENTITY;
      out.push({ ...owner, key, value: holder, confidence: 0.85, named: false });
      continue;
    }

    // "Priya Nair is the head of engineering": a person's role.
    const roleOf = /^(?:the|a|an)\s+(?:new\s+|current\s+|interim\s+|acting\s+)?(.+)$/i.exec(value);
    const personName = stripDeterminers(subject);
    const person = roleOf && isJobTitle(roleOf[1]!) ? tagPhrase(personName) : [];
    if (roleOf && person.length >= 1 && person.length <= 3 && person.every((t) => t.pos === 'PROPN')) {
      out.push({
        entityType: 'entity',
        entity: personName,
        key: 'role',
        value: roleOf[1]!,
        confidence: 0.85,
        named: true,
      });
      continue;
    }
    const event = eventTiming(subject, match[2]!);
    if (event) {
      out.push(event);
      continue;
    }
    const parsed = parseSubject(subject, { knownEntities: ctx.knownEntities, atSentenceStart: true, value });
    if (!parsed) continue;
    if (parsed.named) lastNamed = { entityType: parsed.entityType, entity: parsed.entity };
    out.push({ ...parsed, value });
  }
  if (out.length > 0) return out;
  const change = statedChange(text);
  if (change) {
    // "We upgraded the staging cluster to Kubernetes 1.30": the version it is on now.
    const version = versionFacts(`${change.subject} is on ${change.value}`, ctx.knownEntities);
    if (version) return version;
    // Only an owner the sentence names: "we moved the team to Berlin" says where, not what.
    const changed = statementFacts(`${change.subject} is ${change.value}`, ctx).filter(
      (f) => f.entity !== UNRESOLVED_ENTITY,
    );
    if (changed.length > 0) return changed;
  }
  return verbFacts(text, ctx.knownEntities) ?? [];
}

const STATED_CHANGE =
  /^(we|i|they|(?:\p{Lu}[\p{L}\p{N}&.-]*\s+){0,3}\p{Lu}[\p{L}\p{N}&.-]*)\s+(?:have\s+|has\s+|just\s+)?(?:moved|changed|pushed|shifted|rescheduled|raised|lowered|increased|decreased|reduced|cut|extended|shortened|updated|bumped|upgraded|downgraded|doubled|halved|slashed|hiked|trimmed|postponed|delayed|switched)\s+(.+?)\s+to\s+(.+)$/u;

/**
 * A change stated as done, read as the new value: "We moved the board meeting to 19 June" states
 * the board meeting is on 19 June; "Kestrel Metals changed the deposit to 10%" states Kestrel
 * Metals' deposit is 10% (a named actor owns "the …" it changed).
 */
function statedChange(text: string): { subject: string; value: string } | undefined {
  const match = STATED_CHANGE.exec(text.replace(/[.!]+$/, ''));
  if (!match) return undefined;
  const [, actor, phrasal, stated] = match;
  // "bumped our budget up to $45,000": the particle belongs to the verb.
  const changed = phrasal!.replace(/\s+(?:up|down|back|forward|out)$/i, '');
  // "I changed my mind to be honest": a value is a thing, not a verb.
  const first = tagPhrase(stated!)[0];
  if (!first || first.pos === 'VERB' || first.pos === 'AUX' || first.pos === 'PART') return undefined;
  const pronoun = /^(?:we|i|they)$/i.test(actor!);
  const owned = /^(?:the|its|their)\s+(.+)$/i.exec(changed!);
  const subject = pronoun || !owned ? changed! : `${actor}'s ${owned[1]!}`;
  // An event moved to a day or an hour is on it: "moved the board meeting to 19 June".
  const head = words(stripDeterminers(subject)).at(-1) ?? '';
  const value = EVENT_NOUNS.test(head) && !TIMING.test(stated!) ? `on ${stated}` : stated!;
  return { subject, value };
}

function hypotheticalFacts(
  text: string,
  ctx: FactPatternContext,
): Omit<FactCandidate, 'kind' | 'evidence'>[] {
  const body = text
    .replace(HYPOTHETICAL_LEAD, '')
    .replace(/[?!.]+$/, '')
    .trim();
  // "what if we paid IT equipment vendors net 45?" / "…if hardware vendors were paid net 45?"
  const commerce = commerceFacts(
    body.replace(/^we\s+paid\b/i, 'we pay').replace(/^(.+?)\s+were\s+paid\b/i, '$1 are paid'),
    ctx.knownEntities,
  );
  if (commerce && commerce.length > 0) return commerce.map((f) => ({ ...f, confidence: 0.3 }));
  // "If Hooli downgraded to the starter plan": a named party moving to a plan, a tier, a place.
  const moved = MOVED_TO.exec(body);
  if (moved) {
    const value = cleanValue(moved[2]!.replace(HYPOTHETICAL_TAIL, ''));
    const head = words(value).at(-1)?.toLowerCase() ?? '';
    const owner = properOwner(moved[1]!, ctx.knownEntities);
    if (
      owner &&
      isValidValue(value) &&
      /^(?:plan|tier|package|subscription|edition|licence|license|contract)$/.test(head)
    ) {
      return [{ ...owner, key: head, value, confidence: 0.3, named: true }];
    }
  }
  const change = CHANGE_TO.exec(body);
  if (change) {
    const actor = change[1]?.toLowerCase();
    const value = cleanValue(change[3]!.replace(HYPOTHETICAL_TAIL, ''));
    if (!isValidValue(value)) return [];
    const parsed = parseSubject(change[2]!, {
      knownEntities: ctx.knownEntities,
      atSentenceStart: false,
      value,
    });
    if (parsed && parsed.entity !== UNRESOLVED_ENTITY) return [{ ...parsed, value, confidence: 0.3 }];
    const key = stripDeterminers(change[2]!).toLowerCase();
    if (!isValidKey(key)) return [];
    const owner =
      actor === 'we'
        ? GROUP_ENTITY
        : actor === 'i'
          ? SPEAKER_ENTITY
          : { entityType: 'entity', entity: UNRESOLVED_ENTITY };
    return [{ ...owner, key, value, confidence: 0.3, named: false }];
  }
  const copula = HYPOTHETICAL_COPULA.exec(body);
  if (copula) {
    const value = cleanValue(copula[2]!.replace(HYPOTHETICAL_TAIL, ''));
    if (!isValidValue(value)) return [];
    const parsed = parseSubject(copula[1]!, {
      knownEntities: ctx.knownEntities,
      atSentenceStart: true,
      value,
    });
    if (parsed) return [{ ...parsed, value, confidence: 0.3 }];
  }
  return [];
}

/**
 * The facts one clause states. Plain questions and negated sentences state none; hypotheticals
 * yield `hypothetical` candidates; hedged statements come back with low confidence (so they are
 * reviewed, not stored).
 */
export function factsFromClause(clause: Clause, ctx: FactPatternContext): FactCandidate[] {
  const tentative = () =>
    tentativeFacts(clause.factText, ctx.knownEntities).map((f) => ({
      ...f,
      kind: 'hypothetical' as const,
      evidence: clause.original,
    }));
  if (clause.hypothetical) {
    const found = hypotheticalFacts(clause.factText, ctx).map((f) => ({
      ...f,
      kind: 'hypothetical' as const,
      evidence: clause.original,
    }));
    return found.length > 0 ? found : tentative();
  }
  // Questions, plans and quoted words propose a value at most: reviewed, never stored.
  if (clause.question || clause.tentative || clause.quoted) return tentative();
  const stated = clause.negated ? abstentionFacts(clause.factText) : statementFacts(clause.factText, ctx);
  // A hedge whose statement the patterns cannot read still proposes its value.
  if (stated.length === 0) return clause.hedged ? tentative() : [];
  return stated.map((f) => ({
    ...f,
    confidence: clause.hedged ? Math.min(f.confidence, 0.5) : clause.correction ? 0.95 : f.confidence,
    kind: clause.correction ? 'correction' : 'statement',
    evidence: clause.original,
  }));
}
