import { type Scope, StrataError } from '@strata-memory/core';

/** What to do when recall fails: answer without memory (`continue`, the default) or fail the run (`throw`). */
export type RecallErrorPolicy = 'continue' | 'throw';

/** A memory failure the agent run survived. */
export interface MemoryErrorEvent {
  /** `recall`: the run went ahead without memory. `observe`: the answer was returned but not remembered. */
  phase: 'recall' | 'observe';
  error: unknown;
  scope?: Scope;
}

export type MemoryErrorReporter = (event: MemoryErrorEvent) => void;

/** The default reporter: one warning line, so a failure is never silent. */
export const warnOnMemoryError: MemoryErrorReporter = ({ phase, error }) => {
  const message = error instanceof Error ? error.message : String(error);
  console.warn(`[strata-memory] ${phase} failed; the agent run went on without it: ${message}`);
};

/** Calls the reporter without letting a throwing reporter break the run. */
export function report(reporter: MemoryErrorReporter, event: MemoryErrorEvent): void {
  try {
    reporter(event);
  } catch (error) {
    warnOnMemoryError({ ...event, error });
  }
}

/**
 * Errors that are the caller's bug (a missing or foreign thread, a bad id), never an outage:
 * they always fail the run, whatever the recall policy says.
 */
export function isCallerError(error: unknown): boolean {
  return (
    StrataError.hasCode(error, 'invalid_scope') ||
    StrataError.hasCode(error, 'not_found') ||
    StrataError.hasCode(error, 'invalid_input')
  );
}
