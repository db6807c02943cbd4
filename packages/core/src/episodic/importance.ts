/**
 * A deterministic estimate of how much an observed message matters, 0..1, used when the caller
 * gives none. Decisions, corrections, amounts, numbers, dates, names and preferences raise it;
 * greetings, thanks and filler lower it. The same text always gets the same score.
 */

const BASE = 0.3;

interface Signal {
  pattern: RegExp;
  weight: number;
}

const RAISE: Signal[] = [
  // Decisions, commitments, rules.
  {
    pattern:
      /\b(?:decided|decision|agreed|we will|we'll|going with|chose|approved|signed|committed|must|always|never|policy|deadline|due|require[sd]?|instead of|migrat\w*|roll(?:ed)? ?back)\b/i,
    weight: 0.2,
  },
  // Corrections.
  { pattern: /^\s*(?:no|nope|correction|actually|wait)\b|\b(?:actually|correction|not \d)/i, weight: 0.15 },
  // Amounts and percentages.
  {
    pattern: /[$€£¥]\s?\d|\b\d[\d,.]*\s?(?:%|percent|usd|eur|gbp|dollars|euros|k\b|m\b|million|billion)/i,
    weight: 0.15,
  },
  // Any other number.
  { pattern: /\d/, weight: 0.1 },
  // Dates and times.
  {
    pattern:
      /\b(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|jun(?:e)?|jul(?:y)?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|monday|tuesday|wednesday|thursday|friday|saturday|sunday|today|tomorrow|yesterday|next (?:week|month|year)|q[1-4])\b|\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}\/\d{1,2}\b/i,
    weight: 0.1,
  },
  // Preferences and personal facts.
  {
    pattern:
      /\b(?:prefer|preference|favou?rite|allergic|allergy|i like|i love|i hate|i don't like|i want|i need|my name is|call me|my (?:email|phone|address|birthday))\b/i,
    weight: 0.15,
  },
  // Dependencies between things.
  { pattern: /\b(?:depends on|relies on|affects|impacts|breaks|blocks|uses)\b/i, weight: 0.1 },
];

const FILLER =
  /^(?:hi|hello|hey|yo|thanks|thank you|thx|ty|ok|okay|k|sure|great|cool|nice|awesome|got it|sounds good|perfect|lol|haha|bye|goodbye|see you|good (?:morning|afternoon|evening|night)|yes|yeah|yep|no|nope|right|alright|all right|hmm+|uh+|um+)(?:[\s,!.?]+(?:there|so much|a lot|you|again|team|all|everyone|thanks|thank you|cool|great))*[\s!.?]*$/i;

/** Names: a capitalised word that does not start a sentence. */
const NAME_INSIDE = /[^.!?\s]\s+(?!I\b)\p{Lu}[\p{L}]+/u;

/** The estimated importance of `text`, 0.05..1. */
export function estimateImportance(text: string): number {
  const trimmed = text.trim();
  if (trimmed.length === 0) return 0.05;
  if (FILLER.test(trimmed)) return 0.05;
  let score = BASE;
  for (const signal of RAISE) if (signal.pattern.test(trimmed)) score += signal.weight;
  if (NAME_INSIDE.test(trimmed)) score += 0.1;
  const wordCount = trimmed.split(/\s+/).length;
  if (wordCount <= 3) score -= 0.1;
  if (/\?\s*$/.test(trimmed)) score -= 0.05;
  return Math.round(Math.min(1, Math.max(0.05, score)) * 1000) / 1000;
}
