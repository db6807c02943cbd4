import { createInterface } from 'node:readline/promises';
import { invalidInput, type Scope, scopeInventory } from '@strata-memory/core';
import type { Command } from 'commander';
import { EXIT } from '../output.ts';
import { action } from '../program.ts';
import { type ReaderOptions, readerOf } from '../reader-options.ts';
import { formatScope, parseScopeOption } from '../scope-option.ts';

interface ForgetOptions extends Partial<ReaderOptions> {
  org?: string;
  user?: string;
  agent?: string;
  thread?: string;
  yes?: boolean;
}

/** The scope to erase: `--scope`, with `--org`/`--user`/`--agent`/`--thread` added or overriding. */
export function forgetScope(options: ForgetOptions): Scope {
  const levels = [
    ['org', options.org],
    ['user', options.user],
    ['agent', options.agent],
    ['thread', options.thread],
  ] as const;
  const given = levels.filter(([, value]) => value !== undefined);
  if (options.scope === undefined && given.length === 0) {
    throw invalidInput(
      'say whose memory to erase: --user <id> (with --org <id> if it is in one) or --scope …',
    );
  }
  const base = options.scope === undefined ? {} : parseScopeOption(options.scope);
  const extra =
    given.length === 0 ? {} : parseScopeOption(given.map(([name, value]) => `${name}=${value}`).join(','));
  return parseScopeOption(formatScope({ ...base, ...extra }));
}

async function confirm(question: string): Promise<boolean> {
  const prompt = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return (await prompt.question(question)).trim().toLowerCase() === 'yes';
  } finally {
    prompt.close();
  }
}

/** `strata forget --user …`: erase every layer at and below a scope (right to be forgotten). */
export function register(program: Command): void {
  program
    .command('forget')
    .description('erase every layer of memory at and below a scope (right to be forgotten; audited)')
    .option('--scope <scope>', 'the scope to erase, e.g. org=acme,user=maria')
    .option('--org <id>', 'the organisation level of the scope')
    .option('--user <id>', 'the user level of the scope')
    .option('--agent <id>', 'the agent level of the scope')
    .option('--thread <id>', 'the thread level of the scope')
    .option('--yes', 'erase without asking (needed when not run in a terminal)')
    .option('--as <id>', 'who erases: recorded in the audit log (default: cli:<login name>)')
    .action(
      action(async (ctx, options: ForgetOptions) => {
        const scope = forgetScope(options);
        const interactive = process.stdin.isTTY === true && process.stderr.isTTY === true;
        if (!options.yes && !interactive) {
          throw invalidInput(`not a terminal: pass --yes to erase ${formatScope(scope)} without a question`);
        }
        const { memory, description } = await ctx.memory();
        const { principal } = readerOf(memory, { ...options, scope: formatScope(scope) });
        if (!options.yes) {
          const { totals, scopes } = await scopeInventory(memory.store, scope);
          const answer = await confirm(
            `Erase ${formatScope(scope)} and everything below it from ${description}: ${scopes.length} scopes, ` +
              `${totals.messages} messages, ${totals.episodes + totals.inactiveEpisodes} episodes, ` +
              `${totals.factVersions} fact versions, ${totals.nodes} nodes, ${totals.edges} edges? Type "yes" to erase: `,
          );
          if (!answer) {
            ctx.output.result({ scope, erased: false }, () => 'nothing erased');
            return EXIT.failed;
          }
        }
        const counts = await memory.forget(scope, { principal });
        ctx.output.result({ scope, erased: true, counts }, () => {
          const parts = Object.entries(counts)
            .filter(([, n]) => n > 0)
            .map(([layer, n]) => `${n} ${layer}`);
          return `erased ${formatScope(scope)}: ${parts.length === 0 ? 'nothing was stored' : parts.join(', ')}`;
        });
        return undefined;
      }),
    );
}
