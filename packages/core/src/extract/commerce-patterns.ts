import { GROUP_ENTITY } from './entity-references.ts';
import { entityName, isEntityPhrase, isPronoun, isValidKey, isValidValue, words } from './noun-phrases.ts';
import { ownerOf, properOwner } from './subject-phrases.ts';
import { cleanValue } from './value-phrases.ts';

/**
 * Payment and price statements, where the attribute is implied by the verb rather than named:
 *
 * - "<Entity> are paid <terms or amount>" (also "are all paid", "get paid")  → payment terms / pay rate
 * - "we pay <Entity> <terms>" · "we pay <Entity> <amount per unit>"           → payment terms / pay rate
 * - "<Name> quoted <amount> [for <item>]"                                     → quote [for <item>]
 *
 * "Our" before the entity is dropped ("our construction suppliers" are the construction suppliers).
 * Amounts and terms are kept exactly as written.
 */

export interface CommerceFact {
  entityType: string;
  entity: string;
  key: string;
  value: string;
  confidence: number;
  named: boolean;
}

const PAID =
  /^(.+?)\s+(?:is|are|get|gets|is being|are being)\s+(?:(?:all|both|each|also|usually|always|normally|typically|generally|currently|now|still)\s+)?paid\s+(.+)$/i;
const WE_PAY =
  /^we\s+(?:(?:usually|always|normally|typically|generally|currently|now|still|also|only)\s+)?pay\s+(.+)$/i;
const QUOTED = /^(.+?)\s+(?:has\s+|have\s+)?(?:quoted|quotes|is quoting)\s+(?:us\s+|me\s+)?(.+)$/i;

const TERMS =
  '(?:net\\s*\\d+|within\\s+\\d+\\s+days|\\d+\\s+days|weekly|monthly|bi-?weekly|fortnightly|quarterly|every\\s+(?:week|month|quarter|two weeks|fortnight|\\d+\\s+days)|on\\s+delivery|cash\\s+on\\s+delivery|upfront|up front|in advance|on receipt|on invoice|end of month)';
const PAYMENT_TERMS = new RegExp(`^${TERMS}`, 'i');
/** Terms after the payee: "we pay construction suppliers | net 60". */
const TERMS_AFTER_PAYEE = new RegExp(`\\s(${TERMS})(?=[\\s,.;!]|$)`, 'i');
const AMOUNT = /^(?:[$€£¥]\s?\d|\d[\d,.]*\s?(?:k\s+)?(?:usd|eur|gbp|chf|dollars|euros|pounds)\b)/i;
const AMOUNT_AFTER_PAYEE = /\s((?:[$€£¥]\s?\d|\d[\d,.]*\s?(?:usd|eur|gbp|chf|dollars|euros|pounds)\b).*)$/i;
/** A rate: an amount per unit of time or quantity ("$85 per hour", "€40 a day", "$12/unit"). */
const RATE =
  /(?:\bper\s+\w+|\b(?:an?|each|every)\s+(?:hour|day|week|month|year|unit|item|piece|tonne|ton|kg|shift|visit)\b|\/\s*\p{L}+)/iu;
/** Payees that stand for all of our payments: "we pay invoices within 30 days" are our terms. */
const OUR_PAYABLES =
  /^(?:invoices|bills|all invoices|all bills|everyone|everybody|all suppliers|all vendors)$/i;

function payee(phrase: string, known: ReadonlySet<string>): { entityType: string; entity: string } | null {
  const name = entityName(phrase);
  if (OUR_PAYABLES.test(name)) return { ...GROUP_ENTITY };
  const first = words(name)[0];
  if (!first || isPronoun(first)) return null;
  if (!isEntityPhrase(name, { knownEntities: known, allowLowercase: true, atSentenceStart: false }))
    return null;
  return ownerOf(name);
}

function paymentFact(
  owner: { entityType: string; entity: string },
  value: string,
  rateOnly: boolean,
): CommerceFact[] {
  if (!isValidValue(value)) return [];
  const key = PAYMENT_TERMS.test(value)
    ? 'payment terms'
    : AMOUNT.test(value) && (!rateOnly || RATE.test(value))
      ? 'pay rate'
      : undefined;
  if (!key) return [];
  const named = owner.entity !== GROUP_ENTITY.entity;
  return [{ ...owner, key, value, confidence: 0.85, named }];
}

/**
 * The payment or quote facts a clause states; null when it is not one of these forms (or a "we
 * pay" / "quoted" sentence that states none, so other patterns may still read it).
 */
export function commerceFacts(text: string, known: ReadonlySet<string>): CommerceFact[] | null {
  const paid = PAID.exec(text);
  if (paid) {
    const owner = payee(paid[1]!, known);
    if (!owner) return [];
    return paymentFact(owner, cleanValue(paid[2]!), false);
  }

  const pay = WE_PAY.exec(text);
  if (pay) {
    const rest = pay[1]!;
    const terms = TERMS_AFTER_PAYEE.exec(rest);
    const amount = terms ? null : AMOUNT_AFTER_PAYEE.exec(rest);
    const split = terms ?? amount;
    const owner = split ? payee(rest.slice(0, split.index), known) : null;
    if (split && owner) return paymentFact(owner, cleanValue(rest.slice(split.index)), true);
  }

  const quoted = QUOTED.exec(text);
  if (quoted) {
    const owner = properOwner(quoted[1]!, known);
    const offer = cleanValue(quoted[2]!);
    if (!owner || !AMOUNT.test(offer)) return null;
    // "$4,200 for the steel beams": the item goes to the key, as in "X's quote for the steel beams is $4,200".
    const item = /^(.+?)\s+for\s+(.+)$/i.exec(offer);
    const key = item ? `quote for ${item[2]!.toLowerCase()}` : 'quote';
    const [value, finalKey] = item && isValidKey(key) ? [item[1]!, key] : [offer, 'quote'];
    if (isValidValue(value)) return [{ ...owner, key: finalKey, value, confidence: 0.85, named: true }];
  }
  return null;
}
