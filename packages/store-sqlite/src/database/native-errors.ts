import { StrataError } from '@strata-memory/core/store';

/** SQLite primary result codes this driver reacts to (https://sqlite.org/rescode.html). */
const SQLITE_BUSY = 5;
const SQLITE_LOCKED = 6;
const SQLITE_CONSTRAINT = 19;
const SQLITE_CANTOPEN = 14;

interface NativeSqliteError {
  code: 'ERR_SQLITE_ERROR';
  errcode: number;
  errstr?: string;
  message: string;
}

function isNativeSqliteError(error: unknown): error is NativeSqliteError {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as { code?: unknown }).code === 'ERR_SQLITE_ERROR' &&
    typeof (error as { errcode?: unknown }).errcode === 'number'
  );
}

/** The primary SQLite result code of a native error, or undefined for anything else. */
export function sqliteResultCode(error: unknown): number | undefined {
  return isNativeSqliteError(error) ? error.errcode & 0xff : undefined;
}

/** Another connection holds the lock this call needed (retrying may succeed). */
export function isBusyError(error: unknown): boolean {
  const code = sqliteResultCode(error);
  return code === SQLITE_BUSY || code === SQLITE_LOCKED;
}

export function isConstraintError(error: unknown): boolean {
  return sqliteResultCode(error) === SQLITE_CONSTRAINT;
}

/**
 * The driver's `mapError`: lock timeouts and an unreachable file become `store_unavailable`
 * (retryable), constraint violations (a concurrent writer won a race) become `conflict`.
 * Anything else keeps the default `store_failure` mapping.
 */
export function mapSqliteError(error: unknown): StrataError | undefined {
  const code = sqliteResultCode(error);
  if (code === undefined) return undefined;
  const reason = (error as NativeSqliteError).message;
  if (code === SQLITE_BUSY || code === SQLITE_LOCKED) {
    return new StrataError({
      code: 'store_unavailable',
      message: `The SQLite database stayed locked by another connection past the busy timeout (${reason}). Retry later.`,
      cause: error,
      details: { sqliteCode: (error as NativeSqliteError).errcode },
    });
  }
  if (code === SQLITE_CANTOPEN) {
    return new StrataError({
      code: 'store_unavailable',
      message: `The SQLite database file cannot be opened (${reason}).`,
      cause: error,
      details: { sqliteCode: (error as NativeSqliteError).errcode },
    });
  }
  if (code === SQLITE_CONSTRAINT) {
    return new StrataError({
      code: 'conflict',
      message: `A concurrent write changed the same item (${reason}). Re-read and retry.`,
      cause: error,
      details: { sqliteCode: (error as NativeSqliteError).errcode },
    });
  }
  return undefined;
}
