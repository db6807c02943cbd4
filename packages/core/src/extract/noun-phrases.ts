/**
 * Small, conservative noun-phrase helpers for the rules extractor: which words name an entity,
 * which name an attribute, and which values are worth keeping. Anything unclear is rejected:
 * a missed fact costs less than a wrong one.
 */

export const DETERMINERS = /^(?:the|a|an|this|that|these|those|its|their|his|her)\s+/i;

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
  /^(?:that|because|to|not|no|never|when|where|why|how|what|which|who|whom|whether|if|unless|also|too|very|so|really|quite|pretty|the same|same|it|this|these|those|they|he|she|there|here|done|ready|good|great|fine|ok|okay|bad|better|worse|best|worst|important|unclear|unknown|tbd|pending|nice|cool|awesome|terrible|true|false|right|wrong|correct|incorrect|possible|impossible|likely|unlikely|sure|unsure|correct|something|nothing|anything|everything|complicated|hard|easy|simple|fun|boring|interesting|incredible|amazing|wonderful|fantastic|lovely|beautiful|perfect|excellent|brilliant|awful|horrible|like)\b/i;

const DECISION_WORDS =
  /\b(?:migration|decision|rollout|roll-out|rollback|switch|upgrade|launch|initiative|policy)\b/i;
const COMPONENT_WORDS =
  /\b(?:service|services|api|apis|sdk|database|db|queue|library|server|client|app|frontend|backend|pipeline|module|component|system|gateway|cluster|endpoint|microservice|worker|cache|cdn|repo|repository|protocol|bus|broker|connector|integration|plugin|adapter|job|feed)\b/i;

const MONTHS_AND_DAYS = new Set(
  'january february march april may june july august september october november december monday tuesday wednesday thursday friday saturday sunday'.split(
    ' ',
  ),
);

/**
 * An all-capitals word of two or more letters is an acronym ("IT", "HR", "US", "WHO"): a name,
 * even when it spells a pronoun. (Text written entirely in capitals gives no such signal; the
 * clause reader lower-cases pronoun-shaped words there first, see `clauses.ts`.)
 */
export function isAcronym(word: string): boolean {
  return /^\p{Lu}{2,}(?:['’]s)?$/u.test(word);
}

export function isPronoun(word: string): boolean {
  return PRONOUNS.has(word.toLowerCase()) && !isAcronym(word);
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

/** Words that open a noun phrase naming a group without being part of its name. */
const ENTITY_LEAD =
  /^(?:all of our|all of the|all of|all the|all|the|a|an|this|that|these|those|our|every|each|any|both|either)\s+/i;
/**
 * Words between a subject and its verb that are not part of the subject's name: quantifiers and
 * adverbs ("Auth, billing and the client SDK all depend on …", "billing also uses …").
 */
const SUBJECT_TAIL =
  /\s+(?:all|both|each|too|also|as well|alike|together|now|still|currently|already|really|directly|indirectly|heavily|mostly|only|partly|partially|usually|always|normally|typically|generally)$/i;

/**
 * A noun phrase in an entity position ("Our construction suppliers", "all vendors", "the client
 * SDK all"), reduced to the entity's name: leading determiners and "our" dropped, trailing
 * quantifiers and adverbs dropped. Acronyms stay ("IT equipment vendors").
 */
export function entityName(phrase: string): string {
  let out = cleanPhrase(phrase);
  for (let i = 0; i < 4; i++) {
    const before = out;
    if (!isAcronym(words(out)[0] ?? '')) out = out.replace(ENTITY_LEAD, '');
    out = out.replace(SUBJECT_TAIL, '');
    if (out === before) break;
  }
  return cleanPhrase(out);
}

export function words(phrase: string): string[] {
  return phrase.split(/\s+/).filter((w) => w.length > 0);
}

/** "Auth, billing and the client SDK" → ["Auth", "billing", "client SDK"] (determiners dropped). */
export function splitList(phrase: string): string[] {
  return entityName(phrase)
    .split(/\s*,\s*(?:and\s+|or\s+|&\s+)?|\s+(?:and|&)\s+/i)
    .map(entityName)
    .filter((part) => part.length > 0);
}

export function isCapitalized(word: string): boolean {
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

/** Attribute names: 1–5 plain words, not a pronoun, a vague head ("the problem") or a prepositional phrase. */
export function isValidKey(key: string): boolean {
  const tokens = words(key);
  if (tokens.length === 0 || tokens.length > 5) return false;
  if (!tokens.every((t) => /^[\p{L}][\p{L}\p{N}'’-]*$/u.test(t))) return false;
  const first = tokens[0]!.toLowerCase();
  const last = tokens[tokens.length - 1]!.toLowerCase();
  if (isPronoun(first) || VAGUE_KEYS.has(first) || VAGUE_KEYS.has(last)) return false;
  // "at the berlin warehouse", "with sparkle co": a place or a party, not an attribute.
  if (/^(?:at|in|on|with|of|for|from|by|to|under|near|inside)$/.test(first)) return false;
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

/** True when a name reads as a software component ("service API", "client SDK"). */
export function isComponentName(name: string): boolean {
  return COMPONENT_WORDS.test(name);
}

/** Node type for a graph node: decisions, components, or plain entities. */
export function nodeTypeOf(name: string): string {
  if (DECISION_WORDS.test(name)) return 'decision';
  if (COMPONENT_WORDS.test(name)) return 'component';
  return 'entity';
}

/** A fact a pattern reads from a sentence, before the extractor resolves its owner. */
export interface PatternFact {
  entityType: string;
  entity: string;
  key: string;
  value: string;
  confidence: number;
  named: boolean;
}

/** A graph node a sentence names: its name, its type and other names it goes by. */
export interface NodeCandidate {
  name: string;
  type: string;
  /** Other names of the node ("gRPC migration" for "REST to gRPC migration"). */
  aliases?: string[];
}
