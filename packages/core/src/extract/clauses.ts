import { readSentences, tagPhrase } from './english-model.ts';

/**
 * Splits a message into sentences and reads the signals that decide whether a sentence may yield
 * facts at all: is it a question, a hypothetical, hedged, negated, or a correction of an earlier
 * value? The rules extractor parses `text` (lead-ins and correction markers removed); the flags
 * decide how much to trust what it finds.
 */

export interface Clause {
  /** The sentence with lead-ins ("so,", "fyi", "no,", "actually") removed. */
  text: string;
  /** `text` without a trailing ", not X" / "instead of X" after a value: what facts are read from. */
  factText: string;
  /** The sentence as written. */
  original: string;
  question: boolean;
  hypothetical: boolean;
  hedged: boolean;
  /** A plan or proposal, not a state: "we plan to …", "we are considering …", "… should be …". */
  tentative: boolean;
  /** Carries someone's words in quotes: what they said, not what is. */
  quoted: boolean;
  correction: boolean;
  negated: boolean;
  /** The value a correction rejects: "…, not 45" → `45`. */
  replacedValue?: string;
}

/**
 * Sentences of `text`: line breaks, then the English model's sentence boundaries (which know
 * abbreviations and numbers), then semicolons, which join two statements.
 */
export function sentencesOf(text: string): string[] {
  return restateChanges(text)
    .split(/\r?\n+/)
    .flatMap((line) => (line.trim().length > 0 ? readSentences(line) : []))
    .flatMap((sentence) =>
      sentence.text.split(/;\s+|\s+[—–]\s+(?!(?:and\s+|but\s+)?(?:not|instead|rather)\b)/u),
    )
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence.length > 0);
}

/** "X is no longer A; it's B", "X is no longer A, it is now B". */
const NO_LONGER =
  /([^.;!?\n]*?)\s+(is|are)\s+no longer\s+([^.;,!?\n]+?)\s*[;,]\s*(?:but\s+)?(?:now\s+)?(?:it|they)(?:\s+is|\s+are|['’]s|['’]re)\s+(?:now\s+)?([^.;!?\n]+)/gi;
/** "X used to be A, now it's B", "X used to be A but is now B": "now" says B holds. */
const USED_TO_BE =
  /([^.;!?\n]*?)\s+used to be\s+([^.;,!?\n]+?)\s*(?:[;,]\s*(?:but\s+|and\s+)?|\s+but\s+)(?:(?:it|they)(?:\s+is|\s+are|['’]s|['’]re)\s+now|now\s+(?:it|they)(?:\s+is|\s+are|['’]s|['’]re)|(?:is|are)\s+now|now)\s+([^.;!?\n]+)/gi;

/**
 * A change said as the old value and the new one in two clauses, as one statement of the new
 * value with the old one rejected ("X is B, not A"), which the clause reader takes as a correction.
 */
function restateChanges(text: string): string {
  if (!/\bno longer\b|\bused to be\b/i.test(text)) return text;
  return text
    .replace(
      NO_LONGER,
      (_, subject: string, verb: string, old: string, now: string) => `${subject} ${verb} ${now}, not ${old}`,
    )
    .replace(
      USED_TO_BE,
      (_, subject: string, old: string, now: string) => `${subject} is ${now}, not ${old}`,
    );
}

const LEAD_INS =
  /^(?:hi there|hello there|hey there|hi|hello|hey|hiya|good morning|good afternoon|good evening|greetings|so|ok|okay|well|also|and|but|btw|by the way|fyi|f\.y\.i\.|just so you know|heads up|for the record|for context|to be clear|just to be clear|note|note that|please note|please note that|keep in mind|keep in mind that|remember|remember that|please remember|please remember that|don't forget|don't forget that|for your information|just a reminder|reminder|quick note|good news|bad news|great news|ah|oh|hmm|right|great|thanks|thank you|alright|all right|honestly|tbh|to be honest|ugh|haha|lol|omg|wow|yay|phew|argh)\b\s*[,:;!.\-—]*\s*/i;

/**
 * A degree word before what the speaker says of themselves changes nothing stored: "I am seriously
 * allergic to …". Said of anything else it marks a judgement ("the story is so inspiring"), which
 * stays as it is, for the value check to refuse.
 */
const DEGREE_AFTER_COPULA =
  /\b(I am)\s+(?:really|very|super|so|seriously|extremely|totally|absolutely|incredibly|badly|deathly|properly|proper)\s+(?=\p{L})/iu;

/**
 * How a statement ends, to be cut: its punctuation, and chat particles before it ("… allergic to
 * peanuts btw", "… in Bristol now haha.", an emoji).
 */
const CLAUSE_END =
  /(?:[\s,;:.!-]+(?:btw|tbh|honestly|haha+|hah|lol|lmao|ugh|x+|:\)|:\(|:D|;\)|\p{Extended_Pictographic}+))*[\s.!;:,]*$/iu;

/** Markers that must be followed by punctuation to count ("No, …" but not "No one …"). */
const CORRECTION_PUNCTUATED =
  /^(?:no wait|wait no|oh wait|hang on|hold on|i was wrong|i misread(?: it)?|i misspoke|final answer|small correction|quick correction|no|nope|not quite|wrong|incorrect|sorry|oops|wait|scratch that|my mistake|my bad|let me correct that|to correct myself|update|updated|change of plan|change of plans)\s*[,:;!.\-—]+\s*/i;
const CORRECTION_BARE =
  /^(?:actually|correction|correcting myself|i meant|i mean|rather|(?:i(?:'ve| have)?\s+)?changed my mind(?:\s+again)?)\b\s*[,:;\-—]*\s*/i;

/** Hedges that open a sentence: removed before parsing, remembered as `hedged`. */
const REPORTED_SPEECH =
  /^(?:he|she|they|someone|somebody|[\p{Lu}][\p{L}'’-]*)\s+(?:said|says|told me|told us|mentioned|claims?|claimed|thinks?|thought)\s*,?\s*(?:that\s+)?/u;
/** "the council confirmed …", "Acme has announced that …": a source vouching for the statement after it. */
const CONFIRMED_LEAD =
  /^(?:the\s+)?(?:\p{L}+\s+){0,2}?\p{L}+\s+(?:has\s+|have\s+)?(?:confirmed|announced|verified)\s+(?:that\s+)?(?=(?:[^\s]+\s+){1,6}?(?:is|are|was|were|will be)\s)/u;
const HEDGE_LEAD =
  /^(?:i think|i believe|i guess|i reckon|my guess is|i suppose|i assume|i heard|i feel like|probably|maybe|perhaps|apparently|supposedly|reportedly|presumably|i'?m not sure,? but|not sure,? but|if i recall correctly|if i remember correctly|iirc|afaik)\b\s*[,:]?\s*(?:that\s+)?/i;

const QUESTION_START =
  /^(?:what|who|whom|whose|which|when|where|why|how|is|are|am|was|were|do|does|did|can|could|would|should|will|shall|have|has|had|may|might|isn't|aren't|doesn't|don't|didn't)\b/i;
const HYPOTHETICAL_START =
  /^(?:what if|suppose|supposing|imagine|hypothetically|let'?s say|say we|say that|in case|assuming|assume|if|were we|had we)\b/i;
const HYPOTHETICAL_ANYWHERE =
  /\b(?:what if|if|unless|would(?!\s+(?:prefer|rather|like))|could|might|in theory|hypothetically|suppose|supposing|imagine|assuming|in case)\b/i;
const HEDGES =
  /\b(?:i think|i believe|i guess|i reckon|don'?t quote me|ballpark|i suppose|i assume|i feel|i heard|i'?m not sure|not sure|probably|maybe|perhaps|possibly|presumably|likely|apparently|supposedly|reportedly|allegedly|seems?|seemed|if i recall|iirc|afaik|rumou?r(?:ed)?|(?:he|she|they|someone|somebody) (?:said|says|told|mentioned|thinks?|claims?)|told me|according to|should be|ought to be|i'?d say|i doubt|which i doubt|a guess|unconfirmed|nobody (?:has )?confirmed|not confirmed)\b/i;
const TENTATIVE =
  /\b(?:plan(?:s|ning)?\s+(?:to|on)|intend(?:s|ing)?\s+to|(?:are|am|is)\s+thinking\s+(?:about|of)|(?:are|am|is)\s+considering|should|ought to|want(?:s)?\s+to|hope\s+to|aim(?:s)?\s+to|propose(?:s|d)?\s+to)\b/i;
/** "may" in lower case only: "May" is also the month. */
const TENTATIVE_MAY = /\bmay\b/;
const QUOTED = /["“][^"”]{3,}["”]/;
const NEGATION =
  /\b(?:not|never|no longer|none|neither|nor|isn'?t|aren'?t|doesn'?t|don'?t|didn'?t|won'?t|wasn'?t|weren'?t|cannot|can'?t|hasn'?t|haven'?t)\b/i;
/** A reason after the statement: its negation is not the statement's ("…, as half the guests aren't online"). */
const REASON_TAIL = /(?:,\s*(?:because|since|as|so)|\s+because)\s.*$/i;
/** "can't run without X" says X is needed: two negations, no negated statement. */
const CANNOT_WITHOUT = /\b(?:can(?:no|')?t|could(?:n't| not))\s+\p{L}+(?:\s+live)?\s+without\b/iu;
/** A value may hold a thousands separator: "not $300,000". */
const NOT_TAIL = /\s*(?:,|—|-)?\s*(?:and\s+|but\s+)?not\s+((?:[^,;]|,(?=\d{3}\b))+?)\s*[.!]*$/i;
const INSTEAD_TAIL = /\s*,?\s*(?:instead of|rather than)\s+((?:[^,;]|,(?=\d{3}\b))+?)\s*[.!]*$/i;
const INNER_CORRECTION = /\b(?:is|are)\s+actually\b|\bwas wrong\b|\bi meant\b|\bis now corrected\b/i;
/**
 * A change stated as made replaces the value before it, as a correction does: "I am vegan now",
 * "… these days", "the limit was raised to …", "we moved the offsite to …".
 */
const CHANGE_MARKER =
  /\b(?:went|gone|changed|moved|rose|fell|dropped|jumped|grew|increased|decreased|cut|raised|lowered|reduced|extended|shortened|pushed|bumped|switched|shifted)\b(?:[^,]|,(?=\d))*?\sfrom\s(?:[^,]|,(?=\d))+?\sto\b|\b(?<!for\s)now\b|\bthese days\b|\bnowadays\b|\b(?:has|have|got)\s+a\s+new\b|\b(?:changed|raised|lowered|increased|decreased|reduced|cut|extended|shortened|moved|pushed|bumped|revised|adjusted|updated|upgraded|downgraded|rescheduled|shifted|went up|went down|dropped|rose|risen|slipped|switched|doubled|halved|tripled|fell|fallen|climbed|jumped|grew|grown|changes|postponed|delayed|brought forward)\s+(?:\S+\s+){0,6}?to\b/i;

/** A statement before ", not X": a copula, "to", or any verb ("requires a 10% deposit, not 15%"). */
function statesValue(text: string): boolean {
  if (/\b(?:is|are|be|to|has|have)\b/i.test(text)) return true;
  // "Kwame chairs the jury": a word in -s before a determiner is a verb, whatever the model says.
  if (/\s\p{Ll}+s\s+(?:the|a|an|our|my|their)\s/u.test(text)) return true;
  return tagPhrase(text).some((t) => t.pos === 'VERB');
}

/** When a statement starts to hold, before its subject: "After the expansion the Leeds depot has …". */
const TIME_LEAD =
  /^(?:[Aa]fter|[Ff]ollowing|[Aa]s of|[Ss]ince|[Ff]rom)\s+(?:the\s+|this\s+|last\s+|next\s+)?[\p{Ll}\p{N}-]+(?:\s+[\p{Ll}\p{N}-]+)?\s*,?\s+(?=(?:the|our|my)\s|\p{Lu})/u;
/**
 * When a new value starts to hold, before a comma: "Since Monday, …", "As of 1 July, …", "From
 * now on, …", "Starting next month, …", "Effective immediately, …", "Going forward, …". What
 * follows replaces the value before it.
 */
const CHANGE_LEAD =
  /^(?:as of|since|from|starting(?:\s+(?:from|on|in))?|beginning(?:\s+(?:on|in))?|effective(?:\s+(?:from|on|as of))?|going forward|from now on|from today|effective immediately|with immediate effect|until further notice)(?:\s+(?:the\s+|this\s+|last\s+|next\s+)?[\p{L}\p{N}-]+(?:\s+[\p{L}\p{N}-]+){0,2})?\s*,\s*/iu;

/**
 * "I switched, …", "We moved, …", "It changed again, …", "As of Monday …": a change named on its
 * own, before the statement of what holds now.
 */
const CHANGE_CLAUSE =
  /^(?:(?:I|we)\s+(?:have\s+)?(?:just\s+)?(?:switched|moved|relocated|changed|upgraded|downgraded)\s*[,:;\-—]+|(?:as of (?:today|now|monday|tuesday|wednesday|thursday|friday|saturday|sunday|this week|this month)|it (?:has )?changed(?: again)?)\b\s*[,:;!.\-—]*)\s*/i;

function stripLeadIns(sentence: string): { text: string; correction: boolean } {
  let text = sentence.trim();
  let correction = false;
  for (let i = 0; i < 6; i++) {
    const before = text;
    if (CORRECTION_PUNCTUATED.test(text)) {
      text = text.replace(CORRECTION_PUNCTUATED, '');
      correction = true;
    } else if (CORRECTION_BARE.test(text)) {
      text = text.replace(CORRECTION_BARE, '');
      correction = true;
    } else if (CHANGE_LEAD.test(text) || CHANGE_CLAUSE.test(text)) {
      text = text.replace(CHANGE_LEAD, '').replace(CHANGE_CLAUSE, '');
      correction = true;
    } else if (LEAD_INS.test(text)) {
      text = text.replace(LEAD_INS, '');
    } else if (TIME_LEAD.test(text)) {
      text = text.replace(TIME_LEAD, '');
    }
    if (text === before) break;
  }
  return { text: text.trim(), correction };
}

/** "we're" → "we are", "it's" → "it is" (pronouns only: "Acme's" and the acronym "IT's" stay possessives). */
function expandContractions(text: string): string {
  const pronoun = (pattern: RegExp, expansion: string) => (t: string) =>
    t.replace(pattern, (match: string, word: string) =>
      word.length > 1 && word === word.toUpperCase() ? match : `${word} ${expansion}`,
    );
  return [
    // "the deadline's 9:30 pm", "circulation's down to 11,200": a common noun's "'s" before a value is "is".
    (t: string) =>
      /\b(?:is|are|was|were)\b/i.test(t)
        ? t
        : t.replace(
            /(^|\s)((?<=^)\p{Lu}[\p{Ll}-]*|\p{Ll}[\p{Ll}-]*)['’]s\s+(?=(?:now\s+|about\s+|around\s+|(?:up|down)\s+to\s+)?[$€£¥]?\d)/u,
            '$1$2 is ',
          ),
    pronoun(/\b(we|you|they)['’]re\b/gi, 'are'),
    pronoun(/\b(I)['’]m\b/g, 'am'),
    pronoun(/\b(it|that|what|there|here|who|he|she)['’]s\b/gi, 'is'),
    pronoun(/\b(we|I|you|they)['’]ll\b/gi, 'will'),
    pronoun(/\b(we|I|you|they)['’]ve\b/gi, 'have'),
    pronoun(/\b(we|I|you|they)['’]d\b/gi, 'would'),
  ].reduce((t, expand) => expand(t), text);
}

const PRONOUN_SHAPED =
  /\b(?:I|ME|MY|MINE|WE|US|OUR|OURS|YOU|YOUR|YOURS|HE|HIM|HIS|SHE|HER|HERS|IT|ITS|THEY|THEM|THEIR|THEIRS|THIS|THAT|THESE|THOSE|THERE|HERE|WHO|WHAT|WHICH)\b/g;

/**
 * A sentence in capitals only carries no case signal: "IT" there is as likely "it" as the
 * acronym. Its pronoun-shaped words are read as pronouns (lower-cased); everywhere else an
 * all-capitals word is an acronym, a name (see `isAcronym`).
 */
function withoutShouting(sentence: string): string {
  const letters = sentence.replace(/[^\p{L}]/gu, '');
  if (letters.length < 4 || /\p{Ll}/u.test(letters)) return sentence;
  return sentence.replace(PRONOUN_SHAPED, (word) => (word === 'I' ? word : word.toLowerCase()));
}

/** The clauses of a message, with their signals. */
export function clausesOf(message: string): Clause[] {
  const out: Clause[] = [];
  let carryCorrection = false;
  for (const original of sentencesOf(message)) {
    const stripped = stripLeadIns(withoutShouting(original));
    const bare = stripped.text.replace(CLAUSE_END, '');
    if (bare.length === 0) {
      // "No." / "Correction:" on its own corrects the next sentence.
      carryCorrection = stripped.correction;
      continue;
    }
    const question = /\?\s*["')\]]*$/.test(original) || QUESTION_START.test(bare);
    const hypothetical = HYPOTHETICAL_START.test(bare) || HYPOTHETICAL_ANYWHERE.test(bare);
    let correction =
      stripped.correction || carryCorrection || INNER_CORRECTION.test(bare) || CHANGE_MARKER.test(bare);
    carryCorrection = false;
    const reported = REPORTED_SPEECH.test(bare);
    const unhedged = bare
      .replace(/\s+/g, ' ')
      .replace(HEDGE_LEAD, '')
      .replace(REPORTED_SPEECH, '')
      .replace(CONFIRMED_LEAD, '');
    const text = expandContractions(unhedged)
      .replace(/\b(is|are)\s+actually\b/i, '$1')
      .replace(DEGREE_AFTER_COPULA, '$1 ');
    let factText = text;
    let replacedValue: string | undefined;
    // Only as a tail after a value: "… is 30 days, not 45", "… is 30 days instead of 45".
    const notTail = NOT_TAIL.exec(text);
    const insteadTail = INSTEAD_TAIL.exec(text);
    if (notTail && /,|—|\s-\s/.test(notTail[0]) && statesValue(text.slice(0, notTail.index))) {
      replacedValue = notTail[1]!.trim();
      factText = text.slice(0, notTail.index).trim();
      correction = true;
    } else if (insteadTail && /\b(?:is|are)\b/i.test(text.slice(0, insteadTail.index))) {
      replacedValue = insteadTail[1]!.trim();
      factText = text.slice(0, insteadTail.index).trim();
      correction = true;
    }
    const clause: Clause = {
      text,
      factText,
      original,
      question,
      hypothetical,
      hedged: reported || HEDGES.test(bare),
      tentative: TENTATIVE.test(bare) || TENTATIVE_MAY.test(bare),
      quoted: QUOTED.test(original),
      correction,
      negated: NEGATION.test(factText.replace(REASON_TAIL, '').replace(CANNOT_WITHOUT, '')),
    };
    if (replacedValue !== undefined) clause.replacedValue = replacedValue;
    out.push(clause);
  }
  return out;
}
