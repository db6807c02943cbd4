import { invalidInput } from '../errors/strata-error.ts';
import type { Clock } from '../ports/ports.ts';
import { isEpochMs } from '../validation/epoch-time.ts';

/**
 * A clock whose `now()` is checked: a clock that returns something other than an epoch time in
 * the Date range fails the call with `invalid_input` instead of storing a time no read can format.
 */
export function checkedClock(clock: Clock): Clock {
  return {
    now() {
      const value = clock.now();
      if (!isEpochMs(value)) {
        throw invalidInput(
          'clock.now() must return whole epoch milliseconds within the JavaScript Date range (0..8.64e15)',
          { value: String(value) },
        );
      }
      return value;
    },
  };
}
