import { QUANTITY_ENTITY_TYPES, readText, spanText, type Token, tagPhrase } from './english-model.ts';
import { UNRESOLVED_ENTITY } from './entity-references.ts';
import {
  cleanPhrase,
  isEntityPhrase,
  isPronoun,
  isValidKey,
  isValidValue,
  type PatternFact,
  stripDeterminers,
  words,
} from './noun-phrases.ts';
import { isThingNoun, parseSubject } from './subject-phrases.ts';
import { cleanValue } from './value-phrases.ts';

/**
 * Attributes stated with a verb instead of "is", keyed by the verb as written:
 *
 *   "The Rotterdam depot opens at 6 am."                   → Rotterdam depot · opens = 6 am
 *   "Vendor Orion's support contract renews on the first of each quarter."
 *                                                          → Orion · support contract renews = first of each quarter
 *   "The Madrid hub is managed by Sofia Ruiz."             → Madrid hub · managed by = Sofia Ruiz
 *   "Invoice INV-2240 was paid on 2 August."               → INV-2240 · paid on = 2 August
 *   "The Leeds warehouse has 1,200 pallet spaces."         → Leeds warehouse · pallet spaces = 1,200 pallet spaces
 *
 * The value must be a quantity the English model recognises (a date, time, amount, percentage,
 * duration, count), a frequency ("every 12 months", "nightly at 2 am", "quarterly"), or, after a
 * passive "by", a name. Anything else ("The team uses Slack", "Ana runs the meeting") is left to
 * the relation patterns or not read at all.
 */

const FREQUENCY =
  /^(?:every|each|hourly|daily|nightly|weekly|fortnightly|biweekly|monthly|quarterly|yearly|annually|twice|once)\b/i;
/** Prepositions that only introduce the value ("opens at 6 am"); others stay in the key ("delivers within"). */
const PLAIN_PREPOSITION = /^(?:at|on|in)$/i;

/** Who does it, for a passive with "by": "managed by Sofia Ruiz" is the manager. */
const AGENT_NOUNS: Record<string, string> = {
  managed: 'manager',
  owned: 'owner',
  led: 'lead',
  maintained: 'maintainer',
  operated: 'operator',
  sponsored: 'sponsor',
};
/** Verbs whose attribute has a noun of its own: "costs $29" is the price. */
const VERB_NOUNS: Record<string, string> = {
  costs: 'price',
  weighs: 'weight',
  opens: 'opening time',
  closes: 'closing time',
  departs: 'departure time',
  arrives: 'arrival time',
  happens: 'schedule',
  occurs: 'schedule',
  seats: 'capacity',
  charges: 'price',
  bills: 'billing frequency',
};
/** What a thing's own document or plan does on its date, as a noun: "renews its licence" → "licence renewal". */
const OWN_VERB_NOUNS: Record<string, string> = {
  renews: 'renewal',
  expires: 'expiry',
  ends: 'end date',
  starts: 'start date',
  reviews: 'review',
  updates: 'update',
  rotates: 'rotation',
};

const ADVERB_BEFORE_VERB =
  /\s+(?:now|still|currently|also|usually|normally|typically|only|already|always|actually|really|just)\s+(?=\p{Ll}+s\b)/u;

const ACTIVE =
  /^(.+?)\s+(\p{Ll}+(?:s|es))\s+(?:(at|on|in|from|within|until|before|after|by|for|around)\s+)?(.+)$/u;
const PASSIVE =
  /^(.+?)\s+(?:is|are|was|were|has been|have been|is being|are being|gets?|got)\s+(?:now\s+|still\s+|currently\s+)?(\p{Ll}+(?:ed|en|id|t))\s+(by|on|at|in|until|from|for|within|every)\s+(.+)$/u;
const HAS =
  /^(.+?)\s+(?:has|have)\s+((?:about|around|over|under|nearly|almost|roughly)\s+)?(\d[\d,.]*)\s+(.+)$/i;

/**
 * "requires a 20% deposit", "charges a $50 fee", "offers a 15% discount": a share or an amount of
 * a thing the verb asks for or gives; the thing is the attribute.
 */
const SHARE_OF =
  /^(.+?)\s+(?:requires|require|needs|need|charges|charge|takes|take|offers|offer|gives|give|has|have)\s+(?:an?\s+)?((?:[$€£¥]\s?\d[\d,.]*(?:\s?(?:k|m|million|billion))?)|(?:\d[\d,.]*\s?(?:%|percent)))\s+(\p{Ll}[\p{Ll}-]*(?:\s+\p{Ll}[\p{Ll}-]*){0,2})$/u;
/** "has a lead time of 45 days", "has payment terms of net 30": the attribute, then its value. */
const HAS_OF =
  /^(.+?)\s+(?:has|have)\s+(?:an?\s+)?(\p{Ll}[\p{Ll}-]*(?:\s+\p{Ll}[\p{Ll}-]*){0,2})\s+of\s+(.+)$/u;
/** A verb with a noun of its own, tagged as a noun, still reads as a verb before an amount: "the plan costs $29". */
const OPENS_WITH_AMOUNT = /^(?:(?:about|around|roughly|approximately|nearly|almost|over|under)\s+)?[$€£¥\d]/i;

/** A noun, with modifiers before it ("lead time": the model may read "lead" as a verb there). */
function isNounPhrase(phrase: string): boolean {
  const tags = tagPhrase(phrase);
  return (
    tags.at(-1)?.pos === 'NOUN' && tags.slice(0, -1).every((t) => /^(?:NOUN|ADJ|VERB|PROPN)$/.test(t.pos))
  );
}

/** People counted are a headcount: "has 45 people", "employs 32 staff". */
const PEOPLE = /^(?:people|persons|employees|staff|staff members|workers|full-time employees|FTEs?)$/i;

/** "3,000 parcels a day", "about 400 tickets per week": a count in a period. */
const RATE =
  /^(?:(?:about|around|roughly|approximately|nearly|almost|over|under|up to)\s+)?\d[\d,.]*\s+(\p{Ll}+(?:\s+\p{Ll}+)?)\s+(?:a|an|per|each|every)\s+(second|minute|hour|day|night|shift|week|month|quarter|year)$/u;

/** Words a quantity can be made of without a digit: checked before the model reads the value. */
const MAYBE_QUANTITY =
  /\d|\b(?:every|each|hourly|daily|nightly|weekly|fortnightly|biweekly|monthly|quarterly|yearly|annually|twice|once|first|last|second|third|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|hundred|thousand|million|noon|midnight|(?:mon|tues|wednes|thurs|fri|satur|sun)days?|january|february|march|april|may|june|july|august|september|october|november|december)\b/i;

/** "6 am", "$29 per month", "every 12 months", "the first of each quarter": a value worth a key. */
export function isQuantity(value: string): boolean {
  if (!MAYBE_QUANTITY.test(value)) return false;
  if (FREQUENCY.test(value)) return true;
  // "the first of each quarter", "the 25th of every month".
  if (
    /^(?:the\s+)?(?:first|last|second|third|\d+(?:st|nd|rd|th))\s+(?:of|day|week|weekday|monday|tuesday|wednesday|thursday|friday)\b/i.test(
      value,
    )
  ) {
    return true;
  }
  const read = readText(value);
  const first = read.entities.find((e) => QUANTITY_ENTITY_TYPES.has(e.type));
  if (!first) return /^(?:the\s+)?(?:first|last|second|third|\d+(?:st|nd|rd|th))\b/i.test(value);
  // The quantity must open the value: "about 35 euros", "$29 per month", not "the team in 3 cities".
  const before = first.start === 0 ? '' : spanText(read, 0, first.start - 1);
  return /^(?:|about|around|roughly|approximately|nearly|almost|over|under|up to|[$€£¥])$/i.test(
    before.trim(),
  );
}

/** "Vendor Orion" → "Orion": a kind before a name is not part of it. */
function untyped(name: string): string {
  const typed = /^(?:vendor|customer|client|partner)\s+(\p{Lu}.*)$/iu.exec(name);
  return typed && /^\p{Lu}/u.test(typed[1]!) ? typed[1]! : name;
}

/** Who owns the attribute: an entity with an attribute ("Orion's support contract"), or a thing alone. */
function owner(
  subject: string,
  known: ReadonlySet<string>,
): { entityType: string; entity: string; key?: string; named: boolean } | undefined {
  // "Our Hackney route" is the Hackney route.
  const phrase = cleanPhrase(subject).replace(/^our\s+(?=\p{Lu})/iu, 'the ');
  const first = words(phrase)[0];
  if (!first || isPronoun(first)) return undefined;
  const parsed = parseSubject(phrase, { knownEntities: known, atSentenceStart: true, value: '1' });
  // "The Rotterdam depot": the name and its kind are one thing, not an owner and an attribute.
  // So is "The Orion support contract" (but not "Orion's support contract"): a key that ends in
  // a kind of thing names the thing.
  const thingAlone =
    parsed !== null &&
    (words(parsed.key).length === 1 || !/['’]s\s/.test(phrase)) &&
    isThingNoun(words(parsed.key).at(-1) ?? '');
  if (parsed && !thingAlone && parsed.entity !== UNRESOLVED_ENTITY && parsed.named) {
    return { entityType: parsed.entityType, entity: untyped(parsed.entity), key: parsed.key, named: true };
  }
  const thing = untyped(stripDeterminers(phrase));
  const definite = /^the\s/i.test(phrase) || /\p{Lu}/u.test(thing);
  if (!definite || words(thing).length > 5) return undefined;
  if (!isEntityPhrase(thing, { knownEntities: known, allowLowercase: true, atSentenceStart: false })) {
    return undefined;
  }
  // The subject must be a noun phrase: "the team usually meets" is not a thing and a verb.
  if (tagPhrase(thing).some((t) => t.pos === 'VERB' || t.pos === 'AUX' || t.pos === 'PRON')) return undefined;
  return { entityType: 'entity', entity: thing, named: true };
}

function fact(
  who: { entityType: string; entity: string; key?: string; named: boolean },
  verbKey: string,
  value: string,
): PatternFact[] {
  const key = (who.key ? `${who.key} ${verbKey}` : verbKey).toLowerCase();
  if (!isValidKey(key)) return [];
  return [{ entityType: who.entityType, entity: who.entity, key, value, confidence: 0.8, named: who.named }];
}

/** After a plural noun the first reading took for the verb: its verb, a preposition, the value. */
const VERB_AFTER_PLURAL =
  /^(\p{Ll}+)\s+(?:(at|on|in|from|within|until|before|after|by|for|around)\s+)?(.+)$/u;

/** The noun of a verb in either number: "costs" and "cost" are the price. */
function nounOfVerb(nouns: Record<string, string>, verb: string): string | undefined {
  const word = verb.toLowerCase();
  return nouns[word] ?? (/s$/.test(word) ? undefined : (nouns[`${word}s`] ?? nouns[`${word}es`]));
}

interface ActiveReading {
  subject: string;
  verb: string;
  preposition: string | undefined;
  said: string;
  /** The clause's tokens, when reading it was needed to place the verb. */
  tokens?: Token[];
}

/** The active reading; a plural noun the first reading took for the verb belongs to the subject. */
function activeVerb(text: string): ActiveReading | null {
  const first = ACTIVE.exec(text);
  if (!first) return null;
  const [, subject, verb, preposition, said] = first as unknown as [
    string,
    string,
    string,
    string | undefined,
    string,
  ];
  const reading = { subject, verb, preposition, said };
  // Without a quantity after it no reading yields a fact, so the clause need not be read.
  if (VERB_NOUNS[verb.toLowerCase()] || !MAYBE_QUANTITY.test(said)) return reading;
  const tokens = readText(text).tokens;
  const at = tokens.findIndex((t, i) => i > 0 && t.text === verb);
  if (tokens[at]?.pos !== 'NOUN' || tokens[at + 1]?.pos !== 'VERB') return { ...reading, tokens };
  // "The Atlas certificates | expire on …": the noun joins the subject, the word after it is the verb.
  const after = VERB_AFTER_PLURAL.exec(preposition ? `${preposition} ${said}` : said);
  if (!after) return reading;
  return { subject: `${subject} ${verb}`, verb: after[1]!, preposition: after[2], said: after[3]!, tokens };
}

/** The attribute a verb states, or null when the clause is not of that shape. */
export function verbFacts(text: string, known: ReadonlySet<string>): PatternFact[] | null {
  const passive = PASSIVE.exec(text);
  if (passive) {
    const [, subject, participle, preposition, rest] = passive;
    // "replaced by", "blocked by": a relation between two things, read as an edge instead.
    if (/^(?:replaced|superseded|blocked|affected|impacted)$/i.test(participle!)) return null;
    const value = cleanValue(rest!);
    const byName =
      preposition!.toLowerCase() === 'by' &&
      isEntityPhrase(stripDeterminers(value), {
        knownEntities: known,
        allowLowercase: /^the\s/i.test(value),
      });
    const full = preposition!.toLowerCase() === 'every' ? `every ${value}` : value;
    if (!byName && !isQuantity(full)) return null;
    const who = owner(subject!, known);
    if (!who) return null;
    const agent = byName ? AGENT_NOUNS[participle!.toLowerCase()] : undefined;
    const verbKey =
      agent ?? `${participle} ${preposition!.toLowerCase() === 'every' ? '' : preposition}`.trim();
    return fact(who, verbKey, full);
  }
  const share = SHARE_OF.exec(text.replace(/[.!]+$/, ''));
  // "charges $50 per hour" is no share of a thing: the active reading below keys it by the verb.
  if (share && isNounPhrase(share[3]!)) {
    const [, subject, amount, noun] = share;
    const who = owner(subject!, known);
    return who ? fact({ ...who, key: undefined }, noun!, amount!) : null;
  }
  const hasOf = HAS_OF.exec(text.replace(/[.!]+$/, ''));
  if (hasOf) {
    const [, subject, attribute, rest] = hasOf;
    const value = cleanValue(rest!);
    if (!/\d/.test(value) || !isValidValue(value)) return null;
    if (!isNounPhrase(attribute!)) return null;
    const who = owner(subject!, known);
    return who ? fact({ ...who, key: undefined }, attribute!, value) : null;
  }
  const has = HAS.exec(text);
  if (has) {
    const [, subject, approx, count, rest] = has;
    const noun = cleanValue(rest!);
    const tags = tagPhrase(noun);
    if (tags.length === 0 || tags.length > 3 || !tags.every((t) => t.pos === 'NOUN' || t.pos === 'ADJ')) {
      return null;
    }
    const who = owner(subject!, known);
    if (!who) return null;
    const key = PEOPLE.test(noun) ? 'headcount' : noun;
    return fact({ ...who, key: undefined }, key, `${approx ?? ''}${count} ${noun}`);
  }
  const clause = text.replace(ADVERB_BEFORE_VERB, ' ');
  const active = activeVerb(clause);
  if (!active) return null;
  const { subject, verb, preposition, said } = active;
  // "bills us monthly": who the verb is done to is not part of the value.
  const rest = said.replace(/^(?:us|me|them|you|him|her)\s+(?=\S)/i, '');
  // "renews its licence every 12 months": the thing of its own is the attribute.
  const own = /^(?:its|their)\s+(\p{Ll}+(?:\s+\p{Ll}+)??)\s+(.+)$/u.exec(rest);
  if (own && preposition === undefined && isNounPhrase(own[1]!) && isQuantity(cleanValue(own[2]!))) {
    const who = owner(subject, known);
    const what = nounOfVerb(OWN_VERB_NOUNS, verb) ?? verb.toLowerCase();
    return who ? fact({ ...who, key: undefined }, `${own[1]} ${what}`, cleanValue(own[2]!)) : null;
  }
  // "includes 10 GB of storage": the counted thing is the attribute.
  const counted = /^(\d[\d,.]*\s*\p{L}*)\s+of\s+(\p{Ll}+(?:\s+\p{Ll}+)?)$/u.exec(cleanValue(rest));
  const value = cleanValue(rest);
  if (!MAYBE_QUANTITY.test(value)) return null;
  // The word must read as a verb in its sentence, or as a plural-looking noun followed by a
  // preposition: the model reads "… support contract renews on …" as a noun phrase.
  // The clause as written is read (an adverb before the verb changes its tag); reuse a reading of it.
  const tokens = active.tokens && clause === text ? active.tokens : readText(text).tokens;
  const tagged = tokens.find((t, i) => i > 0 && t.text === verb)?.pos;
  const noun = nounOfVerb(VERB_NOUNS, verb);
  // Before an amount, or before whom it is done to ("bills us monthly"), it is the verb.
  const amountAfterNoun = noun !== undefined && (OPENS_WITH_AMOUNT.test(value) || rest !== said);
  if (tagged !== 'VERB' && !(tagged === 'NOUN' && (preposition !== undefined || amountAfterNoun)))
    return null;
  if (!isQuantity(value)) return null;
  const who = owner(subject, known);
  if (!who) return null;
  if (counted) return fact({ ...who, key: undefined }, counted[2]!, counted[1]!);
  if (/^(?:has|employs)$/.test(verb) && PEOPLE.test(value.replace(/^[\d,.]+\s+/, ''))) {
    return fact({ ...who, key: undefined }, 'headcount', value);
  }
  // "handles 3,000 parcels a day", "processes 3,000 parcels per day": what is counted per period,
  // whichever verb does the counting.
  const rate = RATE.exec(value);
  if (rate && isNounPhrase(rate[1]!))
    return fact({ ...who, key: undefined }, `${rate[1]} per ${rate[2]}`, value);
  // "charges $4,200 per tonne of aluminium": what is priced names the price.
  const priced =
    noun === 'price' ? /^(.+?\s+per\s+\p{L}+)\s+of\s+(\p{Ll}+(?:\s+\p{Ll}+)?)$/u.exec(value) : null;
  if (priced) return fact({ ...who, key: undefined }, `${priced[2]} price`, priced[1]!);
  // "Demurrage at Antwerp Gateway runs €85 per day": the amount is what the attribute comes to.
  if (/^(?:runs|run|comes|come)$/i.test(verb) && OPENS_WITH_AMOUNT.test(value) && who.key) {
    return fact({ ...who, key: undefined }, who.key, value);
  }
  const keyed =
    noun ?? (preposition && !PLAIN_PREPOSITION.test(preposition) ? `${verb} ${preposition}` : verb);
  return fact(who, keyed, value);
}

const VERSION =
  /^(.+?)\s+(?:runs|now runs|is running|is now running|runs on|now runs on|is on|is now on|was upgraded to|has been upgraded to|is upgraded to|was moved to|has moved to|moved to)\s+(\p{Lu}[\p{L}+#-]*(?:\s+\p{Lu}[\p{L}+#-]*)?)\s+v?(\d+(?:\.\d+){0,3}(?:\.x)?)$/u;

/**
 * "The staging cluster runs Kubernetes 1.29", "… was upgraded to Kubernetes 1.30": the version of
 * a named product a thing runs, keyed by the product so every phrasing of it is one attribute.
 */
export function versionFacts(text: string, known: ReadonlySet<string>): PatternFact[] | null {
  const match = VERSION.exec(text.replace(/[.!]+$/, ''));
  if (!match) return null;
  const [, subject, product, version] = match;
  const who = owner(subject!, known);
  return who ? fact({ ...who, key: undefined }, `${product} version`, version!) : null;
}
