import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { invalidInput } from '@strata-memory/core';

/** `<repo root>/.strata/demo.db`, found from this file, whatever the current directory is. */
export const DEFAULT_DB_PATH = fileURLToPath(new URL('../../../.strata/demo.db', import.meta.url));

/** Overrides the database path (the test points it at a temporary folder). */
export const DB_PATH_ENV = 'STRATA_DEMO_DB';

export const USAGE = `Usage: pnpm demo [--reset] [--db <path>]

  --reset      start over: delete the demo database first
  --db <path>  database file (default: .strata/demo.db at the repository root,
               or $${DB_PATH_ENV} when set)
  --help       show this help`;

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
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv.filter((arg) => arg !== '--'));
  } catch (error) {
    throw invalidInput(`pnpm demo: ${error instanceof Error ? error.message : String(error)}`);
  }
  const { values, positionals } = parsed;
  if (positionals.length > 0) {
    throw invalidInput(`pnpm demo: unexpected argument "${positionals[0]}"`);
  }
  const fromEnv = env[DB_PATH_ENV]?.trim();
  const dbPath = values.db ?? (fromEnv ? fromEnv : DEFAULT_DB_PATH);
  if (dbPath.trim().length === 0) throw invalidInput('pnpm demo: --db needs a file path');
  return { dbPath: resolve(dbPath), reset: values.reset ?? false, help: values.help ?? false };
}

function parse(args: string[]) {
  return parseArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: {
      reset: { type: 'boolean' },
      db: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}
