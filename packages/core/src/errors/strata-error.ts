/**
 * One error type for everything Strata throws. Recognised across duplicated package copies
 * through a `Symbol.for` marker (`StrataError.isInstance(e)`), not `instanceof`.
 */

const marker = Symbol.for('strata-memory.error');

/** Who has to act: the caller (`user`), us (`system`), or a model/server we depend on (`third_party`). */
export type ErrorCategory = 'user' | 'system' | 'third_party';

/** Machine-readable error codes. Stable: callers may switch on them. */
export type ErrorCode =
  /** An argument failed validation (shape, range, unknown field value). */
  | 'invalid_input'
  /** A text, value or batch exceeds a documented limit. */
  | 'payload_too_large'
  /** A scope is missing, empty, or malformed. */
  | 'invalid_scope'
  /** An operation touched an item outside the caller's scope. Reported as not-found to avoid leaking existence. */
  | 'not_found'
  /** Optimistic concurrency lost: the item changed since it was read (retry after re-reading). */
  | 'conflict'
  /** The store does not declare the capability this call needs. */
  | 'unsupported'
  /** The storage backend is unreachable or overloaded (retryable). */
  | 'store_unavailable'
  /** The storage backend failed in an unexpected way. */
  | 'store_failure'
  /** The database was written by a newer schema version than this driver knows. */
  | 'schema_version'
  /** A model returned output that does not match the expected schema. */
  | 'model_output_invalid'
  /** A model or embedding call failed. */
  | 'model_failure'
  /** A summary dropped or altered a protected literal (number, amount, date, name). */
  | 'summary_rejected'
  /** The caller's `AbortSignal` fired: the call stopped and stored nothing. */
  | 'aborted'
  /** An invariant inside Strata broke: a bug. */
  | 'internal';

export interface StrataErrorOptions {
  code: ErrorCode;
  message: string;
  category?: ErrorCategory;
  retryable?: boolean;
  cause?: unknown;
  /** Structured details safe to log (never secrets or memory contents). */
  details?: Record<string, unknown>;
}

const defaultCategory: Record<ErrorCode, ErrorCategory> = {
  invalid_input: 'user',
  payload_too_large: 'user',
  invalid_scope: 'user',
  not_found: 'user',
  conflict: 'user',
  unsupported: 'user',
  store_unavailable: 'third_party',
  store_failure: 'third_party',
  schema_version: 'user',
  model_output_invalid: 'third_party',
  model_failure: 'third_party',
  summary_rejected: 'third_party',
  aborted: 'user',
  internal: 'system',
};

const defaultRetryable: Partial<Record<ErrorCode, boolean>> = {
  conflict: true,
  store_unavailable: true,
  model_failure: true,
};

export class StrataError extends Error {
  readonly [marker] = true;
  readonly code: ErrorCode;
  readonly category: ErrorCategory;
  readonly retryable: boolean;
  readonly details: Record<string, unknown>;

  constructor(options: StrataErrorOptions) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'StrataError';
    this.code = options.code;
    this.category = options.category ?? defaultCategory[options.code];
    this.retryable = options.retryable ?? defaultRetryable[options.code] ?? false;
    this.details = options.details ?? {};
  }

  /** True for any StrataError, from this copy of the package or another. */
  static isInstance(error: unknown): error is StrataError {
    return typeof error === 'object' && error !== null && marker in error;
  }

  /**
   * The StrataError `error` is, or the first one on its `cause` chain: frameworks wrap errors
   * thrown inside them (LangChain's `MiddlewareError`, a tool or stream error), keeping ours as the
   * cause. Undefined when there is none.
   */
  static from(error: unknown): StrataError | undefined {
    const seen = new Set<unknown>();
    let current: unknown = error;
    while (typeof current === 'object' && current !== null && !seen.has(current)) {
      if (StrataError.isInstance(current)) return current;
      seen.add(current);
      current = (current as { cause?: unknown }).cause;
    }
    return undefined;
  }

  /**
   * True when `error` is a StrataError with the given code, or wraps one (see `from`). Use
   * `StrataError.from(error)` to read the error's details.
   */
  static hasCode(error: unknown, code: ErrorCode): boolean {
    return StrataError.from(error)?.code === code;
  }

  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      code: this.code,
      category: this.category,
      retryable: this.retryable,
      message: this.message,
      details: this.details,
    };
  }
}

export function invalidInput(message: string, details?: Record<string, unknown>): StrataError {
  return new StrataError({ code: 'invalid_input', message, details });
}

export function notFound(what: string, id: string): StrataError {
  return new StrataError({
    code: 'not_found',
    message: `${what} "${id}" was not found in this scope.`,
    details: { what, id },
  });
}

export function conflict(message: string, details?: Record<string, unknown>): StrataError {
  return new StrataError({ code: 'conflict', message, details });
}

export function unsupported(store: string, operation: string): StrataError {
  return new StrataError({
    code: 'unsupported',
    message: `The "${store}" store does not support ${operation}. Check store.capabilities before calling it.`,
    details: { store, operation },
  });
}
