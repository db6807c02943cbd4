import { normalizeText } from '../store/normalize.ts';
import { findProtectedLiterals } from '../working/protected-literals.ts';

/**
 * Whether two texts state the same literals (numbers, amounts, dates, codes, names), which two
 * texts must do to count as the same episode. Sentence embeddings barely see literals: "Supplier
 * X's lead time is 45 days." and "…is 30 days." are 0.99 cosine-similar with the offline encoder,
 * and "$4,200" and "€4,200" even hash alike once punctuation is folded. Treating such pairs as
 * duplicates would drop the newer value, so exact and near duplicates (at write time and in
 * consolidation) must also agree here.
 *
 * Numbers, amounts, dates and codes must match exactly (case aside). Names are found by
 * capitalisation, which a repeated message may not keep ("i prefer WINDOW seats"), so a name in
 * one text only has to occur, as words, in the other.
 */

interface Literals {
  /** Sorted non-name literals, lower-cased. */
  values: string;
  names: string[];
  /** The text folded like a content hash, padded for whole-word search. */
  folded: string;
}

function literalsOf(text: string): Literals {
  const found = findProtectedLiterals(text);
  const values = found
    .filter((l) => l.kind !== 'name')
    .map((l) => l.text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' '));
  return {
    values: [...new Set(values)].sort().join('\u0000'),
    names: [...new Set(found.filter((l) => l.kind === 'name').map((l) => normalizeText(l.text)))],
    folded: ` ${normalizeText(text)} `,
  };
}

/** Compares texts, remembering each text's literals (one instance per batch of comparisons). */
export class LiteralAgreement {
  private readonly cache = new Map<string, Literals>();

  private of(text: string): Literals {
    let literals = this.cache.get(text);
    if (!literals) {
      literals = literalsOf(text);
      this.cache.set(text, literals);
    }
    return literals;
  }

  /** True when `a` and `b` state the same literals (see the module comment). */
  agree(a: string, b: string): boolean {
    if (a === b) return true;
    const x = this.of(a);
    const y = this.of(b);
    if (x.values !== y.values) return false;
    return (
      x.names.every((name) => y.folded.includes(` ${name} `)) &&
      y.names.every((name) => x.folded.includes(` ${name} `))
    );
  }
}
