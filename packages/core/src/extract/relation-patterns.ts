import type { Clause } from './clauses.ts';
import { decisionFrom } from './decision-patterns.ts';
import { tagPhrase } from './english-model.ts';
import {
  cleanPhrase,
  isEntityPhrase,
  isPronoun,
  type NodeCandidate,
  nodeTypeOf,
  splitList,
  stripDeterminers,
  words,
} from './noun-phrases.ts';

/**
 * Relations the rules extractor recognises, one clause at a time:
 *
 * - "<A>[, <B> and <C>] depend(s) on / rel(y|ies) on <D>"            → A depends_on D
 * - "<A> is built on <B>" · "<A> uses <B>"                           → A uses B
 * - "<A> affects / impacts <B>"                                     → A affects B
 * - "<A> blocks <B>" · "<B> is blocked by <A>"                      → A blocks B
 * - "we decided to use <Z> instead of <W>" · "we replaced <W> with <Z>" ·
 *   "we migrated from <W> to <Z>" · "<Z> replaces <W>"               → Z replaces W
 * - "we decided / agreed to <do X>"                                 → a `decision` node
 * - "we chose <X> over <Y> for <Z>"                  → Z uses X, X chosen_over Y (`decision-patterns.ts`)
 *
 * "The REST to gRPC migration" and "the migration from REST to gRPC" name one node, the migration
 * (a `decision`, also known as "gRPC migration"), and imply that gRPC replaces REST. Quantifiers
 * and adverbs between a subject and its verb ("… all depend on …") and "our" before a name are not
 * part of names. Negated sentences and plain questions yield nothing; what-ifs yield
 * `hypothetical` relations.
 */

export interface RelationCandidate {
  from: NodeCandidate;
  to: NodeCandidate;
  relation: string;
  confidence: number;
  kind: 'statement' | 'hypothetical';
  evidence: string;
}

const HYPOTHETICAL_LEAD =
  /^(?:what if|suppose|supposing|imagine|hypothetically|let'?s say|say|in case|assuming|assume|if)\b\s*(?:that\s+)?/i;
/** Where a noun phrase ends: the start of a trailing clause or prepositional phrase. */
const PHRASE_END =
  /\s+(?:for|in|on|at|because|since|when|as|so|by|from|with|until|after|before|which|that|who|if|to|via|during|while|and then|but|now|today|anymore|too)(?=\s|$).*$/i;

const DEPENDS =
  /^(.+?)\s+(?:(?:depends|depend|is dependent|are dependent|relies|rely|is relying|are relying)\s+on|(?:can(?:no|')?t|could(?:n't| not)) (?:run|work|function|operate|ship|start|go live)\s+without)\s+(.+)$/i;
const USES =
  /^(.+?)\s+(?:uses|use|is using|are using|is built on(?: top of)?|are built on(?: top of)?|runs on|run on)\s+(.+)$/i;
const AFFECTS =
  /^(.+?)\s+(?:affects|affect|impacts|impact|will affect|will impact|is affecting|are affecting|is impacting|are impacting|hits|hit|is hitting|are hitting|hurts|is hurting|are hurting)\s+(.+)$/i;
const BLOCKS =
  /^(.+?)\s+(?:blocks|block|is blocking|are blocking|will block|is holding up|are holding up)\s+(.+)$/i;
const BLOCKED_BY = /^(.+?)\s+(?:is|are)\s+(?:blocked|held up)\s+by\s+(.+)$/i;
const DECIDED_INSTEAD =
  /^(?:we|i|the team)\s+(?:have\s+|had\s+)?(?:decided|agreed|chose|opted|are going|will|are)\s+(?:to\s+)?(?:use|go with|adopt|switch to|move to|migrate to|going with|switching to|moving to|migrating to|using)\s+(.+?)\s+(?:instead of|rather than|over)\s+(.+)$/i;
/** "The paper form has been replaced by the Admit portal": the portal replaces the form. */
const REPLACED_BY =
  /^(.+?)\s+(?:has been|have been|was|were|is|are|got|is being|are being)\s+(?:replaced|superseded)\s+by\s+(.+)$/i;
const REPLACED_WITH =
  /^(?:we|i|the team)\s+(?:have\s+|will\s+|are\s+)?(?:replaced|replacing|replace)\s+(.+?)\s+with\s+(.+)$/i;
const MIGRATED_FROM =
  /^(?:we|i|the team)\s+(?:have\s+|will\s+|are\s+)?(?:switched|moved|migrated|switching|moving|migrating|switch|move|migrate)\s+(?:.*?\s+)?from\s+(.+?)\s+to\s+(.+)$/i;
const REPLACES =
  /^(.+?)\s+(?:(?:has|have|had)\s+)?(?:replaces|replaced|will replace|is replacing|supersedes|superseded)\s+(.+)$/i;
const DECIDED =
  /^(?:we|i|the team)\s+(?:have\s+|had\s+)?(?:decided|agreed)\s+(?:to|that we will|that we'll|we will)\s+(.+)$/i;

export interface RelationPatternContext {
  knownEntities: ReadonlySet<string>;
}

/** Nouns for a change from one thing to another that leaves the new one in place of the old. */
const CHANGE_NOUNS = '(?:migration|move|switch|upgrade|cutover|cut-over|changeover|conversion)';
/** One to three words of a name (as few as possible). */
const SHORT_NAME = "[\\p{L}\\p{N}][\\p{L}\\p{N}.+#/'-]*(?:\\s+[\\p{L}\\p{N}][\\p{L}\\p{N}.+#/'-]*){0,2}?";
/** "the REST to gRPC migration …" (what follows the noun is returned separately). */
const A_TO_B_CHANGE = new RegExp(
  `^(?:the\\s+|our\\s+|this\\s+)?(${SHORT_NAME})\\s+to\\s+(${SHORT_NAME})\\s+(${CHANGE_NOUNS})(?=\\s|$)(.*)$`,
  'iu',
);
/** "the migration from REST to gRPC …" (what follows "to" is cut where a trailing phrase begins). */
const CHANGE_FROM_A_TO_B = new RegExp(
  `^(?:the\\s+|our\\s+|this\\s+)?(${CHANGE_NOUNS})\\s+from\\s+(${SHORT_NAME})\\s+to\\s+(.+)$`,
  'iu',
);

/** A change from one thing to another, named as one node, and what it implies: `to` replaces `from`. */
interface ChangeNode {
  node: NodeCandidate;
  from: NodeCandidate;
  to: NodeCandidate;
}

function changeNode(raw: string, ctx: RelationPatternContext): { change: ChangeNode; rest: string } | null {
  const phrase = cleanPhrase(raw);
  let from: string;
  let to: string;
  let noun: string;
  let name: string;
  let rest = '';
  const compound = A_TO_B_CHANGE.exec(phrase);
  const spelled = compound ? null : CHANGE_FROM_A_TO_B.exec(phrase);
  if (compound) {
    [from, to, noun] = [compound[1]!, compound[2]!, compound[3]!];
    name = `${from} to ${to} ${noun}`;
    rest = compound[4]!;
  } else if (spelled) {
    [noun, from, to] = [spelled[1]!, spelled[2]!, cleanPhrase(spelled[3]!.replace(PHRASE_END, ''))];
    if (words(to).length === 0 || words(to).length > 3) return null;
    name = `${noun} from ${from} to ${to}`;
  } else {
    return null;
  }
  for (const end of [from, to]) {
    if (isPronoun(words(end)[0]!) || /^\d/.test(end)) return null;
    if (!isEntityPhrase(end, { knownEntities: ctx.knownEntities, allowLowercase: true })) return null;
  }
  if (from.toLowerCase() === to.toLowerCase()) return null;
  const lower = noun.toLowerCase();
  const aliases = [
    `${from} to ${to} ${lower}`,
    `${lower} from ${from} to ${to}`,
    `${to} ${lower}`,
    `${lower} to ${to}`,
  ].filter((alias) => alias.toLowerCase() !== name.toLowerCase());
  return {
    change: {
      node: { name, type: 'decision', aliases },
      from: { name: from, type: nodeTypeOf(from) },
      to: { name: to, type: nodeTypeOf(to) },
    },
    rest,
  };
}

const EVENT_OF =
  /^(?:the\s+)?(delays?|outages?|shortages?|strikes?|failures?|disruptions?|downtime|price rises|price increases)\s+(at|of|in|on|with)\s+(.+)$/i;

function nodeNames(
  raw: string,
  ctx: RelationPatternContext,
  atSentenceStart: boolean,
  changes: ChangeNode[],
): NodeCandidate[] | null {
  const change = changeNode(raw, ctx);
  if (change) {
    // Only a trailing phrase may follow the compound ("… migration for internal services").
    if (cleanPhrase(change.rest.replace(PHRASE_END, '')).length > 0) return null;
    changes.push(change.change);
    return [change.change.node];
  }
  // "Missing the security audit blocks …": the thing missed is what the relation is about.
  const said = cleanPhrase(raw);
  const missed = /^(?:missing|skipping|failing|losing|delaying)\s+(the\s+.+)$/i.exec(said);
  // "Outages of the carrier API", "Delays at Kestrel Metals": an event of a thing is one node.
  const event = EVENT_OF.exec(said);
  const phrase = event
    ? cleanPhrase(`${event[1]} ${event[2]} ${event[3]!.replace(PHRASE_END, '')}`)
    : cleanPhrase((missed ? missed[1]! : raw).replace(PHRASE_END, ''));
  const names = event ? [stripDeterminers(phrase)] : splitList(phrase);
  if (names.length === 0 || names.length > 8) return null;
  for (const name of names) {
    // "5" in "the 5 to 10 day delay" is not a thing.
    if (!/\p{L}/u.test(name)) return null;
    const ok = isEntityPhrase(name, {
      knownEntities: ctx.knownEntities,
      allowLowercase: true,
      atSentenceStart,
    });
    if (!ok || words(name).length > 5) return null;
  }
  return names.map((name) => ({ name, type: nodeTypeOf(name) }));
}

type RelationPair = Pick<RelationCandidate, 'from' | 'to' | 'relation'>;

function pairs(
  relation: string,
  fromRaw: string,
  toRaw: string,
  ctx: RelationPatternContext,
): RelationPair[] {
  const changes: ChangeNode[] = [];
  const from = nodeNames(fromRaw, ctx, true, changes);
  const to = nodeNames(toRaw, ctx, false, changes);
  if (!from || !to) return [];
  const out: RelationPair[] = [];
  for (const a of from) {
    for (const b of to) {
      if (a.name.toLowerCase() !== b.name.toLowerCase()) out.push({ from: a, to: b, relation });
    }
  }
  if (out.length === 0) return out;
  // "the REST to gRPC migration" says gRPC replaces REST.
  for (const change of changes) out.push({ from: change.to, to: change.from, relation: 'replaces' });
  return out;
}

/** Work a plan is made of: "the controlled-drugs audit", "the CQC sign-off". */
const WORK_NOUNS =
  /(?:^|\s)(?:audit|review|approval|sign-off|signoff|inspection|migration|rollout|launch|release|upgrade|certification|assessment|investigation|outage|shortage|shortages|strike|delay|delays|backlog|automation|checks|tests|build|builds|deploys|deployment|handover)$/i;

/** A node a plan can hinge on: a name, a component, a decision, a piece of work, or something memory knows. */
function isWorkItem(node: NodeCandidate, ctx: RelationPatternContext): boolean {
  const tags = tagPhrase(node.name);
  // "Running the migration blocks …": an action, not a thing ("missing the audit" names the audit, above).
  if (tags[0]?.pos === 'VERB' && /ing$/i.test(tags[0].text)) return false;
  return (
    node.type !== 'entity' ||
    WORK_NOUNS.test(node.name) ||
    ctx.knownEntities.has(node.name.toLowerCase()) ||
    tags.some((t, i) => t.pos === 'PROPN' && (i > 0 || isName(t.text)))
  );
}

/** A capitalised first word is no name when, in lower case, it reads as a describing or function word ("Heavy rain"). */
function isName(word: string): boolean {
  const lower = tagPhrase(word.toLowerCase())[0]?.pos ?? 'PROPN';
  return !/^(?:ADJ|ADV|VERB|AUX|DET|PRON|ADP|CCONJ|SCONJ|PART)$/.test(lower);
}

/** "Interview scheduling uses Calendly, and the scholarship review relies on the finance system": each part its own. */
function matchRelations(text: string, ctx: RelationPatternContext): RelationPair[] {
  const parts = text.split(/,\s+and\s+|;\s+/);
  if (parts.length > 1) {
    const each = parts.map((part) => matchOne(part, ctx));
    if (each.every((found) => found.length > 0)) return each.flat();
  }
  return matchOne(text, ctx);
}

function matchOne(text: string, ctx: RelationPatternContext): RelationPair[] {
  const instead = DECIDED_INSTEAD.exec(text);
  if (instead) return pairs('replaces', instead[1]!, instead[2]!, ctx);
  const replacedBy = REPLACED_BY.exec(text);
  if (replacedBy) return pairs('replaces', replacedBy[2]!, replacedBy[1]!, ctx);
  const replacedWith = REPLACED_WITH.exec(text);
  if (replacedWith) return pairs('replaces', replacedWith[2]!, replacedWith[1]!, ctx);
  const migrated = MIGRATED_FROM.exec(text);
  if (migrated) return pairs('replaces', migrated[2]!, migrated[1]!, ctx);
  const depends = DEPENDS.exec(text);
  if (depends) return pairs('depends_on', depends[1]!, depends[2]!, ctx);
  const affects = AFFECTS.exec(text);
  if (affects) return pairs('affects', affects[1]!, affects[2]!, ctx);
  const blockedBy = BLOCKED_BY.exec(text);
  const blocks = blockedBy ? null : BLOCKS.exec(text);
  if (blockedBy || blocks) {
    const [blocker, blocked] = blockedBy ? [blockedBy[2]!, blockedBy[1]!] : [blocks![1]!, blocks![2]!];
    // "the lorry is blocking the entrance" is no dependency: only between names, components and decisions.
    return pairs('blocks', blocker, blocked, ctx).filter((p) =>
      [p.from, p.to].every((n) => isWorkItem(n, ctx)),
    );
  }
  const replaces = REPLACES.exec(text);
  if (replaces) return pairs('replaces', replaces[1]!, replaces[2]!, ctx);
  const uses = USES.exec(text);
  if (uses) {
    // "uses" is common in plain speech; only keep it between names or components.
    return pairs('uses', uses[1]!, uses[2]!, ctx).filter(
      (p) =>
        p.to.type === 'component' ||
        /^\p{Lu}|\p{Lu}/u.test(p.to.name) ||
        ctx.knownEntities.has(p.to.name.toLowerCase()),
    );
  }
  return [];
}

/** The relations and decision nodes one clause states. */
export function relationsFromClause(
  clause: Clause,
  ctx: RelationPatternContext,
): { relations: RelationCandidate[]; decisions: NodeCandidate[] } {
  const none = { relations: [], decisions: [] };
  if (clause.negated) return none;
  if (clause.question && !clause.hypothetical) return none;
  const text = clause.hypothetical
    ? clause.text.replace(HYPOTHETICAL_LEAD, '').replace(/[?!.]+$/, '')
    : clause.text;
  const kind = clause.hypothetical ? 'hypothetical' : 'statement';
  const confidence = clause.hypothetical ? 0.3 : clause.hedged ? 0.5 : 0.85;
  const decision = kind === 'statement' ? decisionFrom(text, ctx.knownEntities) : null;
  if (decision) {
    return {
      relations: decision.edges.map((e) => ({ ...e, kind, confidence, evidence: clause.original })),
      decisions: [],
    };
  }
  const relations = matchRelations(text, ctx).map(
    (p) => ({ ...p, kind, confidence, evidence: clause.original }) as const,
  );
  const decisions: NodeCandidate[] = [];
  if (kind === 'statement' && !clause.hedged) {
    const decided = DECIDED.exec(text);
    if (decided && relations.length === 0) {
      const name = cleanPhrase(decided[1]!);
      if (words(name).length >= 1 && words(name).length <= 12) decisions.push({ name, type: 'decision' });
    }
  }
  return { relations, decisions };
}
