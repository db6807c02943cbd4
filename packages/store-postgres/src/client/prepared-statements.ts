import { createHash } from 'node:crypto';

/** Runs of one text, unprepared, before it is prepared. */
const DEFAULT_THRESHOLD = 3;
/** Texts one client prepares at most (each is prepared on every connection that runs it). */
const DEFAULT_MAX = 100;
/** Texts counted toward the threshold at once; the counts start over past it. */
const COUNTED_TEXTS = 1_000;

/** The name `text` is prepared under: the same in every process, distinct for distinct texts. */
export function statementName(text: string): string {
  return `strata_${createHash('sha256').update(text).digest('hex').slice(0, 32)}`;
}

/**
 * Which statements a pool runs as named prepared statements, so the server parses the text once
 * per connection instead of on every call, and plans it once where the server finds a generic plan
 * as good as one for each call's values (0.5-1 ms of planning for a search's statement). A text
 * with parameters is prepared once it has run `threshold` times; at most `max` texts are, so the
 * server's memory for them stays bounded whatever the statements' shapes (the first texts to reach
 * the threshold win: the hot ones). The name is derived from the text, so two stores sharing a pool
 * never give one name two texts.
 *
 * What can go wrong is handled where it shows: a prepared `SELECT *` whose table changed (another
 * instance migrated) fails with "cached plan must not change result type", and that text is run
 * unprepared from then on; a pooler that does not keep prepared statements (PgBouncer before 1.21,
 * or without `max_prepared_statements`) makes the server report a name unknown or already taken,
 * and preparation is switched off for the client. Both errors come before the statement runs, so
 * the caller retries it unprepared.
 */
export class StatementPreparation {
  readonly #threshold: number;
  readonly #max: number;
  readonly #runs = new Map<string, number>();
  readonly #names = new Map<string, string>();
  readonly #unprepared = new Set<string>();
  #off = false;

  constructor(options: { threshold?: number; max?: number } = {}) {
    this.#threshold = options.threshold ?? DEFAULT_THRESHOLD;
    this.#max = options.max ?? DEFAULT_MAX;
  }

  /** The name to run `text` under, or undefined to run it unprepared. */
  nameFor(text: string, params: readonly unknown[] | undefined): string | undefined {
    if (this.#off || !params || params.length === 0) return undefined;
    const name = this.#names.get(text);
    if (name !== undefined || this.#names.size >= this.#max || this.#unprepared.has(text)) return name;
    const runs = (this.#runs.get(text) ?? 0) + 1;
    if (runs < this.#threshold) {
      if (this.#runs.size >= COUNTED_TEXTS) this.#runs.clear();
      this.#runs.set(text, runs);
      return undefined;
    }
    this.#runs.delete(text);
    const named = statementName(text);
    this.#names.set(text, named);
    return named;
  }

  /**
   * What to do about `error`, raised by `text` run under a name: `retry` unprepared when it came
   * from the preparation itself (see the class comment), `throw` otherwise.
   */
  failed(text: string, error: unknown): 'retry' | 'throw' {
    const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
    if (code === '0A000' && typeof message === 'string' && message.includes('cached plan must not change')) {
      this.#names.delete(text);
      this.#unprepared.add(text);
      return 'retry';
    }
    // 26000: "prepared statement … does not exist"; 42P05: "prepared statement … already exists".
    if (code === '26000' || code === '42P05') {
      this.#off = true;
      return 'retry';
    }
    return 'throw';
  }

  /** False once a pooler's answers switched preparation off. */
  get on(): boolean {
    return !this.#off;
  }
}
