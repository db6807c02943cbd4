import { StrataError } from '@strata-memory/core';

/** A failed model or embedding call as a StrataError (`model_failure`, retryable), keeping the cause. */
export function modelFailure(where: string, error: unknown): StrataError {
  if (StrataError.isInstance(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new StrataError({ code: 'model_failure', message: `${where}: ${message}`, cause: error });
}

/** A model answer that cannot be used as it is (wrong count, wrong length, not a number). */
export function modelOutputInvalid(
  where: string,
  message: string,
  details?: Record<string, unknown>,
): StrataError {
  return new StrataError({ code: 'model_output_invalid', message: `${where}: ${message}`, details });
}
