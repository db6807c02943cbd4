import { stem } from '../../text/stem.ts';

/**
 * The analyzer behind the in-memory store's keyword search: Unicode word split, Latin
 * diacritics folded, lower-cased, English stop words dropped, Porter-stemmed. Han, Hiragana and
 * Katakana, written without spaces, are indexed one character per term so a word inside a
 * sentence still matches. The same function reads documents and queries, so any text can be
 * searched for; no character has operator meaning.
 */

/** English stop words (the common NLTK list), dropped from documents and queries alike. */
export const ENGLISH_STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her ' +
    'hers herself it its itself they them their theirs themselves what which who whom this that these ' +
    'those am is are was were be been being have has had having do does did doing a an the and but if ' +
    'or because as until while of at by for with about against between into through during before after ' +
    'above below to from up down in out on off over under again further then once here there when where ' +
    'why how all any both each few more most other some such no nor not only own same so than too very ' +
    's t can will just don should now d ll m o re ve y ain aren couldn didn doesn hadn hasn haven isn ' +
    'ma mightn mustn needn shan shouldn wasn weren won wouldn'
  ).split(' '),
);

const WORD = /[\p{L}\p{M}\p{N}]+/gu;
/** Any UTF-16 code unit above ASCII (astral characters show up as their surrogates). */
const NON_ASCII = /[\u0080-\uffff]/;
const ASCII_TOKEN = /[a-z0-9]+/g;
const LATIN_DIACRITICS = /[\u0300-\u036f]/g;
const UNSPACED_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const UNSPACED_SPLIT = /([\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}])/u;
const ASCII_WORD = /^[a-z]+$/;

function termOf(word: string): string | undefined {
  if (ENGLISH_STOP_WORDS.has(word)) return undefined;
  if (!ASCII_WORD.test(word)) return word;
  return stem(word);
}

/** The terms of `text`, in order, repeats kept (term frequency counts them). */
export function analyzeText(text: string): string[] {
  const terms: string[] = [];
  if (!NON_ASCII.test(text)) {
    // Fast path, same result: ASCII has no diacritics, no unspaced scripts, letters are a-z.
    for (const match of text.toLowerCase().matchAll(ASCII_TOKEN)) {
      const term = termOf(match[0]);
      if (term !== undefined && term !== '') terms.push(term);
    }
    return terms;
  }
  const folded = text.normalize('NFKD').replace(LATIN_DIACRITICS, '').normalize('NFC').toLowerCase();
  for (const match of folded.matchAll(WORD)) {
    const word = match[0];
    const parts = UNSPACED_SCRIPT.test(word) ? word.split(UNSPACED_SPLIT) : [word];
    for (const part of parts) {
      if (part === '') continue;
      const term = termOf(part);
      if (term !== undefined && term !== '') terms.push(term);
    }
  }
  return terms;
}
