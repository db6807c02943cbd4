import { type ForgetCounts, type Scope, tenantOf } from '@strata-memory/core/store';
import { postingsRemovedSql } from '../search/keyword-postings.ts';
import { emptyTermsRemovedSql, keywordChangesSql, lexemesOfSql } from '../search/keyword-stats.ts';
import { Params } from '../sql/params.ts';
import { subtreeSql } from '../sql/scope-filter.ts';
import type { Database } from './database.ts';

/**
 * Erases every row stored in the subtree of `scope` from every table in one transaction, plus
 * the edges (at any scope of the tenant) that touch an erased node (an edge never outlives one
 * of its ends), and takes the erased episodes out of BM25's statistics and postings, deleting the
 * document counts of terms no episode holds any more (so no row keeps the erased words); the
 * erased scopes' vector counts and vectors go with them. Each DELETE is a range on the tables' leading
 * (tenant, scope) columns.
 */
export async function forgetSubtree(db: Database, scope: Scope): Promise<ForgetCounts> {
  const { schema } = await db.names();
  return db.atomic(async () => {
    const erase = async (table: string) => {
      const p = new Params();
      const result = await db.query(`DELETE FROM ${schema}.${table} WHERE ${subtreeSql(scope, p)}`, p.values);
      return result.rowCount;
    };
    const messages = await erase('messages');
    const threads = await erase('threads');
    const e = new Params();
    const erased = await db.query<{ n: unknown; lexemes: string[] | null }>(
      `WITH gone AS (
         DELETE FROM ${schema}.episodes WHERE ${subtreeSql(scope, e)} RETURNING tenant_id, id, doc_length, search),
       ${keywordChangesSql(schema, 'gone', -1)},
       ${postingsRemovedSql(schema, 'gone')}
       SELECT count(*) AS n, ${lexemesOfSql('gone')} AS lexemes FROM gone`,
      e.values,
    );
    const episodes = Number(erased.rows[0]!.n);
    const lexemes = erased.rows[0]!.lexemes;
    if (lexemes && lexemes.length > 0) {
      // Terms no episode holds any more would keep the erased words in keyword_terms (count 0).
      const t = new Params();
      await db.query(emptyTermsRemovedSql(schema, t.add(tenantOf(scope)), t.texts(lexemes)), t.values);
    }
    await erase('vector_counts');
    await erase('episode_vectors');
    const facts = await erase('facts');
    let edges = await erase('edges');
    const p = new Params();
    const nodes = await db.query<{ id: string }>(
      `DELETE FROM ${schema}.nodes WHERE ${subtreeSql(scope, p)} RETURNING id`,
      p.values,
    );
    if (nodes.rows.length > 0) {
      const n = new Params();
      const ids = n.texts(nodes.rows.map((row) => row.id));
      const touching = await db.query(
        `DELETE FROM ${schema}.edges WHERE tenant_id = ${n.add(tenantOf(scope))}
            AND (from_id = ANY(${ids}) OR to_id = ANY(${ids}))`,
        n.values,
      );
      edges += touching.rowCount;
    }
    const state = await erase('state');
    const ledger = await erase('ledger');
    const review = await erase('review_items');
    const audit = await erase('audit_log');
    return {
      threads,
      messages,
      episodes,
      facts,
      nodes: nodes.rows.length,
      edges,
      state,
      ledger,
      review,
      audit,
    };
  });
}
