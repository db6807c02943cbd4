import { StrataError } from '../errors/strata-error.ts';

/**
 * The two ways a model call goes wrong, as StrataErrors, for the engine's model-backed ports and
 * for the bridges that adapt a framework's models to them (embedders, completion models).
 */

/**
 * A model or embedding call that failed (`model_failure`, retryable), with the cause kept. A
 * StrataError passes through unchanged, so wrapping twice never hides the original code.
 */
export function modelFailure(where: string, error: unknown): StrataError {
  if (StrataError.isInstance(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new StrataError({ code: 'model_failure', message: `${where}: ${message}`, cause: error });
}

/** A model answer that cannot be used as it is: wrong count, wrong length, not a number, not JSON. */
export function modelOutputInvalid(
  where: string,
  message: string,
  details?: Record<string, unknown>,
): StrataError {
  return new StrataError({
    code: 'model_output_invalid',
    message: `${where}: ${message}`,
    ...(details ? { details } : {}),
  });
}
