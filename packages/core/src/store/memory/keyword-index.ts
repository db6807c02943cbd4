import { analyzeText } from './keyword-analyzer.ts';

/** BM25 parameters (the usual defaults, as in Lucene and SQLite FTS5). */
export const BM25_K1 = 1.2;
export const BM25_B = 0.75;

export interface KeywordHit {
  id: string;
  score: number;
}

/** The documents of one partition holding one term: parallel arrays of slots and term frequencies. */
interface Posting {
  slots: number[];
  frequencies: number[];
  /** Entries whose document is still indexed. */
  live: number;
}

/** The postings of the documents stored at one exact scope. */
type Partition = Map<string, Posting>;

/** Partition used when a caller does not partition its documents. */
const DEFAULT_PARTITION = '';

/**
 * An incremental inverted index with BM25 scoring. The store keeps one per tenant, so document
 * frequencies and the average length come from that tenant only (every scope and status in it).
 *
 * Postings are split by partition (the store uses each episode's exact scope), so a search walks
 * only the postings of the scopes the reader may see: a user's search in a tenant of a thousand
 * users reads that user's postings and the shared ones above it, not the whole tenant's.
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
  /** The partition key of each slot's document. */
  private partitionOf: Array<string | undefined> = [];
  private partitions = new Map<string, Partition>();
  /** Live documents per term over every partition: BM25's document frequency. */
  private documentFrequency = new Map<string, number>();
  private totalLength = 0;
  private deadSlots = 0;
  /** Scratch space reused by every search (searches never overlap: they run synchronously). */
  private scores = new Float64Array(0);
  private verdicts = new Uint8Array(0);

  get size(): number {
    return this.slotOf.size;
  }

  add(id: string, text: string, partition: string = DEFAULT_PARTITION): void {
    this.remove(id);
    const terms = analyzeText(text);
    const frequencies = new Map<string, number>();
    for (const term of terms) frequencies.set(term, (frequencies.get(term) ?? 0) + 1);
    const slot = this.ids.length;
    this.slotOf.set(id, slot);
    this.ids.push(id);
    this.lengths.push(terms.length);
    this.termsOf.push([...frequencies.keys()]);
    this.partitionOf.push(partition);
    this.totalLength += terms.length;
    let postings = this.partitions.get(partition);
    if (!postings) {
      postings = new Map();
      this.partitions.set(partition, postings);
    }
    for (const [term, frequency] of frequencies) {
      let posting = postings.get(term);
      if (!posting) {
        posting = { slots: [], frequencies: [], live: 0 };
        postings.set(term, posting);
      }
      posting.slots.push(slot);
      posting.frequencies.push(frequency);
      posting.live += 1;
      this.documentFrequency.set(term, (this.documentFrequency.get(term) ?? 0) + 1);
    }
  }

  remove(id: string): void {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return;
    this.slotOf.delete(id);
    this.ids[slot] = undefined;
    this.totalLength -= this.lengths[slot]!;
    const partitionKey = this.partitionOf[slot]!;
    const postings = this.partitions.get(partitionKey)!;
    for (const term of this.termsOf[slot]!) {
      const posting = postings.get(term)!;
      posting.live -= 1;
      if (posting.live === 0) postings.delete(term);
      else if (posting.slots.length > 2 * posting.live + 16) this.compactPosting(posting);
      const frequency = this.documentFrequency.get(term)! - 1;
      if (frequency === 0) this.documentFrequency.delete(term);
      else this.documentFrequency.set(term, frequency);
    }
    if (postings.size === 0) this.partitions.delete(partitionKey);
    this.termsOf[slot] = undefined;
    this.partitionOf[slot] = undefined;
    this.deadSlots += 1;
    if (this.deadSlots > 1_024 && this.deadSlots > this.slotOf.size) this.compactSlots();
  }

  /**
   * BM25 score of every document holding at least one query term, stored in one of `partitions`
   * (every partition when omitted) and accepted by `accept` (each distinct query term counted
   * once). Document frequencies and lengths always come from the whole index. Scores are > 0;
   * hits come in no particular order.
   */
  score(query: string, accept: (id: string) => boolean, partitions?: readonly string[]): KeywordHit[] {
    const terms = new Set(analyzeText(query));
    const count = this.slotOf.size;
    if (terms.size === 0 || count === 0) return [];
    const averageLength = this.totalLength / count || 1;
    const searched: Partition[] = [];
    for (const key of partitions ?? this.partitions.keys()) {
      const partition = this.partitions.get(key);
      if (partition) searched.push(partition);
    }
    if (searched.length === 0) return [];
    const slots = this.ids.length;
    if (this.scores.length < slots) {
      this.scores = new Float64Array(Math.max(slots, this.scores.length * 2));
      this.verdicts = new Uint8Array(this.scores.length);
    }
    const scores = this.scores;
    // 0 = not seen yet, 1 = accepted, 2 = rejected.
    const verdicts = this.verdicts;
    const touched: number[] = [];
    const seen: number[] = [];
    try {
      for (const term of terms) {
        const documents = this.documentFrequency.get(term);
        if (documents === undefined) continue;
        const idf = Math.log(1 + (count - documents + 0.5) / (documents + 0.5));
        for (const partition of searched) {
          const posting = partition.get(term);
          if (!posting) continue;
          const { slots: postingSlots, frequencies } = posting;
          for (let i = 0; i < postingSlots.length; i++) {
            const slot = postingSlots[i]!;
            let verdict = verdicts[slot]!;
            if (verdict === 0) {
              const id = this.ids[slot];
              verdict = id !== undefined && accept(id) ? 1 : 2;
              verdicts[slot] = verdict;
              seen.push(slot);
              if (verdict === 1) touched.push(slot);
            }
            if (verdict !== 1) continue;
            const frequency = frequencies[i]!;
            const norm = frequency + BM25_K1 * (1 - BM25_B + (BM25_B * this.lengths[slot]!) / averageLength);
            scores[slot]! += (idf * (frequency * (BM25_K1 + 1))) / norm;
          }
        }
      }
      return touched.map((slot) => ({ id: this.ids[slot]!, score: scores[slot]! }));
    } finally {
      for (const slot of seen) {
        scores[slot] = 0;
        verdicts[slot] = 0;
      }
    }
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
    const partitionOf: string[] = [];
    for (let slot = 0; slot < this.ids.length; slot++) {
      const id = this.ids[slot];
      if (id === undefined) continue;
      renumbered[slot] = ids.length;
      this.slotOf.set(id, ids.length);
      ids.push(id);
      lengths.push(this.lengths[slot]!);
      termsOf.push(this.termsOf[slot]!);
      partitionOf.push(this.partitionOf[slot]!);
    }
    for (const partition of this.partitions.values()) {
      for (const posting of partition.values()) {
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
    }
    this.ids = ids;
    this.lengths = lengths;
    this.termsOf = termsOf;
    this.partitionOf = partitionOf;
    this.deadSlots = 0;
  }
}
