import { demoRunner } from './cast.ts';
import type { Demo } from './demo.ts';

/**
 * The simulated calendar carries on across runs: a second `pnpm demo` starts the day after the
 * first one ended (the moment is kept in Strata's own state layer), so time only moves forward
 * for the memory in the database, as it would for a real agent.
 */

const CALENDAR_KEY = 'simulated-now';

/** Moves the clock to the day after the previous run's last moment; returns that moment, if any. */
export async function resumeCalendar(demo: Demo): Promise<number | undefined> {
  const saved = await demo.memory.state.get(demoRunner, CALENDAR_KEY);
  if (!saved || typeof saved.value !== 'number') return undefined;
  demo.clock.set(saved.value);
  demo.clock.laterDays(1);
  return saved.value;
}

export async function saveCalendar(demo: Demo): Promise<void> {
  await demo.memory.state.set(demoRunner, CALENDAR_KEY, demo.clock.now());
}
