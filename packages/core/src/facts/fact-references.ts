import type { Scope } from '../scope/scope.ts';
import type { StoreTransaction } from '../store/contract.ts';
import type { FactRecord } from '../store/records.ts';
import { namesRelative } from '../text/relations.ts';
import { CURRENT, findAllFacts, winners } from './fact-reads.ts';

/**
 * Which stored fact a statement refers to when it does not spell the fact's identity out.
 *
 * - Entity types: a name seen again is the same entity. A named statement whose type is the
 *   generic `entity` (or whose key memory holds for that name under one other type) is stored
 *   under the type memory already has for the name, so "Supplier X" typed `supplier` by one
 *   extractor and `entity` by another stays one fact per key.
 * - Keys of corrections and what-ifs: "what if we extended terms to 90 days?" and "no, the terms
 *   are net 45" talk about a fact already in memory ("construction suppliers · payment terms").
 *   A key matches a stored key when one ends with the other, word for word, plurals folded
 *   ("terms" ↔ "payment terms", "time" ↔ "lead time"; not "delivery time" ↔ "lead time"). When
 *   exactly one current fact matches, the statement is about it; when several do, it is ambiguous
 *   and left for a human to resolve.
 */

export interface FactIdentity {
  entityType: string;
  entityId: string;
  key: string;
}

export type FactReference =
  | { kind: 'resolved'; fact: FactRecord }
  | { kind: 'ambiguous'; candidates: FactRecord[] }
  | { kind: 'none' };

function foldWord(word: string): string {
  return word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word;
}

function keyWords(key: string): string[] {
  return key
    .split(/\s+/)
    .filter((w) => w.length > 0)
    .map(foldWord);
}

/**
 * True when one key ends with the other, word for word ("terms" ↔ "payment terms"), unless the
 * words the longer adds name a relative: "birthday" is not "son birthday".
 */
export function keysMatch(stated: string, stored: string): boolean {
  const a = keyWords(stated);
  const b = keyWords(stored);
  if (a.length === 0 || b.length === 0) return false;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  const added = long.slice(0, long.length - short.length);
  return (
    short.every((word, i) => word === long[long.length - short.length + i]) && !namesRelative(added.join(' '))
  );
}

/** The one fact (per identity, the most specific scope's) among `facts`, or why there is not one. */
function pick(facts: FactRecord[]): FactReference {
  const found = winners(facts);
  if (found.length === 1) return { kind: 'resolved', fact: found[0]! };
  if (found.length > 1) return { kind: 'ambiguous', candidates: found };
  return { kind: 'none' };
}

/** Exact key first, then keys that match it (see `keysMatch`). */
function byKey(facts: FactRecord[], key: string): FactReference {
  const exact = pick(facts.filter((f) => f.key === key));
  if (exact.kind !== 'none') return exact;
  return pick(facts.filter((f) => keysMatch(key, f.key)));
}

/**
 * The current fact a correction or what-if refers to. `owner` is the entity it names (or a
 * participant the engine resolved: the speaker, the team), undefined when it names none.
 * `anyOwner` also searches every entity when the owner holds no matching key (for what-ifs, where
 * "we" is who would act, not necessarily whose fact it is). Only facts at or below `accessLevel`
 * are considered.
 */
export async function resolveFactReference(
  tx: Pick<StoreTransaction, 'facts'>,
  args: {
    scope: Scope;
    owner?: { entityType?: string; entityId: string };
    key: string;
    anyOwner: boolean;
    accessLevel: number;
  },
): Promise<FactReference> {
  const { scope, owner, key, accessLevel } = args;
  if (owner) {
    const own = await findAllFacts(tx, { scope, accessLevel, entityId: owner.entityId, status: CURRENT });
    const typed = owner.entityType ? own.filter((f) => f.entityType === owner.entityType) : [];
    const found = byKey(typed.length > 0 ? typed : own, key);
    if (found.kind !== 'none') return found;
    const all = await findAllFacts(tx, { scope, accessLevel, status: CURRENT });
    const slot = pick(all.filter((f) => sameSlot({ entityId: owner.entityId, key }, f)));
    if (slot.kind !== 'none' || !args.anyOwner) return slot;
  }
  const holders = await findAllFacts(tx, { scope, accessLevel, key, status: CURRENT });
  const exact = pick(holders);
  if (exact.kind !== 'none') return exact;
  const all = await findAllFacts(tx, { scope, accessLevel, status: CURRENT });
  return pick(all.filter((f) => keysMatch(key, f.key)));
}

/**
 * True when a correction names a stored fact's slot with its words split another way, or its
 * owner's name shortened: "shorts jury · chaired by" is "Northlight · shorts jury chaired by" (one
 * ends with the other, word for word, reaching into the owner's name), and "Northlight · opening
 * night" is "Northlight Film Festival · opening night", "board · chair" is "co-op board · chair" (same
 * key, one name opens or ends the other).
 */
export function sameSlot(stated: { entityId: string; key: string }, stored: FactIdentity): boolean {
  if (stated.entityId === stored.entityId || stated.entityId === '' || stored.entityId === '') return false;
  const nameA = keyWords(stated.entityId);
  const nameB = keyWords(stored.entityId);
  if (stated.key === stored.key) {
    const [short, long] = nameA.length <= nameB.length ? [nameA, nameB] : [nameB, nameA];
    const opens = short.every((word, i) => word === long[i]);
    return opens || short.every((word, i) => word === long[long.length - short.length + i]);
  }
  const a = [...nameA, ...keyWords(stated.key)];
  const b = [...nameB, ...keyWords(stored.key)];
  const [short, long, shortName] = a.length <= b.length ? [a, b, nameA] : [b, a, nameB];
  const keyLength = short.length - shortName.length;
  // The shorter must name part of the owner, not just end the same way as a key ("… chaired by").
  if (short.length < 2 || keyLength >= short.length) return false;
  return short.every((word, i) => word === long[long.length - short.length + i]);
}

/**
 * The type to store a named entity's fact under: the given one, unless memory already holds the
 * name under another single type and the given one is the generic `entity` or the key exists
 * only under that other type.
 */
export async function resolveEntityType(
  tx: Pick<StoreTransaction, 'facts'>,
  args: { scope: Scope; entityType: string; entityId: string; key: string },
): Promise<string> {
  const known = await findAllFacts(tx, { scope: args.scope, entityId: args.entityId, status: CURRENT });
  if (known.length === 0) return args.entityType;
  const withKey = new Set(known.filter((f) => f.key === args.key).map((f) => f.entityType));
  if (withKey.has(args.entityType)) return args.entityType;
  if (withKey.size === 1) return [...withKey][0]!;
  if (args.entityType !== 'entity' || withKey.size > 1) return args.entityType;
  const types = new Set(known.map((f) => f.entityType));
  return types.size === 1 ? [...types][0]! : args.entityType;
}

export function describeIdentity(fact: FactIdentity): string {
  return `${fact.entityId} · ${fact.key}`;
}
