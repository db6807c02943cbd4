import {
  isCapitalized,
  isPronoun,
  isValidKey,
  isValidValue,
  type PatternFact,
  stripDeterminers,
  words,
} from './noun-phrases.ts';
import { cleanValue } from './value-phrases.ts';
import { isQuantity } from './verb-patterns.ts';

/**
 * A named thing's state, progress or due date, said with "is":
 *
 *   "Bay 9 at the Leipzig depot is out of use."   → Bay 9 · status = out of use
 *   "The Orion redesign is 40% complete."          → Orion redesign · progress = 40% complete
 *   "Order PO-118 is due on 2 May."                → Order PO-118 · due date = 2 May
 *
 * The thing must be named (a capitalised word or a code after its first word: "Build server
 * CI-3"), except for progress, which a definite "the …" may state. A place after the name ("at
 * the Leipzig depot") says where it is, not which it is.
 */

const STATES =
  'out of service|out of order|out of use|offline|online|down|up and running|closed|open|on hold|paused|delayed|cancelled|canceled|postponed|live|operational|suspended|under maintenance|under repair|under construction|fully booked|sold out|out of stock|in stock|at capacity|active|inactive|overdue|deprecated|decommissioned|off the road|out of action|back online|back up|unavailable|available|under review|in review|in progress|on track|at risk|out for consultation|out for tender|provisional|tentative|confirmed|pending';
const STATE = new RegExp(
  `^(.+?)\\s+(?:is|are)\\s+(?:now\\s+|currently\\s+|still\\s+|temporarily\\s+)?(${STATES})(?:\\s+(?:until|till|for|since|after|while|due to|because)\\s.*)?$`,
  'i',
);
const PROGRESS =
  /^(.+?)\s+(?:is|are)\s+(?:now\s+|about\s+|roughly\s+|around\s+)?(\d+(?:\.\d+)?\s?(?:%|percent)\s+(?:complete|completed|done|finished))$/i;
const DUE = /^(.+?)\s+(?:is|are)\s+due\s+(?:on|by|in)\s+(.+)$/i;
/** What was done to a thing, as its state: "the application got approved", "… has been submitted". */
const DONE =
  /^(.+?)\s+(?:was|were|got|has been|have been|is|are)\s+(?:now\s+|just\s+|finally\s+|officially\s+)?(approved|rejected|submitted|signed|signed off|completed|launched|shipped|delivered|accepted|declined|withdrawn|granted|refused|published|confirmed)(?:\s+(?:yesterday|today|this\s+\p{Ll}+|last\s+\p{Ll}+))?$/iu;
/** What a customer is signed up to: "on the enterprise plan", "moved to the business plan". */
const TERMS = 'plan|tier|package|subscription|licence|license|edition|contract';
const ON_TERMS = new RegExp(
  `^(.+?)\\s+(?:is|are)\\s+(?:now\\s+|currently\\s+|still\\s+)?on\\s+the\\s+([\\p{L}\\p{N}-]+(?:\\s+[\\p{L}\\p{N}-]+)?)\\s+(${TERMS})$`,
  'iu',
);
const MOVED_TO_TERMS = new RegExp(
  `^(.+?)\\s+(?:has\\s+|have\\s+)?(?:moved|switched|upgraded|downgraded|changed|gone)\\s+(?:back\\s+)?to\\s+the\\s+([\\p{L}\\p{N}-]+(?:\\s+[\\p{L}\\p{N}-]+)?)\\s+(${TERMS})$`,
  'iu',
);
/** "Umbrella Health has a new account manager: Lena Fischer." */
const HAS_NEW = /^(.+?)\s+(?:has|have|got)\s+a\s+new\s+(\p{Ll}+(?:\s+\p{Ll}+){0,2})\s*[:,—–-]\s*(.+)$/u;
const ATTRIBUTE_WORDS = /\b(?:status|state|progress|of)\b/i;
const PLACE_AFTER = /\s+(?:at|in|on)\s+(?:the\s+)?\p{Lu}.*$/u;

/** The thing a subject names, when it is named: "Bay 9", "Build server CI-3", "the Orion redesign". */
function namedThing(subject: string): string | undefined {
  // "The status of the Helix migration", "the Orion connector status": the attribute is named, read elsewhere.
  if (ATTRIBUTE_WORDS.test(subject)) return undefined;
  const thing = stripDeterminers(subject.replace(PLACE_AFTER, ''));
  const tokens = words(thing);
  if (tokens.length === 0 || tokens.length > 5 || isPronoun(tokens[0]!)) return undefined;
  const definite = /^the\s/i.test(subject.trim());
  if (tokens.some((t, i) => (i > 0 || definite) && isCapitalized(t))) return thing;
  // "the sequencer in B214": a plain thing named by where it is.
  const placed = stripDeterminers(subject);
  return definite && PLACE_AFTER.test(subject) && words(placed).length <= 5 ? placed : undefined;
}

/** "The mobile app beta": a definite thing of a few plain words. */
function definiteThing(subject: string): string | undefined {
  if (!/^the\s/i.test(subject.trim()) || ATTRIBUTE_WORDS.test(subject)) return undefined;
  const thing = stripDeterminers(subject);
  const tokens = words(thing);
  return tokens.length >= 1 && tokens.length <= 4 && !isPronoun(tokens[0]!) ? thing : undefined;
}

function stated(entity: string | undefined, key: string, value: string): PatternFact[] | null {
  if (!entity || !isValidValue(value)) return null;
  return [{ entityType: 'entity', entity, key, value, confidence: 0.8, named: true }];
}

/** The state, progress or due date a clause gives a named thing, or null when it is not of that shape. */
export function stateFacts(text: string): PatternFact[] | null {
  const clause = text.replace(/[.!]+$/, '').trim();
  const progress = PROGRESS.exec(clause);
  if (progress)
    return stated(namedThing(progress[1]!) ?? definiteThing(progress[1]!), 'progress', progress[2]!);
  const terms = ON_TERMS.exec(clause) ?? MOVED_TO_TERMS.exec(clause);
  if (terms) {
    const head = terms[3]!.toLowerCase();
    return stated(namedThing(terms[1]!), head, `${terms[2]!} ${head}`);
  }
  const renewed = HAS_NEW.exec(clause);
  if (renewed && isValidKey(renewed[2]!))
    return stated(namedThing(renewed[1]!), renewed[2]!, cleanValue(renewed[3]!));
  const state = STATE.exec(clause);
  if (state) return stated(namedThing(state[1]!), 'status', state[2]!.toLowerCase());
  const done = DONE.exec(clause);
  if (done) return stated(namedThing(done[1]!) ?? definiteThing(done[1]!), 'status', done[2]!.toLowerCase());
  const due = DUE.exec(clause);
  if (due) {
    const value = cleanValue(due[2]!);
    if (!isQuantity(value)) return null;
    // "Van 12's MOT is due on 18 March": Van 12's MOT due date.
    const owned = /^(.+?)['’]s\s+(\p{Ll}[\p{L}\s-]*|\p{Lu}{2,})$/u.exec(stripDeterminers(due[1]!));
    const owner = owned ? namedThing(owned[1]!) : undefined;
    if (owner) return stated(owner, `${owned![2]!.toLowerCase()} due date`, value);
    return stated(namedThing(due[1]!), 'due date', value);
  }
  return null;
}
