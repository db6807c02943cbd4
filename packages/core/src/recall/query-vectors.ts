import type { Embedder } from '../ports/ports.ts';

/** Queries kept per generation; the cache holds up to two generations. */
const GENERATION_SIZE = 256;

/**
 * Query embeddings of recent recalls. An agent often recalls with the same query more than once
 * (each step of a turn, one recall per budget, a retry), and embedding it is most of a recall's
 * time with a local model: the same query is embedded once while it stays in use. Keyed by the
 * embedder's id and the exact query text. A failed embedding is not kept. Two generations
 * approximate least-recently-used eviction in constant time, as in `TokenCounter`.
 */
export class QueryVectors {
  #current = new Map<string, Promise<number[]>>();
  #previous = new Map<string, Promise<number[]>>();

  get(embedder: Embedder, query: string, embed: () => Promise<number[]>): Promise<number[]> {
    const key = `${embedder.id}\u0000${embedder.dimensions}\u0000${query}`;
    let vector = this.#current.get(key);
    if (vector) return vector;
    vector = this.#previous.get(key) ?? embed();
    if (this.#current.size >= GENERATION_SIZE) {
      this.#previous = this.#current;
      this.#current = new Map();
    }
    this.#current.set(key, vector);
    vector.catch(() => {
      if (this.#current.get(key) === vector) this.#current.delete(key);
      if (this.#previous.get(key) === vector) this.#previous.delete(key);
    });
    return vector;
  }
}
