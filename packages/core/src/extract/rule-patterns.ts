import { cleanPhrase, entityName, isEntityPhrase, isPronoun, isValidKey, words } from './noun-phrases.ts';
import { withoutTrailingClause } from './value-phrases.ts';

/**
 * Threshold rules: "<things> <above|over|below…> <quantity> <need|require…> <requirement>".
 *
 * "Approvals above 50,000 USD need sign-off." states a rule about approvals whose variable part is
 * the threshold, so it is stored as a fact of the things it governs, keyed by what is required,
 * with the threshold as the value, verbatim:
 *
 *   approvals · sign-off threshold = above 50,000 USD
 *   orders · cfo sign-off threshold = over $10,000      ("Orders over $10,000 require sign-off from the CFO.")
 *
 * A later "Approvals above 100,000 USD need sign-off." supersedes the threshold; a rule requiring
 * something else (or from someone else) is another key, so tiers ("… from a manager", "… from the
 * CFO") stay side by side. The subject must be a plain noun phrase: "anything above it needs
 * sign-off" names no threshold and yields nothing.
 */

export interface RuleFact {
  entityType: string;
  entity: string;
  key: string;
  value: string;
  confidence: number;
  named: boolean;
}

const CONDITION =
  '(?:above|over|exceeding|in excess of|greater than|more than|larger than|higher than|at or above|at least|below|under|less than|lower than|up to|of more than|of over|of at least|of less than|worth more than|worth over|worth less than)';
const MAGNITUDE = '(?:\\s?(?:k|m|bn|thousand|million|billion)\\b)?';
const UNIT =
  '(?:\\s?(?:usd|eur|gbp|chf|jpy|cad|aud|dollars|euros|pounds|%|percent|units?|items?|pieces?|pallets?|days?|weeks?|months?|hours?|kg|tonnes?|tons?|people|seats|licen[cs]es)\\b)?';
const QUANTITY = `(?:[$€£¥]\\s?\\d[\\d,.]*${MAGNITUDE}|\\d[\\d,.]*${MAGNITUDE}${UNIT})`;
const REQUIRES =
  '(?:need|needs|require|requires|must have|must get|must go through|call for|calls for|is subject to|are subject to|go through|goes through)';
const RULE = new RegExp(`^(.+?)\\s+(${CONDITION}\\s+${QUANTITY})\\s+(?:will\\s+)?${REQUIRES}\\s+(.+)$`, 'i');

/** Where the requirement's noun phrase ends: a circumstance, not who must act. */
const REQUIREMENT_END =
  /\s+(?:in|before|after|for|on|at|within|when|if|unless|prior to|first|beforehand|upfront)\b.*$/i;
const AGENT = /^(.+?)\s+(?:from|by)\s+(.+)$/i;

/** The threshold rule a clause states, or null when it is not one. */
export function ruleFacts(text: string, known: ReadonlySet<string>): RuleFact[] | null {
  const rule = RULE.exec(text);
  if (!rule) return null;
  const subject = entityName(rule[1]!);
  const first = words(subject)[0];
  if (!first || isPronoun(first)) return [];
  if (!isEntityPhrase(subject, { knownEntities: known, allowLowercase: true, atSentenceStart: true })) {
    return [];
  }
  const requirement = entityName(cleanPhrase(withoutTrailingClause(rule[3]!)).replace(REQUIREMENT_END, ''));
  const agent = AGENT.exec(requirement);
  const head = agent ? entityName(agent[1]!) : requirement;
  const by = agent ? entityName(agent[2]!) : undefined;
  if (by !== undefined && (words(by).length > 3 || isPronoun(words(by)[0] ?? ''))) return [];
  const key = `${by ? `${by} ` : ''}${head} threshold`.toLowerCase();
  if (!isValidKey(key)) return [];
  return [
    {
      entityType: 'entity',
      entity: subject,
      key,
      value: cleanPhrase(rule[2]!).replace(/^of\s+/i, ''),
      confidence: 0.85,
      named: true,
    },
  ];
}
