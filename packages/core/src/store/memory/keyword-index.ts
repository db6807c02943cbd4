import { analyzeText } from './keyword-analyzer.ts';

/** BM25 parameters (the usual defaults, as in Lucene and SQLite FTS5). */
export const BM25_K1 = 1.2;
export const BM25_B = 0.75;

export interface KeywordHit {
  id: string;
  score: number;
}

/** The documents holding one term: parallel arrays of slots and term frequencies. */
interface Posting {
  slots: number[];
  frequencies: number[];
  /** Entries whose document is still indexed (the term's document frequency). */
  live: number;
}

/**
 * An incremental inverted index with BM25 scoring over the documents it holds. The store keeps
 * one per tenant, so document frequencies and the average length come from that tenant only.
 *
 * Each indexed document gets a new integer slot; postings are append-only arrays of slots, and a
 * removed document's entries are skipped until the posting (or the whole index, once half of its
 * slots are dead) is compacted. Arrays keep memory and garbage low at 100k+ documents.
 */
export class KeywordIndex {
  private slotOf = new Map<string, number>();
  private ids: Array<string | undefined> = [];
  private lengths: number[] = [];
  /** The distinct terms of each slot's document, to find its postings on removal. */
  private termsOf: Array<string[] | undefined> = [];
  private postings = new Map<string, Posting>();
  private totalLength = 0;
  private deadSlots = 0;

  get size(): number {
    return this.slotOf.size;
  }

  add(id: string, text: string): void {
    this.remove(id);
    const terms = analyzeText(text);
    const frequencies = new Map<string, number>();
    for (const term of terms) frequencies.set(term, (frequencies.get(term) ?? 0) + 1);
    const slot = this.ids.length;
    this.slotOf.set(id, slot);
    this.ids.push(id);
    this.lengths.push(terms.length);
    this.termsOf.push([...frequencies.keys()]);
    this.totalLength += terms.length;
    frequencies.forEach((frequency, term) => {
      let posting = this.postings.get(term);
      if (!posting) {
        posting = { slots: [], frequencies: [], live: 0 };
        this.postings.set(term, posting);
      }
      posting.slots.push(slot);
      posting.frequencies.push(frequency);
      posting.live += 1;
    });
  }

  remove(id: string): void {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return;
    this.slotOf.delete(id);
    this.ids[slot] = undefined;
    this.totalLength -= this.lengths[slot]!;
    for (const term of this.termsOf[slot]!) {
      const posting = this.postings.get(term)!;
      posting.live -= 1;
      if (posting.live === 0) this.postings.delete(term);
      else if (posting.slots.length > 2 * posting.live + 16) this.compactPosting(posting);
    }
    this.termsOf[slot] = undefined;
    this.deadSlots += 1;
    if (this.deadSlots > 1_024 && this.deadSlots > this.slotOf.size) this.compactSlots();
  }

  /**
   * BM25 score of every document holding at least one query term and accepted by `accept`
   * (each distinct query term counted once). Scores are > 0; hits come in no particular order.
   */
  score(query: string, accept: (id: string) => boolean): KeywordHit[] {
    const terms = new Set(analyzeText(query));
    const count = this.slotOf.size;
    if (terms.size === 0 || count === 0) return [];
    const averageLength = this.totalLength / count || 1;
    const slots = this.ids.length;
    const scores = new Float64Array(slots);
    // 0 = not seen yet, 1 = accepted, 2 = rejected (or no longer indexed).
    const verdicts = new Uint8Array(slots);
    const touched: number[] = [];
    for (const term of terms) {
      const posting = this.postings.get(term);
      if (!posting) continue;
      const idf = Math.log(1 + (count - posting.live + 0.5) / (posting.live + 0.5));
      const { slots: postingSlots, frequencies } = posting;
      for (let i = 0; i < postingSlots.length; i++) {
        const slot = postingSlots[i]!;
        let verdict = verdicts[slot];
        if (verdict === 0) {
          const id = this.ids[slot];
          verdict = id !== undefined && accept(id) ? 1 : 2;
          verdicts[slot] = verdict;
          if (verdict === 1) touched.push(slot);
        }
        if (verdict !== 1) continue;
        const frequency = frequencies[i]!;
        const norm = frequency + BM25_K1 * (1 - BM25_B + (BM25_B * this.lengths[slot]!) / averageLength);
        scores[slot]! += (idf * (frequency * (BM25_K1 + 1))) / norm;
      }
    }
    return touched.map((slot) => ({ id: this.ids[slot]!, score: scores[slot]! }));
  }

  private compactPosting(posting: Posting): void {
    let kept = 0;
    for (let i = 0; i < posting.slots.length; i++) {
      const slot = posting.slots[i]!;
      if (this.ids[slot] === undefined) continue;
      posting.slots[kept] = slot;
      posting.frequencies[kept] = posting.frequencies[i]!;
      kept += 1;
    }
    posting.slots.length = kept;
    posting.frequencies.length = kept;
  }

  /** Renumbers live documents densely and drops every dead posting entry. */
  private compactSlots(): void {
    const renumbered = new Int32Array(this.ids.length).fill(-1);
    const ids: string[] = [];
    const lengths: number[] = [];
    const termsOf: string[][] = [];
    for (let slot = 0; slot < this.ids.length; slot++) {
      const id = this.ids[slot];
      if (id === undefined) continue;
      renumbered[slot] = ids.length;
      this.slotOf.set(id, ids.length);
      ids.push(id);
      lengths.push(this.lengths[slot]!);
      termsOf.push(this.termsOf[slot]!);
    }
    for (const posting of this.postings.values()) {
      let kept = 0;
      for (let i = 0; i < posting.slots.length; i++) {
        const slot = renumbered[posting.slots[i]!]!;
        if (slot < 0) continue;
        posting.slots[kept] = slot;
        posting.frequencies[kept] = posting.frequencies[i]!;
        kept += 1;
      }
      posting.slots.length = kept;
      posting.frequencies.length = kept;
    }
    this.ids = ids;
    this.lengths = lengths;
    this.termsOf = termsOf;
    this.deadSlots = 0;
  }
}
