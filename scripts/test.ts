/**
 * `pnpm test`: every package's unit and integration tests (turbo, one task at a time), printing
 * only the output of a task that fails, then one line that sums every package's results.
 * Arguments are passed to turbo (e.g. `pnpm test --filter @strata-memory/core`).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

interface VitestResults {
  numTotalTestSuites: number;
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
}

const root = join(import.meta.dirname, '..');
const packageDirs = ['packages', 'apps'].flatMap((group) =>
  readdirSync(join(root, group)).map((name) => join(root, group, name)),
);
// Each run writes (or turbo's cache restores) its package's `.vitest/`: what is there afterwards is this run's.
for (const dir of packageDirs) rmSync(join(dir, '.vitest'), { recursive: true, force: true });
const started = Date.now();
const turbo = spawnSync(
  'turbo',
  ['run', 'test', 'test:int', '--concurrency=1', '--output-logs=errors-only', ...process.argv.slice(2)],
  { cwd: root, stdio: 'inherit', env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' } },
);

/** The results files of this run, one per vitest run. */
function resultFiles(): string[] {
  return packageDirs.flatMap((dir) => {
    const results = join(dir, '.vitest');
    if (!existsSync(results)) return [];
    return readdirSync(results)
      .filter((file) => file.endsWith('.json'))
      .map((file) => join(results, file));
  });
}

const totals = { runs: 0, passed: 0, failed: 0, skipped: 0 };
for (const file of resultFiles()) {
  const results = JSON.parse(readFileSync(file, 'utf8')) as VitestResults;
  totals.runs += 1;
  totals.passed += results.numPassedTests;
  totals.failed += results.numFailedTests;
  totals.skipped += results.numPendingTests + results.numTodoTests;
}
const seconds = Math.round((Date.now() - started) / 1000);
console.log(`\n${totals.runs} test runs in ${Math.floor(seconds / 60)} min ${seconds % 60} s`);
console.log(`Tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(turbo.status ?? 1);
