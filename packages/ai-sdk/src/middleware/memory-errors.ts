import type { Scope } from '@strata-memory/core';

/** What to do when recall fails: answer without memory (`continue`, the default) or fail the call (`throw`). */
export type RecallErrorPolicy = 'continue' | 'throw';

/** A memory failure the model call survived. */
export interface MemoryErrorEvent {
  /** `recall`: the call went ahead without memory. `observe`: the answer was returned but not remembered. */
  phase: 'recall' | 'observe';
  error: unknown;
  scope: Scope;
}

export type MemoryErrorReporter = (event: MemoryErrorEvent) => void;

/** The default reporter: one warning line, so a failure is never silent. */
export const warnOnMemoryError: MemoryErrorReporter = ({ phase, error }) => {
  const message = error instanceof Error ? error.message : String(error);
  console.warn(`[strata-memory] ${phase} failed; the model call went on without it: ${message}`);
};

/** Calls the reporter without letting a throwing reporter break the model call. */
export function report(reporter: MemoryErrorReporter, event: MemoryErrorEvent): void {
  try {
    reporter(event);
  } catch (error) {
    warnOnMemoryError({ ...event, error });
  }
}
