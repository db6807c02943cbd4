import { GROUP_ENTITY, SPEAKER_ENTITY, UNRESOLVED_ENTITY } from './entity-references.ts';

/**
 * Small, conservative noun-phrase helpers for the rules extractor: which words name an entity,
 * which name an attribute, and which values are worth keeping. Anything unclear is rejected:
 * a missed fact costs less than a wrong one.
 */

const DETERMINERS = /^(?:the|a|an|this|that|these|those|its|their|his|her)\s+/i;

const PRONOUNS = new Set(
  'i me my mine we us our ours you your yours he him his she her hers it its they them their theirs this that these those there here who what which whom whose everyone everything someone something anyone anything nobody nothing one'.split(
    ' ',
  ),
);

/** Attribute heads that carry no fact of their own ("the problem is that …"). */
const VAGUE_KEYS = new Set(
  'thing things problem issue question point idea reason answer fact truth way best worst only first last same rest other others goal plan hope thought guess feeling sense deal catch trick key lot bit part kind sort type case situation news result'.split(
    ' ',
  ),
);

/** Values that are opinions, pronouns or clauses rather than facts. */
const VAGUE_VALUE =
  /^(?:that|because|to|not|no|never|when|where|why|how|what|which|who|whom|whether|if|unless|also|too|very|so|really|quite|pretty|the same|same|it|this|these|those|they|he|she|there|here|done|ready|good|great|fine|ok|okay|bad|better|worse|best|worst|important|unclear|unknown|tbd|pending|nice|cool|awesome|terrible|true|false|right|wrong|correct|incorrect|possible|impossible|likely|unlikely|sure|unsure|correct|something|nothing|anything|everything|complicated|hard|easy|simple|fun|boring|interesting)\b/i;

/** Words that type an entity when they lead its name: "Supplier X" is a supplier. */
const ENTITY_TYPE_NOUNS = new Set(
  'supplier vendor customer client partner contractor employee project team product service company store account manager carrier distributor'.split(
    ' ',
  ),
);

const DECISION_WORDS =
  /\b(?:migration|decision|rollout|roll-out|rollback|switch|upgrade|launch|initiative|policy)\b/i;
const COMPONENT_WORDS =
  /\b(?:service|services|api|apis|sdk|database|db|queue|library|server|client|app|frontend|backend|pipeline|module|component|system|gateway|cluster|endpoint|microservice|worker|cache|cdn|repo|repository|protocol)\b/i;

const MONTHS_AND_DAYS = new Set(
  'january february march april may june july august september october november december monday tuesday wednesday thursday friday saturday sunday'.split(
    ' ',
  ),
);

export function isPronoun(word: string): boolean {
  return PRONOUNS.has(word.toLowerCase());
}

/** Trims whitespace, surrounding quotes and trailing punctuation. */
export function cleanPhrase(phrase: string): string {
  return phrase
    .trim()
    .replace(/^["'“‘`(]+|["'”’`)]+$/g, '')
    .replace(/[\s.,;:!]+$/g, '')
    .trim();
}

export function stripDeterminers(phrase: string): string {
  let out = cleanPhrase(phrase);
  while (DETERMINERS.test(out)) out = out.replace(DETERMINERS, '');
  return out;
}

export function words(phrase: string): string[] {
  return phrase.split(/\s+/).filter((w) => w.length > 0);
}

/** "Auth, billing and the client SDK" → ["Auth", "billing", "client SDK"] (determiners dropped). */
export function splitList(phrase: string): string[] {
  return phrase
    .split(/\s*,\s*(?:and\s+|or\s+|&\s+)?|\s+(?:and|&)\s+/i)
    .map(stripDeterminers)
    .filter((part) => part.length > 0);
}

function isCapitalized(word: string): boolean {
  return /^[\p{Lu}\p{N}]/u.test(word) || /^[\p{Ll}]+[\p{Lu}]/u.test(word);
}

/** A word that reads as a name even at the start of a sentence: has a capital inside or a digit ("gRPC", "3M", "SAP"). */
function isMarkedName(word: string): boolean {
  return /^.+\p{Lu}/u.test(word) || /\p{N}/u.test(word);
}

/**
 * True when `phrase` reads as an entity name: a run of capitalised words ("Supplier X", "Acme
 * Corp", "gRPC API"), a name memory already knows, or (when `allowLowercase`) a short plain noun
 * phrase ("billing", "client SDK").
 */
export function isEntityPhrase(
  phrase: string,
  options: { knownEntities: ReadonlySet<string>; allowLowercase?: boolean; atSentenceStart?: boolean },
): boolean {
  const tokens = words(phrase);
  if (tokens.length === 0 || tokens.length > 6) return false;
  if (isPronoun(tokens[0]!)) return false;
  if (!tokens.every((t) => /^[\p{L}\p{N}][\p{L}\p{N}&.+#/-]*$/u.test(t))) return false;
  if (tokens.some((t) => MONTHS_AND_DAYS.has(t.toLowerCase()))) return false;
  if (/^(?:what|who|which|when|where|why|how|whether|if)$/i.test(tokens[0]!)) return false;
  if (options.knownEntities.has(phrase.toLowerCase())) return true;
  const capitalized = tokens.every((t) => isCapitalized(t) || /^(?:of|de|van|von|&)$/.test(t));
  // A lone capitalised word opening a sentence may just be capitalised for that reason.
  const onlyByPosition = tokens.length === 1 && options.atSentenceStart === true && !isMarkedName(tokens[0]!);
  if (capitalized && !onlyByPosition) return true;
  return options.allowLowercase === true && tokens.length <= 4 && !isPronoun(tokens[0]!);
}

/** Attribute names: 1–5 plain words, not a pronoun or a vague head ("the problem"). */
export function isValidKey(key: string): boolean {
  const tokens = words(key);
  if (tokens.length === 0 || tokens.length > 5) return false;
  if (!tokens.every((t) => /^[\p{L}][\p{L}\p{N}'’-]*$/u.test(t))) return false;
  const first = tokens[0]!.toLowerCase();
  const last = tokens[tokens.length - 1]!.toLowerCase();
  if (isPronoun(first) || VAGUE_KEYS.has(first) || VAGUE_KEYS.has(last)) return false;
  return !tokens.some((t) =>
    /^(?:is|are|was|were|be|been|will|would|could|should|might|can|do|does|did)$/i.test(t),
  );
}

/** A value worth storing verbatim: short, concrete, not an opinion or a clause. */
export function isValidValue(value: string): boolean {
  const tokens = words(value);
  if (tokens.length === 0 || tokens.length > 12 || value.length > 160) return false;
  if (VAGUE_VALUE.test(value)) return false;
  if (/[?]/.test(value)) return false;
  // A clause, not a value: "$500 we will buy it", "built on the service API".
  if (/\b(?:is|are|was|were|we|i|you|they|he|she)\b/i.test(value)) return false;
  return !/^[\p{L}]+(?:ed|en|lt|wn|un)\s+(?:on|in|by|at|for|with|from|to|of|as|into|onto)\b/iu.test(value);
}

/** Lower-case entity type for a named entity: "Supplier X" → `supplier`, else `entity`. */
export function entityTypeOf(name: string): string {
  const first = words(name)[0]?.toLowerCase() ?? '';
  return ENTITY_TYPE_NOUNS.has(first) && words(name).length > 1 ? first : 'entity';
}

/** Node type for a graph node: decisions, components, or plain entities. */
export function nodeTypeOf(name: string): string {
  if (DECISION_WORDS.test(name)) return 'decision';
  if (COMPONENT_WORDS.test(name)) return 'component';
  return entityTypeOf(name);
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
 * Splits the subject of "<subject> is <value>" into the entity and the attribute:
 * "my email" · "our budget" · "Supplier X's lead time" · "the lead time for Supplier X" ·
 * "Supplier X lead time" · "the lead time" (owner unresolved). Returns null when unclear.
 */
export function parseSubject(
  rawSubject: string,
  options: { knownEntities: ReadonlySet<string>; atSentenceStart: boolean },
): SubjectParse | null {
  const subject = cleanPhrase(rawSubject);
  const known = options.knownEntities;

  const mine = /^my\s+(.+)$/i.exec(subject);
  if (mine) return keyed(SPEAKER_ENTITY, mine[1]!, 0.9);
  const ours = /^our\s+(.+)$/i.exec(subject);
  if (ours) return keyed(GROUP_ENTITY, ours[1]!, 0.9);

  const possessive = /^(.+?)['’]s\s+(.+)$/.exec(subject);
  if (possessive) {
    const owner = stripDeterminers(possessive[1]!);
    if (/^(?:my|our|your|his|her|their|its)\b/i.test(owner)) return null;
    // A capitalised possessive reads as a name even at the start of a sentence ("Acme's").
    if (!isEntityPhrase(owner, { knownEntities: known, atSentenceStart: false })) return null;
    return named(owner, possessive[2]!, 0.9);
  }

  const forOf = /^(?:the\s+)?(.+?)\s+(?:for|of)\s+(.+)$/i.exec(subject);
  if (forOf) {
    const owner = stripDeterminers(forOf[2]!);
    if (/^(?:us|our team|our company)$/i.test(owner)) return keyed(GROUP_ENTITY, forOf[1]!, 0.85);
    if (/^(?:me)$/i.test(owner)) return keyed(SPEAKER_ENTITY, forOf[1]!, 0.85);
    if (words(forOf[1]!).some(isCapitalized) && !/^the\s/i.test(subject)) return null;
    const capitalized = isEntityPhrase(owner, { knownEntities: known, atSentenceStart: false });
    if (capitalized) return named(owner, forOf[1]!, 0.9);
    if (isEntityPhrase(owner, { knownEntities: known, allowLowercase: true, atSentenceStart: false })) {
      return named(owner, forOf[1]!, 0.8);
    }
    return null;
  }

  const tokens = words(subject.replace(DETERMINERS, ''));
  // A known entity's name followed by the attribute: "supplier x lead time".
  for (let n = Math.min(tokens.length - 1, 6); n >= 1; n--) {
    const head = tokens.slice(0, n).join(' ');
    if (known.has(head.toLowerCase())) return named(head, tokens.slice(n).join(' '), 0.85);
  }
  // A capitalised run followed by lower-case attribute words: "Supplier X lead time".
  let run = 0;
  while (run < tokens.length && isCapitalized(tokens[run]!)) run += 1;
  if (run > 0 && run < tokens.length) {
    const head = tokens.slice(0, run).join(' ');
    const atStart = options.atSentenceStart && !/^the\s/i.test(subject);
    if (isEntityPhrase(head, { knownEntities: known, atSentenceStart: atStart })) {
      return named(head, tokens.slice(run).join(' '), 0.8);
    }
    return null;
  }
  // "the lead time": an attribute without its owner.
  if (/^the\s/i.test(subject) && run === 0) {
    return keyed({ entityType: 'entity', entity: UNRESOLVED_ENTITY }, tokens.join(' '), 0.8);
  }
  return null;
}

function keyed(entity: { entityType: string; entity: string }, rawKey: string, confidence: number) {
  const key = cleanPhrase(rawKey).toLowerCase();
  if (!isValidKey(key)) return null;
  return { entityType: entity.entityType, entity: entity.entity, key, named: false, confidence };
}

function named(owner: string, rawKey: string, confidence: number): SubjectParse | null {
  const key = cleanPhrase(rawKey).toLowerCase();
  if (!isValidKey(key)) return null;
  return { entityType: entityTypeOf(owner), entity: owner, key, named: true, confidence };
}
