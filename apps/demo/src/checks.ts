import { verdict } from './print.ts';

/**
 * Every scene ends by checking what it claims. A claim prints ✓ or ✗ on the spot; the demo exits
 * non-zero at the end if any failed, so `pnpm demo` doubles as an end-to-end check.
 */
export interface Checks {
  /** Prints the verdict of `claim`; `why` explains a failure. Returns `ok`. */
  claim(claim: string, ok: boolean, why?: string): boolean;
  /** Claims that failed so far, in order. */
  readonly failed: readonly string[];
  readonly total: number;
}

export function createChecks(): Checks {
  const failed: string[] = [];
  let total = 0;
  return {
    claim(claim, ok, why) {
      total += 1;
      if (!ok) failed.push(claim);
      verdict(ok, claim, why);
      return ok;
    },
    get failed() {
      return failed;
    },
    get total() {
      return total;
    },
  };
}
