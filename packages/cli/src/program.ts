import { Command } from 'commander';
import * as audit from './commands/audit.ts';
import * as consolidate from './commands/consolidate.ts';
import * as episodes from './commands/episodes.ts';
import * as evalCases from './commands/eval.ts';
import * as exportFiles from './commands/export.ts';
import * as facts from './commands/facts.ts';
import * as forget from './commands/forget.ts';
import * as graph from './commands/graph.ts';
import * as importFiles from './commands/import.ts';
import * as inspect from './commands/inspect.ts';
import * as migrate from './commands/migrate.ts';
import * as recall from './commands/recall.ts';
import * as review from './commands/review.ts';
import * as stats from './commands/stats.ts';
import { type OpenedMemory, openMemory } from './open-memory.ts';
import { createOutput, describeError, EXIT, type Output } from './output.ts';

/** Options every command takes (set before or after the command name). */
export interface GlobalOptions {
  store?: string;
  config?: string;
  json?: boolean;
}

/** What a command's action gets: its output and, opened on demand, the memory on the chosen store. */
export interface CommandContext {
  output: Output;
  options: GlobalOptions;
  /**
   * Opens the memory once (closed when the command ends). A SQLite file that does not exist is an
   * error (a mistyped path must not become an empty store) unless `create` is set.
   */
  memory(options?: { create?: boolean }): Promise<OpenedMemory>;
}

/** A command's action: returns the exit code (EXIT.ok unless it found a failure). */
export type Action<Args extends unknown[]> = (
  context: CommandContext,
  ...args: Args
) => Promise<number | undefined>;

/**
 * Wraps a command action: opens the memory on first use, closes it afterwards, prints errors as one
 * line (or JSON) and sets the exit code. Commander passes the positional arguments, then the
 * command's options, then the command.
 */
export function action<Args extends unknown[]>(fn: Action<Args>): (...args: unknown[]) => Promise<void> {
  return async (...args: unknown[]) => {
    const command = args[args.length - 1] as Command;
    const options = command.optsWithGlobals() as GlobalOptions;
    const output = createOutput(options);
    let opened: Promise<OpenedMemory> | undefined;
    const context: CommandContext = {
      output,
      options,
      memory: ({ create = false } = {}) => {
        opened ??= openMemory({ ...options, create });
        return opened;
      },
    };
    try {
      process.exitCode = (await fn(context, ...(args.slice(0, -1) as Args))) ?? EXIT.ok;
    } catch (error) {
      const described = describeError(error);
      if (output.json) process.stdout.write(`${JSON.stringify(described.json, null, 2)}\n`);
      else process.stderr.write(`${described.message}\n`);
      process.exitCode = described.code;
    } finally {
      if (opened) await (await opened.catch(() => undefined))?.memory.close();
    }
  };
}

/** Every command, registered on one program. Each command module adds itself with a `register` function. */
const COMMANDS: Array<(program: Command) => void> = [
  recall.register,
  facts.register,
  review.register,
  graph.register,
  episodes.register,
  audit.register,
  consolidate.register,
  forget.register,
  stats.register,
  migrate.register,
  evalCases.register,
  exportFiles.register,
  importFiles.register,
  inspect.register,
];

export function createProgram(): Command {
  const program = new Command()
    .name('strata')
    .description('See, search, edit, export and evaluate Strata memory.')
    .option(
      '-s, --store <store>',
      'SQLite file, pglite:<dir> or postgres:// URL (default: $STRATA_STORE or .strata/memory.db)',
    )
    .option('-c, --config <file>', 'memory options module (default: ./strata.config.{ts,mjs,js} if present)')
    .option('--json', 'print one JSON document instead of text')
    .showHelpAfterError()
    .exitOverride((error) => {
      process.exit(error.exitCode === 0 ? EXIT.ok : EXIT.usage);
    });
  for (const register of COMMANDS) register(program);
  return program;
}
