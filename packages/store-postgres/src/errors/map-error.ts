import { StrataError } from '@strata-memory/core/store';

/** SQLSTATE classes and codes that mean "the server cannot serve this now; try again". */
const UNAVAILABLE_STATES = new Set([
  '53300', // too_many_connections
  '53400', // configuration_limit_exceeded
  '55P03', // lock_not_available (lock_timeout)
  '57014', // query_canceled (statement_timeout)
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up, recovery)
  '57P05', // idle_session_timeout
  '25006', // read_only_sql_transaction (a write reached a replica or a demoted primary)
]);

/** Transient races the caller wins by retrying after re-reading. */
const CONFLICT_STATES = new Set([
  '40001', // serialization_failure
  '40P01', // deadlock_detected
]);

/** Node socket errors and node-postgres messages for a connection that failed or broke. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EADDRNOTAVAIL',
]);
const NETWORK_MESSAGES = [
  /connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /connection timeout/i,
  /not queryable/i,
  /cannot use a pool after calling end/i,
  /client was closed/i,
  /connection is closed/i,
  /the server closed the connection/i,
  /socket hang up/i,
  /query read timeout/i,
];

interface NativeError {
  code?: unknown;
  message?: unknown;
  constraint?: unknown;
  errors?: unknown;
}

function sqlState(error: NativeError): string | undefined {
  return typeof error.code === 'string' && /^[0-9A-Z]{5}$/.test(error.code) ? error.code : undefined;
}

function isNetworkFailure(error: NativeError): boolean {
  if (typeof error.code === 'string' && NETWORK_CODES.has(error.code)) return true;
  const message = typeof error.message === 'string' ? error.message : '';
  if (NETWORK_MESSAGES.some((pattern) => pattern.test(message))) return true;
  // Node reports a refused dual-stack connect as an AggregateError of per-address errors.
  return Array.isArray(error.errors) && error.errors.some((inner) => isNetworkFailure(inner as NativeError));
}

/**
 * True when `error` says the connection itself failed: it broke, was refused, or a statement got
 * no answer within the client-side query timeout. Such a connection must not be reused.
 */
export function isConnectionFailure(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const native = error as NativeError;
  return sqlState(native) === undefined && isNetworkFailure(native);
}

function describe(error: NativeError): string {
  return typeof error.message === 'string' && error.message !== ''
    ? error.message
    : String(error.code ?? error);
}

/**
 * Maps node-postgres and PGlite errors to StrataErrors: connection loss, timeouts and server
 * shutdowns → `store_unavailable` (retryable); unique violations from races, serialization
 * failures and deadlocks → `conflict` (retryable); text PostgreSQL cannot store (NUL characters)
 * → `invalid_input`; values past a PostgreSQL size limit → `payload_too_large`. Anything else is left to the default `store_failure`.
 */
export function mapPostgresError(error: unknown): StrataError | undefined {
  if (typeof error !== 'object' || error === null || StrataError.isInstance(error)) return undefined;
  const native = error as NativeError;
  const state = sqlState(native);
  if (
    (state !== undefined && (state.startsWith('08') || UNAVAILABLE_STATES.has(state))) ||
    isNetworkFailure(native)
  ) {
    return new StrataError({
      code: 'store_unavailable',
      message: `PostgreSQL is unavailable: ${describe(native)}`,
      cause: error,
      details: state ? { sqlState: state } : {},
    });
  }
  if (state === '23505' || (state !== undefined && CONFLICT_STATES.has(state))) {
    return new StrataError({
      code: 'conflict',
      message: `A concurrent write won: ${describe(native)}`,
      cause: error,
      details: {
        sqlState: state,
        ...(typeof native.constraint === 'string' ? { constraint: native.constraint } : {}),
      },
    });
  }
  if (state === '22021' || state === '22P05' || state === '54000') {
    return new StrataError({
      code: state === '54000' ? 'payload_too_large' : 'invalid_input',
      message: `PostgreSQL cannot store this value: ${describe(native)}`,
      cause: error,
      details: { sqlState: state },
    });
  }
  return undefined;
}
