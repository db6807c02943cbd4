import { z } from 'zod/v4';
import { StrataError } from '../errors/strata-error.ts';
import type { Scope } from '../scope/scope.ts';
import { parseArgs } from '../store/define-store.ts';

/**
 * What an integration does when memory fails around a model call or an agent run:
 *
 * - a failed **recall** answers without memory and reports (`onError: 'continue'`, the default),
 *   or fails the call with the engine's error (`onError: 'throw'`);
 * - a failed **observation** never takes the answer away: it is reported, whatever `onError` says;
 * - a **scope error** (no scope, a malformed or conflicting one, a thread that is not the caller's)
 *   is a bug in the calling code, not an outage: it always fails the call.
 *
 * Reports go to `reportError` (default: one `console.warn` line, so a failure is never silent); a
 * reporter that throws is itself reported to `console.warn` and never breaks the call.
 */

/** What to do when recall fails: answer without memory (`continue`, the default) or fail the call (`throw`). */
export type RecallErrorPolicy = 'continue' | 'throw';

/** A memory failure the call survived. */
export interface MemoryErrorEvent {
  /** `recall`: the model was called without memory. `observe`: the answer was kept but not remembered. */
  phase: 'recall' | 'observe';
  error: unknown;
  /** The call's scope, when it could be worked out. */
  scope?: Scope;
}

export type MemoryErrorReporter = (event: MemoryErrorEvent) => void;

/** The default reporter: one warning line. */
export const warnOnMemoryError: MemoryErrorReporter = ({ phase, error }) => {
  const message = error instanceof Error ? error.message : String(error);
  const outcome =
    phase === 'recall' ? 'the call went on without memory' : 'the answer was kept but not remembered';
  console.warn(`[strata-memory] ${phase} failed; ${outcome}: ${message}`);
};

/** Calls the reporter without letting a throwing reporter break the call. */
export function reportMemoryError(reporter: MemoryErrorReporter, event: MemoryErrorEvent): void {
  try {
    reporter(event);
  } catch (error) {
    warnOnMemoryError({ ...event, error });
  }
}

/** Errors that are the caller's bug, never an outage: they fail the call under either policy. */
export function isScopeError(error: unknown): boolean {
  return StrataError.hasCode(error, 'invalid_scope') || StrataError.hasCode(error, 'not_found');
}

export interface MemoryFailurePolicyOptions {
  /** When recall fails: `continue` (default) goes on without memory and reports; `throw` fails the call. */
  onError?: RecallErrorPolicy;
  /** Receives recall failures (under `continue`) and observation failures. Default: `console.warn`. */
  reportError?: MemoryErrorReporter;
}

export interface MemoryFailurePolicy {
  readonly onError: RecallErrorPolicy;
  /**
   * Runs a recall. Its result, or, when it fails under `continue`, `undefined` after reporting.
   * Under `throw`, and for scope errors, the error is rethrown.
   */
  recall<T>(scope: Scope, run: () => Promise<T>): Promise<T | undefined>;
  /** Runs an observation; a failure is reported, never thrown. */
  observe(scope: Scope | undefined, run: () => Promise<unknown>): Promise<void>;
  /** Reports a failure the caller handled itself. */
  report(event: MemoryErrorEvent): void;
}

/** Zod fields for an integration's options schema: `{ ...failurePolicyOptionFields }`. */
export const failurePolicyOptionFields = {
  onError: z.enum(['continue', 'throw']).optional(),
  reportError: z.custom<MemoryErrorReporter>((value) => typeof value === 'function').optional(),
};

const optionsSchema = z.object(failurePolicyOptionFields).strict();

/** The failure policy an integration applies around its recalls and observations (see the module comment). */
export function memoryFailurePolicy(
  options: MemoryFailurePolicyOptions = {},
  where = 'memoryFailurePolicy',
): MemoryFailurePolicy {
  const parsed = parseArgs(optionsSchema, options, where);
  const onError: RecallErrorPolicy = parsed.onError ?? 'continue';
  const reporter: MemoryErrorReporter = parsed.reportError ?? warnOnMemoryError;
  const report = (event: MemoryErrorEvent) => reportMemoryError(reporter, event);
  return {
    onError,
    report,
    async recall(scope, run) {
      try {
        return await run();
      } catch (error) {
        if (onError === 'throw' || isScopeError(error)) throw error;
        report({ phase: 'recall', error, scope });
        return undefined;
      }
    },
    async observe(scope, run) {
      try {
        await run();
      } catch (error) {
        report({ phase: 'observe', error, ...(scope ? { scope } : {}) });
      }
    },
  };
}
