import { invalidInput } from '@strata-memory/core';
import type { Command } from 'commander';
import { table } from '../output.ts';
import { action } from '../program.ts';
import { integerOption, listOption, withScope } from '../reader-options.ts';
import { parseScopeOption } from '../scope-option.ts';
import { formatTime, oneLine, scopeText } from '../text-format.ts';

interface AuditOptions {
  scope: string;
  action?: string[];
  since?: string;
  limit: number;
  cursor?: string;
}

/** `--since`: an ISO date or time (`2026-05-01`, `2026-05-01T09:00Z`) as ms since the epoch. */
export function parseSince(value: string): number {
  const ms = Date.parse(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(ms)) {
    throw invalidInput(`--since: "${value}" is not a date like 2026-05-01 or 2026-05-01T09:00:00Z`);
  }
  return ms;
}

/** `strata audit`: every write, merge, archive, supersede, flag, failure and erasure, oldest first. */
export function register(program: Command): void {
  withScope(
    program.command('audit').description('the audit log of a scope and everything below it, oldest first'),
  )
    .option('--action <list>', 'only these actions, e.g. fact.corrected,review.approved', listOption)
    .option('--since <date>', 'only entries at or after this ISO date or time')
    .option('--limit <n>', 'entries per page', integerOption(1, 1000), 50)
    .option('--cursor <cursor>', 'the next page: the cursor the previous page printed')
    .action(
      action(async (ctx, options: AuditOptions) => {
        const { memory } = await ctx.memory();
        const scope = parseScopeOption(options.scope);
        const page = await memory.audit.list(scope, {
          limit: options.limit,
          ...(options.action ? { actions: options.action } : {}),
          ...(options.since === undefined ? {} : { since: parseSince(options.since) }),
          ...(options.cursor === undefined ? {} : { cursor: options.cursor }),
        });
        ctx.output.result({ scope, entries: page.items, nextCursor: page.nextCursor ?? null }, () => {
          const lines = [
            page.items.length === 0
              ? 'no audit entries'
              : table(
                  ['at', 'action', 'actor', 'subject', 'scope', 'details'],
                  page.items.map((e) => [
                    formatTime(e.at),
                    e.action,
                    e.actor,
                    e.subjectId ?? '',
                    scopeText(e.scope),
                    oneLine(JSON.stringify(e.details), 60),
                  ]),
                ),
          ];
          if (page.nextCursor) lines.push(`more: add --cursor ${page.nextCursor}`);
          return lines.join('\n');
        });
        return undefined;
      }),
    );
}
