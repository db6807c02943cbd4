import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { invalidInput } from '@strata-memory/core';
import { Command } from 'commander';

/** `<repo root>/.strata/demo.db`, found from this file, whatever the current directory is. */
export const DEFAULT_DB_PATH = fileURLToPath(new URL('../../../.strata/demo.db', import.meta.url));

/** Overrides the database path (the test points it at a temporary folder). */
export const DB_PATH_ENV = 'STRATA_DEMO_DB';

function command(): Command {
  return new Command()
    .name('pnpm demo')
    .description("Strata's main job: a procurement team's weeks with an agent, offline, on SQLite.")
    .option('--reset', 'start over: delete the demo database first')
    .option(
      '--db <path>',
      `database file (default: .strata/demo.db at the repository root, or $${DB_PATH_ENV})`,
    )
    .option('-h, --help', 'show this help')
    .helpOption(false)
    .exitOverride()
    .configureOutput({ writeOut: () => {}, writeErr: () => {} });
}

/** What `--help` prints. */
export const USAGE = command().helpInformation().trimEnd();

export interface DemoOptions {
  dbPath: string;
  reset: boolean;
  help: boolean;
}

/**
 * Reads the command line. A bare `--` is ignored, so both `pnpm demo --reset` and
 * `pnpm demo -- --reset` work. Unknown flags fail with `invalid_input`.
 */
export function demoOptions(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): DemoOptions {
  const program = command();
  try {
    program.parse(
      argv.filter((arg) => arg !== '--'),
      { from: 'user' },
    );
  } catch (error) {
    const reason = error instanceof Error ? error.message.replace(/^error: /, '') : String(error);
    throw invalidInput(`pnpm demo: ${reason}`);
  }
  const values = program.opts<{ reset?: boolean; db?: string; help?: boolean }>();
  const fromEnv = env[DB_PATH_ENV]?.trim();
  const dbPath = values.db ?? (fromEnv ? fromEnv : DEFAULT_DB_PATH);
  if (dbPath.trim().length === 0) throw invalidInput('pnpm demo: --db needs a file path');
  return { dbPath: resolve(dbPath), reset: values.reset ?? false, help: values.help ?? false };
}
