import { invalidInput } from '@strata-memory/core';
import { principalSchema } from '@strata-memory/core/integration';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { startInspector } from '../inspect/server.ts';
import { action } from '../program.ts';
import { formatScope, parseScopeOption } from '../scope-option.ts';

function portOption(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new InvalidArgumentError('a port is a whole number from 0 to 65535 (0: any free port)');
  }
  return port;
}

/** Resolves when the process is asked to stop (Ctrl+C or a termination signal). */
function untilStopped(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}

/** The operator's view: the inspector sees items of every access level. */
const OPERATOR_LEVEL = 1_000_000;

interface InspectOptions {
  scope?: string;
  port?: number;
  as: string;
}

/** `strata inspect [store]`: the local web inspector on 127.0.0.1, until Ctrl+C. */
export function register(program: Command): void {
  program
    .command('inspect')
    .description('serve a local web page to browse and edit memory (127.0.0.1, token in the URL)')
    .argument('[store]', 'the store to open (overrides --store)')
    .option('--scope <scope>', 'scope the page opens on, e.g. org=acme (its sub-scopes are listed)')
    .addOption(
      new Option('--port <port>', 'port to listen on (default: a random free one)').argParser(portOption),
    )
    .option(
      '--as <principal>',
      'principal id the page reads and writes as (the audit log names it)',
      'inspector',
    )
    .action(
      action(async (ctx, store: string | undefined, options: InspectOptions) => {
        const root = options.scope === undefined ? undefined : formatScope(parseScopeOption(options.scope));
        const principal = principalSchema.safeParse({ id: options.as, level: OPERATOR_LEVEL });
        if (!principal.success) throw invalidInput(`--as must be a principal id (1 to 256 characters)`);
        // The positional store wins over --store and $STRATA_STORE; ctx.memory() opens it.
        if (store !== undefined) ctx.options.store = store;
        const { memory, description } = await ctx.memory();
        const inspector = await startInspector({
          memory,
          principal: principal.data,
          info: { store: description, ...(root === undefined ? {} : { scope: root }) },
          ...(options.port === undefined ? {} : { port: options.port }),
        });
        ctx.output.result({ url: inspector.url, store: description, scope: root ?? null }, () =>
          [`Strata inspector on ${description}`, `Open ${inspector.url}`, 'Press Ctrl+C to stop.'].join('\n'),
        );
        await untilStopped();
        await inspector.close();
        return undefined;
      }),
    );
}
