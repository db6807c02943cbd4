import model from 'wink-eng-lite-web-model';
import winkNLP, { type WinkMethods } from 'wink-nlp';

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
