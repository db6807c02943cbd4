import { cleanPhrase } from './noun-phrases.ts';

/**
 * The value part of a statement, as written but without what follows it: leading and trailing
 * time adverbs ("now", "at the moment") and a trailing clause after a comma ("net 30, laptops and
 * monitors included" → "net 30"). A comma inside a number ("$4,200", "50,000 USD") is never a
 * clause boundary: only a comma followed by a space is.
 */

/** "in Porto", "in the first week of October": the place or time, without "in" (case matters: not "in good shape"). */
const IN_LEAD =
  /^in\s+(?=\p{Lu}|the\s+(?:first|last|second|third|fourth)\s+(?:week|weekend|half|quarter)\b)/u;
const VALUE_LEAD =
  /^(?:now|currently|still|actually|officially|exactly|just|only|always|due(?=\s+every\b)|(?:at|on)(?=\s+(?:\d|the\s+\d|(?:mon|tues|wednes|thurs|fri|satur|sun)days?\b|(?:january|february|march|april|may|june|july|august|september|october|november|december)\b)))\s+/i;
/** "from 8 to 11 May" is the range "8 to 11 May". */
const RANGE_FROM =
  /^from\s+(?=(?:\d|(?:mon|tues|wednes|thurs|fri|satur|sun)day\b)[^,]*?\s(?:to|until|till|through|-|–)\s)/i;
/** What led to an amount, after it: "$1.5 million after the upsell", "45 days because of the strike". */
const CAUSE_TAIL =
  /\s+(?:after|following|because of|due to|thanks to)\s+(?:the|a|an|our|their|its|his|her|this|that|last)\b.*$/i;
const VALUE_TAIL =
  /\s+(?:now|currently|for now|at the moment|these days|nowadays|as of now|as well|too|again|after all|instead|anyway|for sure|for certain|of course)$/i;

/** A comma and what starts a trailing clause: a connective, a participle, or a clause ending in one. */
const TRAILING_CLAUSE =
  /,\s+(?:(?:including|included|includes|incl\.?|excluding|excluded|excludes|excl\.?|except|plus|with|without|which|who|that|as|so|but|although|though|unless|because|since|when|while|whereas|effective|starting|beginning|from|until|if|or|for|they|it|we|he|she|what|how|would|could|should|will|e\.g\.|i\.e\.)(?=\s|$)|\p{L}{3,}(?:ing|ed)\b|[^,]*\b(?:included|excluded|aside|apart|inclusive|exclusive|incl\.?|excl\.?)$)/iu;

/** Tails that change what an amount means: kept ("$4,200, excluding VAT"). */
const AMOUNT_QUALIFIER =
  /^,\s+(?:plus|excluding|excl\.?|including|incl\.?|inc\.?|before|after|net of|ex\.?)\s+(?:vat|tax|taxes|gst|sales tax|shipping|delivery|freight|duties)$/i;

/** `raw` up to the first trailing clause. */
export function withoutTrailingClause(raw: string): string {
  const match = TRAILING_CLAUSE.exec(raw);
  if (!match) return raw;
  const tail = raw.slice(match.index);
  if (AMOUNT_QUALIFIER.test(tail.replace(/[\s.!;:]+$/, ''))) return raw;
  return raw.slice(0, match.index);
}

/** A reason after a value, without a comma: "£9 because avocados got pricier", "1,380 now that early-bird has closed". */
const REASON_TAIL = /\s+(?:because|now that|so that)\s.*$/i;

export function cleanValue(raw: string): string {
  let value = cleanPhrase(withoutTrailingClause(cleanPhrase(raw)).replace(REASON_TAIL, ''));
  for (let i = 0; i < 3; i++)
    value = value.replace(VALUE_LEAD, '').replace(IN_LEAD, '').replace(VALUE_TAIL, '').trim();
  value = value.replace(RANGE_FROM, '');
  if (/^(?:[$€£¥]\s?)?\d/.test(value)) value = value.replace(CAUSE_TAIL, '');
  return cleanPhrase(value);
}
