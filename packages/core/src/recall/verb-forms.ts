import { createRequire } from 'node:module';
import { stemmer } from 'stemmer';
import { isStopWord, words } from '../text/terms.ts';

/**
 * Irregular verb forms for keyword search. Stemming joins "paints" and "painted" but not "buy"
 * and "bought": a question asks "When did Melanie buy the figurines?" while the turn says "I
 * bought these figurines". Each query word that is a form of an irregular verb brings the verb's
 * other forms into the keyword query (base, past, past participle), so either wording matches.
 * The forms are those of `english-irregular-verbs` (the 50 most frequent English irregular verbs).
 */
interface VerbEntry {
  past: string;
  participles: string[];
}

let forms: Map<string, readonly string[]> | undefined;

function verbForms(): Map<string, readonly string[]> {
  if (forms) return forms;
  const verbs = createRequire(import.meta.url)('english-irregular-verbs/index.json') as Record<
    string,
    VerbEntry
  >;
  forms = new Map();
  for (const [base, entry] of Object.entries(verbs)) {
    const group = [...new Set([base, entry.past, ...entry.participles])];
    // By stem, so "drawing" finds draw/drew/drawn and "buying" buy/bought.
    for (const form of group) {
      const stem = stemmer(form);
      forms.set(stem, [...new Set([...(forms.get(stem) ?? []), ...group])]);
    }
  }
  return forms;
}

/** The query with the other forms of each irregular verb it uses appended (unchanged when none). */
export function withVerbForms(query: string): string {
  const table = verbForms();
  const present = new Set(words(query));
  const added: string[] = [];
  for (const word of present) {
    if (isStopWord(word)) continue;
    for (const form of table.get(stemmer(word)) ?? []) {
      if (!present.has(form) && stemmer(form) !== stemmer(word) && !isStopWord(form) && !added.includes(form))
        added.push(form);
    }
  }
  return added.length > 0 ? `${query} ${added.join(' ')}` : query;
}
