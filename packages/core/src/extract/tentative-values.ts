import { QUANTITY_ENTITY_TYPES, type ReadText, readText, spanText } from './english-model.ts';
import { UNRESOLVED_ENTITY } from './entity-references.ts';
import {
  cleanPhrase,
  isPronoun,
  isValidKey,
  type PatternFact,
  stripDeterminers,
  words,
} from './noun-phrases.ts';
import { parseSubject } from './subject-phrases.ts';

/**
 * What a question, a what-if, a plan, a hedge or a quote puts forward, read from the English
 * model's parse when no statement pattern applies: the value proposed (a date, time, amount,
 * percentage, duration, count, frequency, or a name something would move to) and the attribute it
 * would be the value of (the noun phrase before it). It is never a fact: the caller marks it
 * hypothetical (or low-confidence), so memory keeps it as a review item carrying its sentence.
 *
 *   "Is the Lisbon offsite budget $40,000?"             → Lisbon offsite · budget ? $40,000
 *   "We plan to move the all-hands to Thursdays."       → all-hands ? Thursdays
 *   "Should the API rate limit be 2,000 requests per minute?"
 *   "We might switch the event bus to Kafka next year." → event bus ? Kafka
 *
 * Sentences with no such value or no attribute before it ("Can you book a table for two?",
 * "Who is on call this weekend?") give nothing.
 */

/** Times relative to now name no value ("next year", "this weekend", "tomorrow"). */
const RELATIVE =
  /^(?:now|right now|today|tonight|tomorrow|yesterday|later|soon|then|(?:this|next|last|coming|every|each)\s+\p{L}+|(?:a|one)\s+(?:minute|second|moment|day|week))$/iu;
/** Frequencies and plural weekdays the model does not mark as entities. */
const FREQUENCY =
  /^(?:hourly|daily|nightly|weekly|fortnightly|biweekly|monthly|quarterly|yearly|annually|(?:mon|tues|wednes|thurs|fri|satur|sun)days)$/i;
const CURRENCY = /^[$€£¥]$/;
/** Words that lead a tentative clause and are not part of what it is about. */
const LEAD =
  /^(?:what if|what would happen if|suppose|supposing|imagine|hypothetically|let'?s say|let us say|say|in case|assuming|assume|if|maybe|perhaps|probably|possibly|supposedly|apparently|i think|i guess|i believe|do we know if|do we know whether)\b\s*(?:that\s+)?/i;
/** Verbs after which a name is the proposed value: "switch the event bus to Kafka", "list … as Lisbon". */
const MOVE_TO =
  /\b(?:to|as)\s+((?:the\s+)?[\p{L}\p{N}][\p{L}\p{N}.+#-]*(?:\s+[\p{L}\p{N}][\p{L}\p{N}.+#-]*){0,2}?)\s*(?:(?:next|this)\s+\w+|instead|later|soon|(?:on|in|at)\s+(?:the|my|our)\s+\w+)?\s*[?.!]*$/iu;
const CONSIDER =
  /\b(?:considering|consider|thinking about|thinking of|looking at|chose|choose|picked|pick|went with|go with|use|used)\s+([\p{Lu}][\p{L}\p{N}.+#-]*(?:\s+[\p{Lu}][\p{L}\p{N}.+#-]*){0,3})(?:\s+(?:instead of|over|rather than)\s+[^,]+?)?(?:\s+for\s+([^,?.!]+))?(?=[,?.!]|$)/u;

/** "Would Sofia Ruiz be a good owner for Project Falcon?": a person put forward for a role. */
const PROPOSED_ROLE =
  /^(?:[Ww]ould|[Cc]ould|[Ss]hould|[Ww]ill|[Ii]s|[Ii]sn't)\s+(\p{Lu}[\p{L}'’-]+(?:\s+\p{Lu}[\p{L}'’-]+){0,2})\s+(?:be|make)\s+(?:a|an|the)\s+(?!(?:(?:good|better|great|right|best|strong|natural)\s+)?(?:fit|idea|match|time|thing|way|person|one)\b)(?:(?:good|better|great|right|best|strong|natural)\s+)?(\p{Ll}+(?:\s+\p{Ll}+)?)\s+(?:for|of|on)\s+(.+?)[?.!]*$/u;

const isNoun = (pos: string) => pos === 'NOUN' || pos === 'PROPN' || pos === 'X';

interface Span {
  start: number;
  end: number;
}

/** The proposed quantity: the first dated, timed or counted span that is not part of a name. */
function quantitySpan(read: ReadText): Span | undefined {
  const { tokens } = read;
  const candidates: Span[] = [];
  for (const entity of read.entities) {
    if (!QUANTITY_ENTITY_TYPES.has(entity.type)) continue;
    const text = spanText(read, entity.start, entity.end);
    if (RELATIVE.test(text)) continue;
    if ((entity.type === 'CARDINAL' || entity.type === 'ORDINAL') && !/\d/.test(text)) continue;
    // "LH 1234", "Dock 4": a number right after a name is part of it.
    if (entity.type === 'CARDINAL' && entity.start > 0 && tokens[entity.start - 1]!.pos === 'PROPN') continue;
    candidates.push({ start: entity.start, end: entity.end });
  }
  tokens.forEach((t, i) => {
    if (FREQUENCY.test(t.text)) candidates.push({ start: i, end: i });
  });
  candidates.sort((a, b) => a.start - b.start);
  const first = candidates[0];
  if (!first) return undefined;
  const span = { ...first };
  if (span.start > 0 && CURRENCY.test(tokens[span.start - 1]!.text)) span.start -= 1;
  // "2,000 pallet spaces", "800 reams": the counted noun belongs to the value.
  if (tokens[span.end]!.pos === 'NUM') {
    while (span.end + 1 < tokens.length && tokens[span.end + 1]!.pos === 'NOUN') span.end += 1;
  }
  // "… per minute", "… a day": the rate belongs to the value.
  const next = tokens[span.end + 1];
  const after = tokens[span.end + 2];
  if (next && after && /^(?:per|a|an)$/i.test(next.text) && after.pos === 'NOUN') span.end += 2;
  return span;
}

/** The noun phrase right before `before`: what the value would be the value of. */
function attributeBefore(read: ReadText, before: number): string | undefined {
  const { tokens } = read;
  let end = before - 1;
  while (end >= 0 && !isNoun(tokens[end]!.pos)) {
    if (/^[,;:]$/.test(tokens[end]!.text)) return undefined;
    end -= 1;
  }
  if (end < 0) return undefined;
  let start = end;
  while (start > 0) {
    const t = tokens[start - 1]!;
    const attached = read.spaces[start] === '' || t.text === '-';
    if (isNoun(t.pos) || t.pos === 'ADJ' || attached || /^['’]s$/.test(t.text)) start -= 1;
    else break;
  }
  const phrase = cleanPhrase(spanText(read, start, end));
  const first = words(phrase)[0];
  if (!first || isPronoun(first)) return undefined;
  return phrase;
}

function owned(phrase: string, value: string, known: ReadonlySet<string>): PatternFact | undefined {
  const parsed = parseSubject(`the ${stripDeterminers(phrase)}`, {
    knownEntities: known,
    atSentenceStart: false,
    value,
  });
  if (parsed) return { ...parsed, value, confidence: 0.3 };
  const key = stripDeterminers(phrase).toLowerCase();
  if (!isValidKey(key)) return undefined;
  return { entityType: 'entity', entity: UNRESOLVED_ENTITY, key, value, confidence: 0.3, named: false };
}

/**
 * "a 15% deposit for Kestrel Metals", "a 10% discount from Delta Print": the value names its
 * attribute after it, and a name after "for"/"from"/"with" owns it.
 */
function nounAfter(read: ReadText, end: number, value: string): PatternFact | undefined {
  const { tokens } = read;
  let last = end;
  while (last + 1 < tokens.length && tokens[last + 1]!.pos === 'NOUN') last += 1;
  if (last === end) return undefined;
  const key = spanText(read, end + 1, last).toLowerCase();
  if (!isValidKey(key)) return undefined;
  const rest = spanText(read, last + 1, tokens.length - 1);
  const owner =
    /^\s*(?:for|from|with)\s+([\p{Lu}][\p{L}\p{N}.&-]*(?:\s+[\p{Lu}][\p{L}\p{N}.&-]*){0,3})/u.exec(rest);
  return owner
    ? { entityType: 'entity', entity: owner[1]!, key, value, confidence: 0.3, named: true }
    : { entityType: 'entity', entity: UNRESOLVED_ENTITY, key, value, confidence: 0.3, named: false };
}

/** The value a tentative clause proposes, with the attribute it is for, or nothing. */
export function tentativeFacts(text: string, known: ReadonlySet<string>): PatternFact[] {
  const body = cleanPhrase(text.replace(/["“”]/g, ' ').replace(/\s+/g, ' ')).replace(LEAD, '');
  const role = PROPOSED_ROLE.exec(body);
  if (role) {
    const thing = stripDeterminers(role[3]!);
    if (words(thing).length <= 5 && isValidKey(role[2]!)) {
      return [
        { entityType: 'entity', entity: thing, key: role[2]!, value: role[1]!, confidence: 0.3, named: true },
      ];
    }
  }
  const read = readText(body);
  const quantity = quantitySpan(read);
  if (quantity) {
    const value = cleanPhrase(spanText(read, quantity.start, quantity.end));
    const attribute = attributeBefore(read, quantity.start);
    const fact = attribute ? owned(attribute, value, known) : nounAfter(read, quantity.end, value);
    return fact ? [fact] : [];
  }
  const considered = CONSIDER.exec(body);
  if (considered) {
    const value = cleanPhrase(considered[1]!);
    const purpose = considered[2] ? stripDeterminers(considered[2]) : undefined;
    if (purpose && isValidKey(purpose.replace(/[^\p{L}\p{N}\s'-]/gu, ' '))) {
      return [
        { entityType: 'entity', entity: purpose, key: 'decision', value, confidence: 0.3, named: true },
      ];
    }
    return [
      {
        entityType: 'entity',
        entity: UNRESOLVED_ENTITY,
        key: 'decision',
        value,
        confidence: 0.3,
        named: false,
      },
    ];
  }
  const moved = MOVE_TO.exec(body);
  if (moved) {
    const value = stripDeterminers(moved[1]!);
    const valueRead = readText(value);
    if (!valueRead.tokens.every((t) => isNoun(t.pos) || t.pos === 'ADJ')) return [];
    const at = body.slice(0, moved.index).trim();
    const read2 = readText(at);
    const attribute = attributeBefore(read2, read2.tokens.length);
    const fact = attribute ? owned(attribute, value, known) : undefined;
    return fact ? [fact] : [];
  }
  return [];
}
