import type { Scope } from '@strata-memory/core';

/** What to do when recall fails: answer without memory (`continue`, the default) or fail the run (`throw`). */
export type RecallErrorPolicy = 'continue' | 'throw';

/** A memory failure the agent run survived. */
export interface MemoryErrorEvent {
  /** `recall`: the model was called without memory. `observe`: the answer was returned but not remembered. */
  phase: 'recall' | 'observe';
  error: unknown;
  /** The run's scope, when it could be worked out. */
  scope?: Scope;
}

export type MemoryErrorReporter = (event: MemoryErrorEvent) => void;

/** The default reporter: one warning line, so a failure is never silent. */
export const warnOnMemoryError: MemoryErrorReporter = ({ phase, error }) => {
  const message = error instanceof Error ? error.message : String(error);
  console.warn(`[strata-memory] ${phase} failed; the agent went on without it: ${message}`);
};

/** Calls the reporter without letting a throwing reporter break the run. */
export function report(reporter: MemoryErrorReporter, event: MemoryErrorEvent): void {
  try {
    reporter(event);
  } catch (error) {
    warnOnMemoryError({ ...event, error });
  }
}
