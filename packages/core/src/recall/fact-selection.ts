import type { MemoryPolicy } from '../engine/types.ts';
import { type Scope, scopeDepth } from '../scope/scope.ts';
import type { Store } from '../store/contract.ts';
import type { FactRecord, JsonValue } from '../store/records.ts';
import { escapeMemoryText, formatDay } from '../text/render-context.ts';
import { contentWords, termsOf } from '../text/terms.ts';

const DAY_MS = 86_400_000;
/** Below this confidence a fact is shown with its confidence. */
export const CONFIDENT = 0.9;
/** Facts read per recall at most (pages of 1,000). */
const MAX_FACTS = 5_000;

export interface FactCandidate {
  fact: FactRecord;
  /** Rendered line (escaped). */
  text: string;
  stale: boolean;
  /** Lexical relevance to the query, 0..1 of the best fact's (0 without a query). */
  relevance: number;
  value: number;
  reason: string;
}

/**
 * Current facts visible at `scope` (active or stale; superseded versions are never read), one per
 * (entityType, entityId, key): when several scopes hold the key, the most specific scope wins.
 */
export async function loadCurrentFacts(args: {
  store: Store;
  scope: Scope;
  accessLevel: number;
}): Promise<{ current: FactRecord[]; shadowed: Array<{ fact: FactRecord; by: FactRecord }> }> {
  const all: FactRecord[] = [];
  let cursor: string | undefined;
  do {
    const page = await args.store.facts.find({
      scope: args.scope,
      accessLevel: args.accessLevel,
      status: ['active', 'stale'],
      limit: 1000,
      ...(cursor === undefined ? {} : { cursor }),
    });
    all.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor !== undefined && all.length < MAX_FACTS);

  const winners = new Map<string, FactRecord>();
  const shadowed: Array<{ fact: FactRecord; by: FactRecord }> = [];
  for (const fact of all) {
    if (fact.status !== 'active' && fact.status !== 'stale') continue;
    const key = JSON.stringify([fact.entityType, fact.entityId, fact.key]);
    const held = winners.get(key);
    if (!held) {
      winners.set(key, fact);
      continue;
    }
    const better =
      scopeDepth(fact.scope) - scopeDepth(held.scope) ||
      fact.version - held.version ||
      fact.createdAt - held.createdAt;
    if (better > 0) {
      winners.set(key, fact);
      shadowed.push({ fact: held, by: fact });
    } else shadowed.push({ fact, by: held });
  }
  return { current: [...winners.values()], shadowed };
}

export function isStale(
  fact: FactRecord,
  now: number,
  policy: Pick<MemoryPolicy, 'staleAfterDays'>,
): boolean {
  return fact.status === 'stale' || now - fact.lastConfirmedAt > policy.staleAfterDays * DAY_MS;
}

/**
 * A fact's value as one readable line: a string as it is; a document as its fields,
 * `name: Ada; diet.kind: vegan; tags: a, b` (nested fields by their path, lists of plain values
 * joined); so a document reads the same as the text it is indexed by, without JSON's quotes and
 * braces.
 */
export function factValueText(value: JsonValue): string {
  if (typeof value === 'string') return value;
  const fields: string[] = [];
  fieldLines(value, '', fields);
  return fields.join('; ');
}

function fieldLines(value: JsonValue, path: string, out: string[]): void {
  const at = (text: string) => out.push(path ? `${path}: ${text}` : text);
  if (value === null || typeof value !== 'object') return void at(String(value));
  const entries: Array<[string, JsonValue]> = Array.isArray(value)
    ? value.map((v, i) => [`${path}[${i}]`, v])
    : Object.entries(value).map(([k, v]) => [path ? `${path}.${k}` : k, v]);
  if (entries.length === 0) return void at('(empty)');
  if (Array.isArray(value) && value.every((v) => v === null || typeof v !== 'object')) {
    return void at(value.map(String).join(', '));
  }
  for (const [inner, v] of entries) fieldLines(v, inner, out);
}

/** `supplier x · lead time: 30 days (said by u1, 2025-12-01; unconfirmed since 2025-12-01)` */
export function renderFact(fact: FactRecord, stale: boolean): string {
  const notes = factNotes(fact, stale);
  return escapeMemoryText(
    `${entityLabel(fact)} · ${fact.key}: ${factValueText(fact.value)} (${notes.join('; ')})`,
  );
}

/**
 * The block's facts: one line per entity, its facts in the order given (`user ada · name: Ada ·
 * diet: vegetarian`). A fact the viewer stated carries no source or date (the block is theirs;
 * `explain()` and `facts.history` keep both); a fact someone else stated, or with no one on record,
 * keeps who and when; low confidence and staleness are always noted.
 */
export function blockFactLines(facts: readonly FactCandidate[], viewerId: string | undefined): string[] {
  const groups = new Map<string, string[]>();
  for (const { fact, stale } of facts) {
    const own = viewerId !== undefined && fact.provenance.principalId === viewerId;
    const notes = factNotes(fact, stale).slice(own ? 1 : 0);
    const field = `${fact.key}: ${factValueText(fact.value)}${notes.length > 0 ? ` (${notes.join('; ')})` : ''}`;
    const label = entityLabel(fact);
    const fields = groups.get(label);
    if (fields) fields.push(field);
    else groups.set(label, [field]);
  }
  return [...groups].map(([label, fields]) => escapeMemoryText(`${label} · ${fields.join(' · ')}`));
}

function entityLabel(fact: FactRecord): string {
  return fact.entityType === 'entity' ? fact.entityId : `${fact.entityType} ${fact.entityId}`;
}

/** Source and date first, then low confidence and staleness. */
function factNotes(fact: FactRecord, stale: boolean): string[] {
  const notes: string[] = [];
  const who = fact.provenance.principalId;
  notes.push(who ? `${who}, ${formatDay(fact.validFrom)}` : formatDay(fact.validFrom));
  if (fact.confidence < CONFIDENT) notes.push(`confidence ${fact.confidence.toFixed(2)}`);
  if (stale) notes.push(`unconfirmed since ${formatDay(fact.lastConfirmedAt)}`);
  return notes;
}

/**
 * Scores facts for packing. With a query, facts are ranked by BM25-style overlap of the query's
 * terms with the fact's entity, key and value (plus a lift when the query names the entity);
 * facts that share no term with the query keep a small value, so they fill leftover budget. Without
 * a query, value follows confidence and how recently the fact was confirmed.
 */
export function scoreFacts(args: {
  facts: FactRecord[];
  query?: string;
  now: number;
  policy: Pick<MemoryPolicy, 'staleAfterDays'>;
}): FactCandidate[] {
  const docs = args.facts.map((fact) =>
    termsOf(`${fact.entityType} ${fact.entityId} ${fact.key} ${factValueText(fact.value)}`),
  );
  const queryTerms = args.query ? new Set(contentWords(args.query)) : new Set<string>();
  const queryLower = args.query?.toLowerCase() ?? '';
  const df = new Map<string, number>();
  for (const doc of docs) for (const term of new Set(doc)) df.set(term, (df.get(term) ?? 0) + 1);
  const n = docs.length;
  const avgLen = docs.reduce((s, d) => s + d.length, 0) / Math.max(1, n);
  const raw = args.facts.map((fact, i) => {
    if (queryTerms.size === 0) return 0;
    const doc = docs[i]!;
    const tf = new Map<string, number>();
    for (const term of doc) tf.set(term, (tf.get(term) ?? 0) + 1);
    let score = 0;
    for (const term of queryTerms) {
      const f = tf.get(term);
      if (!f) continue;
      const idf = Math.log(1 + (n - df.get(term)! + 0.5) / (df.get(term)! + 0.5));
      score += (idf * f * 2.2) / (f + 1.2 * (0.25 + 0.75 * (doc.length / (avgLen || 1))));
    }
    if (fact.entityId.length > 1 && containsPhrase(queryLower, fact.entityId.toLowerCase())) score += 1;
    return score;
  });
  const top = Math.max(0, ...raw);
  return args.facts.map((fact, i) => {
    const stale = isStale(fact, args.now, args.policy);
    const relevance = top > 0 ? raw[i]! / top : 0;
    const freshness = 0.5 ** ((args.now - fact.lastConfirmedAt) / (args.policy.staleAfterDays * DAY_MS));
    const value = args.query
      ? (0.15 + 0.85 * relevance) * (0.8 + 0.2 * fact.confidence) * (stale ? 0.8 : 1)
      : (0.5 + 0.3 * fact.confidence + 0.2 * freshness) * (stale ? 0.8 : 1);
    const reason = [
      'current fact visible at this scope',
      args.query
        ? relevance > 0
          ? `query relevance ${relevance.toFixed(2)}`
          : 'no query terms in common'
        : '',
      stale ? `stale: unconfirmed since ${formatDay(fact.lastConfirmedAt)}` : '',
    ]
      .filter(Boolean)
      .join('; ');
    return { fact, text: renderFact(fact, stale), stale, relevance, value, reason };
  });
}

function containsPhrase(haystack: string, phrase: string): boolean {
  const escaped = phrase.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, 'u').test(haystack);
}
