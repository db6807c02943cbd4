import { StrataError } from '../errors/strata-error.ts';

/**
 * Cancellation for the engine's calls. A call given an `AbortSignal` checks it before each step
 * and stops waiting on a port (embedder, extractor, summarizer, a store read) the moment it fires,
 * whether or not the port itself listens, failing with one typed error: `aborted`.
 */

/** The error an aborted call fails with; the signal's reason is kept as `cause`. */
export function abortedError(signal: AbortSignal, where: string): StrataError {
  return new StrataError({
    code: 'aborted',
    message: `${where} was aborted by its signal; nothing was stored.`,
    cause: signal.reason,
    details: { where },
  });
}

/** Throws `aborted` when `signal` has fired. */
export function throwIfAborted(signal: AbortSignal | undefined, where: string): void {
  if (signal?.aborted) throw abortedError(signal, where);
}

/**
 * `promise`, or an `aborted` failure as soon as `signal` fires, whichever comes first. The promise
 * still runs to its end (a port that ignores the signal cannot be stopped from outside), but its
 * outcome is then dropped, never left to reject unhandled. Never use it around writes that must
 * not outlive the call: check the signal between them instead.
 */
export function abortable<T>(
  promise: Promise<T>,
  signal: AbortSignal | undefined,
  where: string,
): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) {
    promise.catch(() => undefined);
    return Promise.reject(abortedError(signal, where));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortedError(signal, where));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
