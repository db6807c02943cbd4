import { DatabaseSync, type StatementSync } from 'node:sqlite';
import type { Statements } from '../database/statements.ts';
import { FTS_TOKENIZER } from '../schema/migrations.ts';

/** How long a document count read from the index is trusted. */
const TTL_MS = 30_000;
const MAX_CACHED_TERMS = 20_000;
/** Below this many indexed episodes every search is cheap: nothing is pruned. */
const MIN_DOCUMENTS = 2_000;
/**
 * A term in at least this share of the indexed episodes is pruned from a query. FTS5's BM25 gives a
 * term in half or more of the rows an IDF of 1e-6 (its floor for a negative IDF); the margin above
 * one half covers counts up to `TTL_MS` old.
 */
const COMMON_SHARE = 0.55;

interface Cached {
  value: number;
  at: number;
}

/**
 * Document counts of the FTS index's terms, to prune near-zero-weight terms from a query.
 *
 * A query term found in most episodes adds at most 2.2e-6 to any episode's BM25 score (FTS5 floors
 * its IDF at 1e-6), yet ORing it into the MATCH makes FTS5 rank every episode holding it: most of
 * the reader's. Searching without it returns the same episodes in the same order (scores differ by
 * at most 2.2e-6 per pruned term), unless fewer than `limit` episodes hold the other terms: then
 * the caller searches again with every term.
 *
 * Counts come from an `fts5vocab` view of the index (reading one costs time proportional to the
 * term's document count) and are cached for `TTL_MS`. Query words are turned into index terms by a
 * private in-memory FTS5 table with the index's own tokenizer (Porter stemming included), so the
 * counts are those of the exact terms FTS5 will look up.
 */
export class TermStatistics {
  private readonly sql: Statements;
  private readonly terms = new Map<string, Cached>();
  private documents: Cached | undefined;
  private tokenizer: DatabaseSync | undefined;
  private readonly statements = new Map<string, StatementSync>();

  /** Call outside any transaction (at open): it creates a view in the connection's temp schema. */
  constructor(sql: Statements) {
    this.sql = sql;
    sql.db.exec(
      "CREATE VIRTUAL TABLE IF NOT EXISTS temp.episodes_fts_terms USING fts5vocab(main, 'episodes_fts', 'row')",
    );
  }

  /** The query words (as `queryTerms` returns them) to leave out of the MATCH. */
  commonWords(words: readonly string[], now = Date.now()): Set<string> {
    const pruned = new Set<string>();
    if (words.length < 2) return pruned;
    const total = this.documentCount(now);
    if (total < MIN_DOCUMENTS) return pruned;
    const tokens = this.tokensOf(words);
    for (let i = 0; i < words.length; i++) {
      const wordTokens = tokens[i]!;
      // A word the tokenizer splits is a phrase: its rows are not one term's.
      if (wordTokens.length !== 1) continue;
      if (this.documentFrequency(wordTokens[0]!, now) >= COMMON_SHARE * total) pruned.add(words[i]!);
    }
    // Keep at least one word: a query of common words alone is searched as it is.
    if (pruned.size === words.length) pruned.clear();
    return pruned;
  }

  /**
   * Whether the rows under these exact-scope tokens (`visibleScopeTokens`) are every row of the
   * index (each row holds one such token), by counts up to `TTL_MS` old.
   */
  coversIndex(scopeTokens: readonly string[], now = Date.now()): boolean {
    const total = this.documentCount(now);
    let visible = 0;
    for (const token of new Set(scopeTokens)) visible += this.documentFrequency(token, now);
    return visible >= total;
  }

  close(): void {
    this.tokenizer?.close();
    this.tokenizer = undefined;
  }

  private documentCount(now: number): number {
    if (this.documents && now - this.documents.at < TTL_MS) return this.documents.value;
    const row = this.sql.get<{ n: number }>('SELECT count(*) AS n FROM episodes_fts_docsize');
    this.documents = { value: row?.n ?? 0, at: now };
    return this.documents.value;
  }

  private documentFrequency(term: string, now: number): number {
    const cached = this.terms.get(term);
    if (cached && now - cached.at < TTL_MS) return cached.value;
    const row = this.sql.get<{ doc: number }>('SELECT doc FROM temp.episodes_fts_terms WHERE term = ?', [
      term,
    ]);
    if (this.terms.size >= MAX_CACHED_TERMS) this.terms.clear();
    const value = row?.doc ?? 0;
    this.terms.set(term, { value, at: now });
    return value;
  }

  private prepared(db: DatabaseSync, sql: string): StatementSync {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /** The index terms of each word, in order (FTS5's tokenizer, stemming included). */
  private tokensOf(words: readonly string[]): string[][] {
    if (!this.tokenizer) {
      this.tokenizer = new DatabaseSync(':memory:');
      this.tokenizer.exec(
        `CREATE VIRTUAL TABLE words USING fts5(word, tokenize = ${FTS_TOKENIZER});
         CREATE VIRTUAL TABLE word_terms USING fts5vocab(words, 'instance');`,
      );
    }
    const db = this.tokenizer;
    const insert = this.prepared(db, 'INSERT INTO words (rowid, word) VALUES (?, ?)');
    for (const [i, word] of words.entries()) insert.run(i + 1, word);
    const rows = this.prepared(db, 'SELECT doc, term FROM word_terms ORDER BY doc, offset').all() as Array<{
      doc: number;
      term: string;
    }>;
    this.prepared(db, 'DELETE FROM words').run();
    const out = words.map((): string[] => []);
    for (const row of rows) out[row.doc - 1]!.push(row.term);
    return out;
  }
}
