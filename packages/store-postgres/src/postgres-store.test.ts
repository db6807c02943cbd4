import { StrataError } from '@strata-memory/core/store';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { postgresStore } from './postgres-store.ts';

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
    return undefined;
  } catch (error) {
    return StrataError.isInstance(error) ? error.code : 'not a StrataError';
  }
}

describe('postgresStore options', () => {
  it('needs exactly one of connectionString, pool or client', () => {
    const pool = new pg.Pool();
    expect(codeOf(() => postgresStore({}))).toBe('invalid_input');
    expect(codeOf(() => postgresStore({ connectionString: 'postgres://x@127.0.0.1/db', pool }))).toBe(
      'invalid_input',
    );
  });

  it('rejects unknown options, bad values and unsafe schema names', () => {
    const connectionString = 'postgres://x@127.0.0.1/db';
    for (const options of [
      { connectionString, schema: 'public; DROP TABLE x' },
      { connectionString, schema: 'Strata' },
      { connectionString, poolSize: 0 },
      { connectionString, keywordRanking: 'tf-idf' },
      { connectionString, exactSearchBelow: -1 },
      { connectionString, prepareStatements: 'yes' },
      { connectionString, queryTimeoutMs: -1 },
      { connectionString, queryTimeoutMs: 1.5 },
      { connectionString, keepAliveInitialDelayMs: -5 },
      { connectionString, pool: { query: 1 } },
      { connectionString, colour: 'blue' },
    ]) {
      expect(
        codeOf(() => postgresStore(options as never)),
        JSON.stringify(options),
      ).toBe('invalid_input');
    }
  });

  it('opens lazily: creating a store connects to nothing, and it declares its capabilities', async () => {
    // Port 9 (discard) on loopback: nothing listens, and nothing is attempted until the first call.
    const store = postgresStore({ connectionString: 'postgres://x@127.0.0.1:9/db' });
    expect(store.name).toBe('postgres');
    expect(store.capabilities).toEqual({
      keywordSearch: true,
      vectorSearch: true,
      keywordRanking: 'bm25',
      transactions: true,
      multiProcess: true,
      persistent: true,
    });
    const ranked = postgresStore({
      connectionString: 'postgres://x@127.0.0.1:9/db',
      keywordRanking: 'ts_rank_cd',
    });
    expect(ranked.capabilities.keywordRanking).toBe('ts_rank_cd');
    await Promise.all([store.close(), ranked.close()]);
  });
});
