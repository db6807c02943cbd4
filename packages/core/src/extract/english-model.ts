import model from 'wink-eng-lite-web-model';
import winkNLP, { type ItemEntity, type WinkMethods } from 'wink-nlp';

/**
 * The English model the offline extractor reads text with: wink-nlp and its lite web model,
 * shipped in npm (no download, no native code). Loaded once per process, on first use.
 */
let loaded: WinkMethods | undefined;

function english(): WinkMethods {
  loaded ??= winkNLP(model);
  return loaded;
}

export interface Token {
  text: string;
  /** Universal part-of-speech tag ("PROPN", "NOUN", "VERB", "NUM", …). */
  pos: string;
}

export interface Sentence {
  text: string;
  tokens: Token[];
}

/** The sentences of `text`, each with its tokens and their parts of speech. */
export function readSentences(text: string): Sentence[] {
  const nlp = english();
  const its = nlp.its;
  const out: Sentence[] = [];
  const sentences = nlp.readDoc(text).sentences();
  for (let n = 0; n < sentences.length(); n++) {
    const sentence = sentences.itemAt(n);
    const words: string[] = sentence.tokens().out();
    const tags: string[] = sentence.tokens().out(its.pos);
    out.push({
      text: sentence.out(),
      tokens: words.map((word: string, i: number) => ({ text: word, pos: tags[i] ?? 'X' })),
    });
  }
  return out;
}

/** Parts of speech of the words of a short phrase, read as one sentence. */
export function tagPhrase(phrase: string): Token[] {
  return readSentences(phrase).flatMap((s) => s.tokens);
}

/** Entity types of the English model that name a quantity: a date, time, amount, share or count. */
export const QUANTITY_ENTITY_TYPES: ReadonlySet<string> = new Set([
  'DATE',
  'TIME',
  'MONEY',
  'PERCENT',
  'DURATION',
  'CARDINAL',
  'ORDINAL',
]);

export interface EntitySpan {
  /** wink-nlp's entity type: DATE, TIME, MONEY, PERCENT, CARDINAL, ORDINAL, DURATION, … */
  type: string;
  /** First and last token (inclusive). */
  start: number;
  end: number;
}

export interface ReadText {
  tokens: Token[];
  /** Whitespace before each token, to rebuild spans as written. */
  spaces: string[];
  entities: EntitySpan[];
}

/** `text` read as one piece: its tokens, parts of speech and named quantities (dates, times, amounts…). */
export function readText(text: string): ReadText {
  const nlp = english();
  const its = nlp.its;
  const doc = nlp.readDoc(text);
  const words: string[] = doc.tokens().out();
  const tags: string[] = doc.tokens().out(its.pos);
  const spaces: string[] = doc.tokens().out(its.precedingSpaces);
  const entities: EntitySpan[] = [];
  doc.entities().each((e: ItemEntity) => {
    const [start, end] = e.out(its.span) as unknown as [number, number];
    entities.push({ type: e.out(its.type) as string, start, end });
  });
  return {
    tokens: words.map((word, i) => ({ text: word, pos: tags[i] ?? 'X' })),
    spaces,
    entities,
  };
}

/** Tokens `start`..`end` (inclusive) as written. */
export function spanText(read: ReadText, start: number, end: number): string {
  let out = '';
  for (let i = start; i <= end; i++) out += (i > start ? read.spaces[i] : '') + read.tokens[i]!.text;
  return out;
}
