import { tagPhrase } from './english-model.ts';
import { GROUP_ENTITY, SPEAKER_ENTITY, UNRESOLVED_ENTITY } from './entity-references.ts';
import {
  cleanPhrase,
  DETERMINERS,
  entityName,
  isAcronym,
  isCapitalized,
  isComponentName,
  isEntityPhrase,
  isPronoun,
  isValidKey,
  stripDeterminers,
  words,
} from './noun-phrases.ts';

/**
 * Who owns an attribute, read from the subject of a statement: "my email", "our budget",
 * "Supplier X's lead time", "the lead time for Supplier X", "the quote from Supplier X for the
 * steel beams", "Supplier X lead time", "the supplier Acme". Unclear subjects give null.
 */

/**
 * Common nouns that type the proper name they precede ("the supplier Acme", "project Atlas").
 * Nouns that also open component names ("client SDK", "service API") are not on the list.
 */
const TYPE_NOUNS = new Set(
  'supplier vendor customer partner contractor subcontractor carrier distributor manufacturer wholesaler company project team'.split(
    ' ',
  ),
);

/**
 * The entity a name phrase refers to, with its type. A name carries no type of its own: "Supplier
 * X" is an `entity` (typing it `supplier` would only repeat the name's first word, and it would
 * read "supplier supplier x"). A type comes from a lower-case common noun placed before a
 * capitalised name, outside it: "the supplier Acme" / "our vendor Globex" → `supplier` Acme.
 */
export function ownerOf(phrase: string): { entityType: string; entity: string } {
  const typed = typedName(phrase);
  return typed ? { entityType: typed.type, entity: typed.name } : { entityType: 'entity', entity: phrase };
}

function typedName(phrase: string): { type: string; name: string } | null {
  const tokens = words(entityName(phrase));
  if (tokens.length < 2 || tokens.length > 5) return null;
  const noun = tokens[0]!;
  if (!/^\p{Ll}/u.test(noun) || !TYPE_NOUNS.has(noun)) return null;
  const rest = tokens.slice(1);
  if (!rest.every((t) => isCapitalized(t) || /^(?:of|de|van|von|&)$/.test(t)) || isPronoun(rest[0]!)) {
    return null;
  }
  const name = rest.join(' ');
  if (isComponentName(name)) return null;
  return { type: noun, name };
}

/**
 * Common nouns that, after a proper name, name a thing of that name rather than an attribute of
 * it: "Berlin warehouse", "Atlas project", "Lisbon offsite" (but "Zenith | maintenance window").
 */
const THING_NOUNS = new Set(
  'warehouse office hub depot site plant factory store shop branch campus building room team department division unit squad group project programme program initiative offsite event conference summit meeting standup workshop trip tour account contract plan tier product release launch migration rollout upgrade fleet network region page website portal queue desk line route'.split(
    ' ',
  ),
);

/** True for a noun that names a kind of thing ("warehouse", "team", "service"), not an attribute. */
export function isThingNoun(word: string): boolean {
  return THING_NOUNS.has(word.toLowerCase()) || isComponentName(word);
}

export interface SubjectParse {
  entityType: string;
  /** Display name, `speaker`/`we` references, or '' when the owner is not named. */
  entity: string;
  key: string;
  /** True when the entity was named in the phrase (not a participant reference or unresolved). */
  named: boolean;
  /** How clear the split into entity and attribute was. */
  confidence: number;
}

/**
 * The entity a phrase names when it is a proper name: a capitalised or known name (even opening
 * a sentence: "Acme's …", "Supplier X quoted …"), or a type noun before one ("the supplier Acme").
 * Null for plain noun phrases and pronouns.
 */
export function properOwner(
  phrase: string,
  known: ReadonlySet<string>,
): { entityType: string; entity: string } | null {
  const typed = typedName(phrase);
  if (typed && isEntityPhrase(typed.name, { knownEntities: known, atSentenceStart: false })) {
    return { entityType: typed.type, entity: typed.name };
  }
  const name = stripDeterminers(phrase);
  if (/^(?:my|our|your|his|her|their|its)\b/i.test(name)) return null;
  // A capitalised owner reads as a name even at the start of a sentence ("Acme's").
  return isEntityPhrase(name, { knownEntities: known, atSentenceStart: false })
    ? { entityType: 'entity', entity: name }
    : null;
}

const OWNER_PREPOSITION = /\s+(for|of|from|by|at|with)\s+/gi;
/** Where an owner's name may end and a qualifier of the attribute begin: "Supplier X | for the steel beams". */
const QUALIFIER = /\s+(?=(?:for|of|on|in|at|per)\s)/i;

/**
 * "Log retention for …": an attribute opening a sentence is capitalised only there, so it reads
 * as one when its other words are lower case, its first is no name memory holds, and it reads as a
 * common word in lower case.
 */
function opensWithCommonWord(attribute: string, known: ReadonlySet<string>): boolean {
  const tokens = words(attribute);
  if (tokens.length === 0 || tokens.slice(1).some(isCapitalized) || isAcronym(tokens[0]!)) return false;
  if (known.has(tokens[0]!.toLowerCase())) return false;
  const lower = tagPhrase(tokens.map((t) => t.toLowerCase()).join(' '));
  return lower[0]?.pos === 'NOUN' || lower[0]?.pos === 'ADJ';
}

/**
 * "the <attribute> for/of/from/by <Owner> [<qualifier>]": the owner and the attribute, with a
 * qualifier after the owner kept in the attribute ("the quote from Supplier X for the steel beams"
 * → Supplier X · quote for the steel beams). `from`/`by` name an owner only before a value that
 * is a number or an amount ("the quote from Supplier X is $4,200", not "the email from Maria is
 * urgent" or "… is dated 3 May").
 */
function prepositionalOwner(
  subject: string,
  options: { knownEntities: ReadonlySet<string>; concreteValue: boolean },
): SubjectParse | null | undefined {
  const body = subject.replace(/^(?:the|a|an|this|that)\s+/i, '');
  const splits = [...body.matchAll(OWNER_PREPOSITION)];
  if (splits.length === 0) return undefined;
  const capitalizedAttribute = !/^the\s/i.test(subject);
  for (const split of splits) {
    const preposition = split[1]!.toLowerCase();
    if ((preposition === 'from' || preposition === 'by') && !options.concreteValue) continue;
    // "Check-in at the Hotel Miramar": "at" names an owner by its name only.
    const atName = preposition === 'at' || preposition === 'with';
    const attribute = body.slice(0, split.index);
    if (capitalizedAttribute && !opensWithCommonWord(attribute, options.knownEntities)) return null;
    const rest = body.slice(split.index + split[0].length);
    const ownerWords = stripDeterminers(rest);
    if (/^(?:us|our team|our company)$/i.test(ownerWords)) return keyed(GROUP_ENTITY, attribute, 0.85);
    if (/^me$/i.test(ownerWords)) return keyed(SPEAKER_ENTITY, attribute, 0.85);
    const whole = properOwner(rest, options.knownEntities);
    if (whole) return named(whole, attribute, 0.9);
    if (atName) continue;
    const qualified = QUALIFIER.exec(rest);
    if (qualified) {
      const owner = properOwner(rest.slice(0, qualified.index), options.knownEntities);
      if (owner) return named(owner, `${attribute} ${rest.slice(qualified.index).trim()}`, 0.9);
    }
  }
  // A plain noun phrase owns the attribute only right after the first "for"/"of":
  // "the lead time for billing".
  const first = splits[0]!;
  const preposition = first[1]!.toLowerCase();
  if (preposition === 'for' || preposition === 'of') {
    const owner = stripDeterminers(body.slice(first.index + first[0].length));
    if (
      isEntityPhrase(owner, {
        knownEntities: options.knownEntities,
        allowLowercase: true,
        atSentenceStart: false,
      })
    ) {
      return named({ entityType: 'entity', entity: owner }, body.slice(0, first.index), 0.8);
    }
  }
  return null;
}

/**
 * Splits the subject of "<subject> is <value>" into the entity and the attribute:
 * "my email" · "our budget" · "Supplier X's lead time" · "the lead time for Supplier X" ·
 * "the quote from Supplier X" · "Supplier X lead time" · "the lead time" (owner unresolved).
 * Returns null when unclear. `value` is what the subject is said to be (it decides whether
 * "from"/"by" may name an owner).
 */
export function parseSubject(
  rawSubject: string,
  options: { knownEntities: ReadonlySet<string>; atSentenceStart: boolean; value?: string },
): SubjectParse | null {
  const subject = cleanPhrase(rawSubject);
  const known = options.knownEntities;

  // "Kestrel Metals' payment terms": a plural name's possessive is an apostrophe alone.
  const possessive = /^(.+?)(?:['’]s|(?<=\p{L}s)['’])\s+(.+)$/u.exec(subject);
  // "our supplier Acme's lead time": the typed name owns it, not "our".
  const typed = possessive ? typedName(possessive[1]!) : null;
  if (possessive && typed && isEntityPhrase(typed.name, { knownEntities: known, atSentenceStart: false })) {
    return named({ entityType: typed.type, entity: typed.name }, possessive[2]!, 0.9);
  }

  const mine = /^my\s+(.+)$/i.exec(subject);
  if (mine) return keyed(SPEAKER_ENTITY, withPartyFirst(mine[1]!), 0.9);
  const ours = /^our\s+(.+)$/i.exec(subject);
  // "Our Hackney route", "our Berlin warehouse cutoff": a thing we have by its name is that thing.
  if (ours && /^\p{Lu}/u.test(ours[1]!) && !isAcronym(words(ours[1]!)[0]!)) {
    const thing = parseSubject(`the ${ours[1]!}`, { ...options, atSentenceStart: false });
    if (thing?.named) return thing;
  }
  if (ours) {
    // "our contact at Brightline", "our discount with Acme": what we have with a named party is its.
    const party = /^(.+?)\s+(?:with|at)\s+(.+)$/i.exec(ours[1]!);
    const owner = party ? properOwner(party[2]!, known) : null;
    return owner ? named(owner, party![1]!, 0.9) : keyed(GROUP_ENTITY, ours[1]!, 0.9);
  }

  if (possessive && TIME_WORDS.test(stripDeterminers(possessive[1]!))) {
    return keyed({ entityType: 'entity', entity: UNRESOLVED_ENTITY }, possessive[2]!, 0.8);
  }
  if (possessive) {
    const owner = properOwner(possessive[1]!, known) ?? thingOwner(possessive[1]!);
    return owner ? named(owner, possessive[2]!, 0.9) : null;
  }

  const prepositional = prepositionalOwner(subject, {
    knownEntities: known,
    concreteValue: /^(?:[$€£¥]\s?)?\d/.test(options.value ?? ''),
  });
  if (prepositional !== undefined) return prepositional;

  const tokens = words(subject.replace(DETERMINERS, ''));
  // "Print deadline is 9:30 pm", "Circulation is down to 11,200": a common noun phrase opening the
  // sentence without "the" is an attribute without its owner, as "the print deadline" is.
  const bare =
    options.atSentenceStart &&
    tokens.length >= 2 &&
    tokens.length <= 3 &&
    !known.has(tokens[0]?.toLowerCase() ?? '') &&
    opensWithCommonWord(subject, known);
  // A known entity's name followed by the attribute: "supplier x lead time".
  for (let n = Math.min(tokens.length - 1, 6); n >= 1; n--) {
    const head = tokens.slice(0, n).join(' ');
    if (known.has(head.toLowerCase())) {
      return named({ entityType: 'entity', entity: head }, tokens.slice(n).join(' '), 0.85);
    }
  }
  // A capitalised run followed by lower-case attribute words: "Supplier X lead time".
  let run = 0;
  while (run < tokens.length && isCapitalized(tokens[run]!)) run += 1;
  if (run > 0 && run < tokens.length) {
    // One proper name before two or more common nouns names a thing, not an owner: "Berlin
    // warehouse | shipping cutoff", "Atlas project | deadline" (the parts of speech decide).
    // Not after an acronym or a code ("API | rate limit", "Q2 | revenue target").
    const plainName = !isAcronym(tokens[0]!) && !/\d/.test(tokens[0]!);
    const thing =
      run === 1 &&
      plainName &&
      tokens.length - run >= 2 &&
      tagPhrase(tokens.join(' '))[run]?.pos === 'NOUN' &&
      (THING_NOUNS.has(tokens[run]!.toLowerCase()) || isComponentName(tokens[run]!));
    if (thing) run += 1;
    const head = tokens.slice(0, run).join(' ');
    const atStart = options.atSentenceStart && !/^the\s/i.test(subject);
    const name = thing ? tokens[0]! : head;
    if (isEntityPhrase(name, { knownEntities: known, atSentenceStart: atStart })) {
      return named({ entityType: 'entity', entity: head }, tokens.slice(run).join(' '), 0.8);
    }
    return bare ? keyed({ entityType: 'entity', entity: UNRESOLVED_ENTITY }, tokens.join(' '), 0.8) : null;
  }
  // "the payments service SLA", "the engineering offsite budget": a thing, then its attribute.
  if (/^the\s/i.test(subject) && run === 0) {
    const lower = tokens.map((t) => t.toLowerCase());
    let thing = -1;
    // A bare "meeting room" or "launch date" is one attribute: the thing must be modified itself.
    for (let i = tokens.length - 2; i >= 1 && thing < 0; i--) {
      if (THING_NOUNS.has(lower[i]!) || isComponentName(lower[i]!)) thing = i;
    }
    if (thing >= 0) {
      const parsed = named(
        { entityType: 'entity', entity: tokens.slice(0, thing + 1).join(' ') },
        tokens.slice(thing + 1).join(' '),
        0.8,
      );
      if (parsed) return parsed;
    }
  }
  // "the lead time": an attribute without its owner.
  if ((/^the\s/i.test(subject) && run === 0) || bare) {
    return keyed({ entityType: 'entity', entity: UNRESOLVED_ENTITY }, tokens.join(' '), 0.8);
  }
  return null;
}

/** "Tonight's duty editor", "next week's rota": when, not whose. */
const TIME_WORDS =
  /^(?:today|tonight|tomorrow|yesterday|(?:this|next|last)\s+(?:week|month|year|weekend|quarter|season|morning|evening|monday|tuesday|wednesday|thursday|friday|saturday|sunday))$/i;

/** "the zebrafish project's PI": a thing named by its kind owns what it has ("project", "warehouse"). */
function thingOwner(phrase: string): { entityType: string; entity: string } | null {
  if (!/^the\s/i.test(phrase)) return null;
  const thing = stripDeterminers(phrase);
  const tokens = words(thing);
  if (tokens.length < 2 || tokens.length > 4 || !isThingNoun(tokens.at(-1)!)) return null;
  return tokens.every((t) => /^[\p{Ll}\p{N}-]+$/u.test(t)) ? { entityType: 'entity', entity: thing } : null;
}

/** "my loyalty number with Iberia" → "Iberia loyalty number": the company a personal account is held with names its kind. */
function withPartyFirst(attribute: string): string {
  const held =
    /^(\p{Ll}[\p{Ll}\s-]*?)\s+(?:with|at)\s+((?:\p{Lu}[\p{L}\p{N}&.-]*)(?:\s+\p{Lu}[\p{L}\p{N}&.-]*){0,2})$/u.exec(
      cleanPhrase(attribute),
    );
  return held ? `${held[2]!} ${held[1]!}` : attribute;
}

/** "car's registration" → "car registration": a possessive inside an attribute's name is not part of it. */
const attributeName = (raw: string) =>
  cleanPhrase(raw)
    .toLowerCase()
    .replace(/(?<=\p{L})['’]s(?=\s)/gu, '');

function keyed(entity: { entityType: string; entity: string }, rawKey: string, confidence: number) {
  const key = attributeName(rawKey);
  if (!isValidKey(key)) return null;
  return { entityType: entity.entityType, entity: entity.entity, key, named: false, confidence };
}

function named(
  owner: { entityType: string; entity: string },
  rawKey: string,
  confidence: number,
): SubjectParse | null {
  const key = attributeName(rawKey);
  if (!isValidKey(key)) return null;
  return { entityType: owner.entityType, entity: owner.entity, key, named: true, confidence };
}
