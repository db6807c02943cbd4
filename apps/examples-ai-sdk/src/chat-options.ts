import { invalidInput } from '@strata-memory/core';
import { Command, CommanderError } from 'commander';

export interface ChatOptions {
  /** The SQLite file memory lives in. */
  db: string;
  /** The user whose memory the chat reads and writes. */
  user: string;
  /** A session (thread) id to continue; a new one each run without it. */
  session?: string;
}

function command(): Command {
  return new Command()
    .name('pnpm --filter @strata-memory/examples-ai-sdk start')
    .description('A terminal chat whose memory survives restarts.')
    .option('--db <path>', 'SQLite file memory lives in', '.strata/chat.db')
    .option('--user <id>', 'user id', 'me')
    .option('--session <id>', 'continue this session (thread) instead of starting a new one')
    .exitOverride();
}

/**
 * Reads the chat's command line (without node and the script). A leading `--`, which
 * `pnpm start -- --user ada` passes through, is dropped. `--help` prints the usage and returns
 * undefined; anything else unknown fails with `invalid_input`.
 */
export function chatOptions(
  argv: readonly string[],
  print = (text: string): void => void process.stdout.write(text),
): ChatOptions | undefined {
  const program = command().configureOutput({ writeOut: print, writeErr: () => {} });
  try {
    program.parse(argv[0] === '--' ? argv.slice(1) : [...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError && error.code === 'commander.helpDisplayed') return undefined;
    throw invalidInput(
      `${program.name()}: ${error instanceof Error ? error.message.replace(/^error: /, '') : String(error)}`,
    );
  }
  return program.opts<ChatOptions>();
}
