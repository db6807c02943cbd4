/**
 * Fails when a README grows back into a lab notebook.
 *
 * A README holds what a user needs: what the package is, install, a short example, options,
 * guarantees, the commands to run or measure it, and at most one short table of current figures.
 * Measurement history, run logs and design write-ups belong in `docs/` (see `docs/README.md`).
 * The largest README that is all reference a user reads (core's: install, an example, scopes, the
 * layers, the API, errors, limits, ports) is about 400 lines; the two that had become notebooks
 * were 733 and 476. So the limit is 420 lines: room for reference content, not for a history.
 *
 * Run from the repository root: `node --experimental-strip-types scripts/readme-length.ts`.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Most lines a README may have. */
export const README_LINE_LIMIT = 420;

const readmes = ['README.md'];
for (const dir of ['packages', 'apps']) {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name, 'README.md');
    if (existsSync(path)) readmes.push(path);
  }
}

const over = readmes
  .map((path) => ({ path, lines: readFileSync(path, 'utf8').trimEnd().split('\n').length }))
  .filter(({ lines }) => lines > README_LINE_LIMIT);

for (const { path, lines } of over) {
  console.error(
    `${path}: ${lines} lines, over the limit of ${README_LINE_LIMIT}; move history and write-ups to docs/`,
  );
}
if (over.length > 0) process.exit(1);
console.log(`${readmes.length} READMEs, each at most ${README_LINE_LIMIT} lines`);
