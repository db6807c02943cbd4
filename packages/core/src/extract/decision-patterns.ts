import { tagPhrase } from './english-model.ts';
import {
  cleanPhrase,
  isComponentName,
  isPronoun,
  isValidKey,
  type NodeCandidate,
  nodeTypeOf,
  type PatternFact,
  stripDeterminers,
  words,
} from './noun-phrases.ts';

/**
 * Decisions: "<we> <chose> <choice> [over <alternative>] [for|as <purpose>] [because <reason>]".
 *
 *   "We chose NATS over Kafka for the event bus because it is simpler to run."
 *     → event bus · decision = NATS, event bus · decision reason = it is simpler to run
 *     → edges: event bus `uses` NATS (so the impact of NATS reaches what depends on the event
 *       bus), NATS `chosen_over` Kafka
 *   "For the design system we went with Tailwind, since it keeps the bundle small."
 *   "We selected Brightline Components as the supplier for the sensor boards."
 *
 * What the decision is for owns the facts: a later decision for the same purpose supersedes the
 * earlier one. Without a purpose there is no owner and the sentence yields nothing here.
 */

export interface DecisionEdge {
  from: NodeCandidate;
  to: NodeCandidate;
  relation: 'uses' | 'chosen_over';
}

export interface Decision {
  facts: PatternFact[];
  edges: DecisionEdge[];
}

const DECIDER =
  '(?:we|i|the team|our team|the (?:board|committee|council|panel|client|family|organisers|organizers|management|leadership))';
const CHOSE =
  '(?:have\\s+|had\\s+|finally\\s+|eventually\\s+)?(?:chose|chosen|picked|selected|went with|opted for|settled on|decided on|decided to (?:use|go with|pick|choose)|are going with|agreed on|booked|hired|went for|gone for|gone with|locked in)';
const DECIDED = new RegExp(`^${DECIDER}\\s+${CHOSE}\\s+(.+)$`, 'i');
/** "For the design system we went with Tailwind …": the purpose before the decider. */
const FRONTED = new RegExp(`^for\\s+(.+?),?\\s+${DECIDER}\\s+${CHOSE}\\s+(.+)$`, 'i');
/** Where the reason begins: a subordinating conjunction (or "to" + verb after a comma or a purpose). */
const REASON = /(?:,\s*|\s+)(?:because of|because|since|as|so that|given that|due to)\s+(.+)$/i;
const PURPOSE_TO = /\s+(to\s+\p{Ll}+\b.*)$/u;

/** "as the pilot customer": "as" before a determiner names a role when a reason follows or no verb does. */
const ROLE_AS = /\s+as\s+(?=(?:the|a|an|our)\s)/gi;

function splitReason(rest: string): { head: string; reason?: string } {
  // Hide a role's "as" (same length, so offsets hold) before looking for the reason.
  let masked = rest;
  for (const role of rest.matchAll(ROLE_AS)) {
    const after = rest.slice(role.index + role[0].length);
    const noVerb = !tagPhrase(after).some((t) => t.pos === 'VERB' || t.pos === 'AUX');
    if (/\b(?:because|since)\b/i.test(after) || noVerb) {
      const at = role.index + role[0].toLowerCase().indexOf('as');
      masked = `${masked.slice(0, at)}\u0000\u0000${masked.slice(at + 2)}`;
    }
  }
  const reason = REASON.exec(masked);
  if (reason) {
    const start = reason.index + reason[0].length - reason[1]!.length;
    return { head: rest.slice(0, reason.index), reason: cleanPhrase(rest.slice(start)) };
  }
  const purpose = PURPOSE_TO.exec(rest);
  if (purpose && /\s+(?:for|over|as)\s/i.test(rest.slice(0, purpose.index))) {
    return { head: rest.slice(0, purpose.index), reason: cleanPhrase(purpose[1]!) };
  }
  return { head: rest };
}

function nounPhrase(raw: string): string | undefined {
  const phrase = stripDeterminers(raw);
  const tokens = words(phrase);
  if (tokens.length === 0 || tokens.length > 5 || isPronoun(tokens[0]!)) return undefined;
  return phrase;
}

/** The decision a clause states, or null when it states none. */
export function decisionFrom(text: string, known: ReadonlySet<string>): Decision | null {
  // "instead of" / "rather than" say the choice replaces the alternative (`relation-patterns.ts`).
  if (/\b(?:instead of|rather than)\b/i.test(text)) return null;
  let purposeRaw: string | undefined;
  let rest: string;
  const fronted = FRONTED.exec(text);
  const plain = fronted ? null : DECIDED.exec(text);
  if (fronted) {
    purposeRaw = fronted[1]!;
    rest = fronted[2]!;
  } else if (plain) {
    rest = plain[1]!;
  } else {
    return null;
  }
  const { head: said, reason } = splitReason(cleanPhrase(rest));
  // "chose Buzzsprout to host the show": what it was chosen to do names the purpose.
  const toDo = /^(.+?)\s+to\s+(\p{Ll}+)\s+((?:the|our|my|their)\s+.+)$/u.exec(said);
  const head = toDo && tagPhrase(toDo[2]!)[0]?.pos === 'VERB' ? toDo[1]! : said;
  if (head !== said) purposeRaw ??= toDo![3]!;
  // choice [over alternative] [for|as purpose…]; the last "for" names the purpose.
  const parts = /^(.+?)(?:\s+over\s+(.+?))?((?:\s+(?:for|as)\s+.+?)*)$/i.exec(head);
  if (!parts) return null;
  const choice = nounPhrase(parts[1]!);
  const alternative = parts[2] ? nounPhrase(parts[2]) : undefined;
  const modifiers = [...(parts[3] ?? '').matchAll(/\s+(for|as)\s+(.+?)(?=\s+(?:for|as)\s+|$)/gi)];
  const lastFor = [...modifiers].reverse().find((m) => m[1]!.toLowerCase() === 'for');
  const role = modifiers.find((m) => m[1]!.toLowerCase() === 'as');
  purposeRaw ??= (lastFor ?? role)?.[2];
  if (!choice || !purposeRaw) return null;
  // "as our photographer": whose role it is does not name it; "for two" is a count, not a purpose.
  const purpose = nounPhrase(purposeRaw.replace(/^(?:our|my|their)\s+/i, ''));
  if (
    purpose &&
    /^(?:\d|(?:one|two|three|four|five|six|seven|eight|nine|ten|a few|several)\b)/i.test(purpose)
  )
    return null;
  if (!purpose || !isValidKey(purpose.replace(/[^\p{L}\p{N}\s'-]/gu, ' '))) return null;
  if (/^(?:to|not|on|with|it)\b/i.test(choice) && !known.has(choice.toLowerCase())) return null;
  const facts: PatternFact[] = [
    { entityType: 'entity', entity: purpose, key: 'decision', value: choice, confidence: 0.85, named: true },
  ];
  const reasonValue = reason?.replace(/^of\s+/i, '');
  if (reasonValue && words(reasonValue).length <= 14) {
    facts.push({
      entityType: 'entity',
      entity: purpose,
      key: 'decision reason',
      value: reasonValue,
      confidence: 0.85,
      named: true,
    });
  }
  const node = (name: string): NodeCandidate => ({ name, type: nodeTypeOf(name) });
  // Only a component uses what was chosen for it: "event bus uses NATS", not "offsite uses Lisbon".
  const edges: DecisionEdge[] = isComponentName(purpose)
    ? [{ from: node(purpose), to: node(choice), relation: 'uses' }]
    : [];
  if (alternative && alternative.toLowerCase() !== choice.toLowerCase()) {
    edges.push({ from: node(choice), to: node(alternative), relation: 'chosen_over' });
  }
  return { facts, edges };
}
