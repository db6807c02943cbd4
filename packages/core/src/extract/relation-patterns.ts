import type { Clause } from './clauses.ts';
import { cleanPhrase, isEntityPhrase, nodeTypeOf, splitList, words } from './noun-phrases.ts';

/**
 * Relations the rules extractor recognises, one clause at a time:
 *
 * - "<A>[, <B> and <C>] depend(s) on / rel(y|ies) on <D>"            → A depends_on D
 * - "<A> is built on <B>" · "<A> uses <B>"                           → A uses B
 * - "<A> affects / impacts <B>"                                     → A affects B
 * - "we decided to use <Z> instead of <W>" · "we replaced <W> with <Z>" ·
 *   "we migrated from <W> to <Z>" · "<Z> replaces <W>"               → Z replaces W
 * - "we decided / agreed to <do X>"                                 → a `decision` node
 *
 * Negated sentences and plain questions yield nothing; what-ifs yield `hypothetical` relations.
 */

export interface NodeCandidate {
  name: string;
  type: string;
}

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
  /\s+(?:for|in|on|at|because|since|when|as|so|by|from|with|until|after|before|which|that|who|if|to|via|during|while|and then|but|now|today|anymore|too)\b.*$/i;

const DEPENDS =
  /^(.+?)\s+(?:depends|depend|is dependent|are dependent|relies|rely|is relying|are relying)\s+on\s+(.+)$/i;
const USES =
  /^(.+?)\s+(?:uses|use|is using|are using|is built on(?: top of)?|are built on(?: top of)?|runs on|run on)\s+(.+)$/i;
const AFFECTS =
  /^(.+?)\s+(?:affects|affect|impacts|impact|will affect|will impact|is affecting|are affecting)\s+(.+)$/i;
const DECIDED_INSTEAD =
  /^(?:we|i|the team)\s+(?:have\s+|had\s+)?(?:decided|agreed|chose|opted|are going|will|are)\s+(?:to\s+)?(?:use|go with|adopt|switch to|move to|migrate to|going with|switching to|moving to|migrating to|using)\s+(.+?)\s+(?:instead of|rather than|over)\s+(.+)$/i;
const REPLACED_WITH =
  /^(?:we|i|the team)\s+(?:have\s+|will\s+|are\s+)?(?:replaced|replacing|replace)\s+(.+?)\s+with\s+(.+)$/i;
const MIGRATED_FROM =
  /^(?:we|i|the team)\s+(?:have\s+|will\s+|are\s+)?(?:switched|moved|migrated|switching|moving|migrating|switch|move|migrate)\s+(?:.*?\s+)?from\s+(.+?)\s+to\s+(.+)$/i;
const REPLACES = /^(.+?)\s+(?:replaces|replaced|will replace|is replacing|supersedes|superseded)\s+(.+)$/i;
const DECIDED =
  /^(?:we|i|the team)\s+(?:have\s+|had\s+)?(?:decided|agreed)\s+(?:to|that we will|that we'll|we will)\s+(.+)$/i;

export interface RelationPatternContext {
  knownEntities: ReadonlySet<string>;
}

function nodeNames(
  raw: string,
  ctx: RelationPatternContext,
  atSentenceStart: boolean,
): NodeCandidate[] | null {
  const phrase = cleanPhrase(raw.replace(PHRASE_END, ''));
  const names = splitList(phrase);
  if (names.length === 0 || names.length > 8) return null;
  for (const name of names) {
    const ok = isEntityPhrase(name, {
      knownEntities: ctx.knownEntities,
      allowLowercase: true,
      atSentenceStart,
    });
    if (!ok || words(name).length > 5) return null;
  }
  return names.map((name) => ({ name, type: nodeTypeOf(name) }));
}

function pairs(
  relation: string,
  fromRaw: string,
  toRaw: string,
  ctx: RelationPatternContext,
): Array<Pick<RelationCandidate, 'from' | 'to' | 'relation'>> {
  const from = nodeNames(fromRaw, ctx, true);
  const to = nodeNames(toRaw, ctx, false);
  if (!from || !to) return [];
  const out: Array<Pick<RelationCandidate, 'from' | 'to' | 'relation'>> = [];
  for (const a of from) {
    for (const b of to) {
      if (a.name.toLowerCase() !== b.name.toLowerCase()) out.push({ from: a, to: b, relation });
    }
  }
  return out;
}

function matchRelations(text: string, ctx: RelationPatternContext) {
  const instead = DECIDED_INSTEAD.exec(text);
  if (instead) return pairs('replaces', instead[1]!, instead[2]!, ctx);
  const replacedWith = REPLACED_WITH.exec(text);
  if (replacedWith) return pairs('replaces', replacedWith[2]!, replacedWith[1]!, ctx);
  const migrated = MIGRATED_FROM.exec(text);
  if (migrated) return pairs('replaces', migrated[2]!, migrated[1]!, ctx);
  const depends = DEPENDS.exec(text);
  if (depends) return pairs('depends_on', depends[1]!, depends[2]!, ctx);
  const affects = AFFECTS.exec(text);
  if (affects) return pairs('affects', affects[1]!, affects[2]!, ctx);
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
