import { invalidInput, type ReviewItem } from '@strata-memory/core';
import type { Command } from 'commander';
import { table } from '../output.ts';
import { action } from '../program.ts';
import { listOption, type ReaderOptions, readerOf, withReader } from '../reader-options.ts';
import { formatProvenance, formatTime, formatValue, oneLine, scopeText } from '../text-format.ts';

const STATUSES = ['pending', 'approved', 'rejected'] as const;
type Status = (typeof STATUSES)[number];

/** What a review item proposes, as one line: `Supplier X · payment terms = 90 days`. */
export function describeProposal(item: ReviewItem): string {
  const p = item.proposal as Record<string, unknown>;
  if (item.kind === 'fact') {
    const entity =
      typeof p.entityId === 'string' && p.entityId !== '' ? p.entityId : String(p.unresolved ?? '?');
    return `${entity} · ${String(p.key)} = ${formatValue(p.value as never)}`;
  }
  const end = (value: unknown) => String((value as { name?: unknown } | undefined)?.name ?? '?');
  return `${end(p.from)} -${String(p.relation)}-> ${end(p.to)}`;
}

function parseStatuses(value: string): Status[] {
  const list = listOption(value);
  for (const status of list) {
    if (!(STATUSES as readonly string[]).includes(status)) {
      throw invalidInput(`--status: "${status}" is not one of ${STATUSES.join(', ')}`);
    }
  }
  return list as Status[];
}

interface DecideOptions extends ReaderOptions {
  note?: string;
  entity?: string;
  key?: string;
  type?: string;
}

/** `strata review list|approve|reject`: the queue of proposals that wait for a person. */
export function register(program: Command): void {
  const review = program.command('review').description('the review queue: list | approve | reject');

  withReader(review.command('list').description('review items visible at a scope (pending by default)'))
    .option('--status <list>', 'pending, approved, rejected (comma-separated)', 'pending')
    .action(
      action(async (ctx, options: ReaderOptions & { status: string }) => {
        const { memory } = await ctx.memory();
        const { scope, principal } = readerOf(memory, options);
        const items = await memory.review.list(scope, { status: parseStatuses(options.status), principal });
        ctx.output.result({ scope, items }, () =>
          items.length === 0
            ? 'nothing to review'
            : table(
                ['id', 'kind', 'reason', 'proposal', 'confidence', 'status', 'from', 'at', 'scope'],
                items.map((item) => [
                  item.id,
                  item.kind,
                  item.reason,
                  oneLine(describeProposal(item), 60),
                  item.confidence.toFixed(2),
                  item.status,
                  formatProvenance(item.provenance),
                  formatTime(item.createdAt),
                  scopeText(item.scope),
                ]),
              ),
        );
        return undefined;
      }),
    );

  withReader(
    review
      .command('approve')
      .description('write the proposed fact or edge as a reviewed decision (audited)')
      .argument('<id>', 'the review item’s id, from `strata review list`'),
  )
    .option('--note <text>', 'why, kept on the item')
    .option('--entity <name>', 'the entity a fact proposal is about, when it names none or the wrong one')
    .option('--key <key>', 'with --entity: the fact’s key (default: the proposal’s)')
    .option('--type <type>', 'with --entity: the entity type')
    .action(
      action(async (ctx, id: string, options: DecideOptions) => {
        const { memory } = await ctx.memory();
        const { scope, principal } = readerOf(memory, options);
        let fact: { entity: string; key: string; entityType?: string } | undefined;
        if (options.entity !== undefined) {
          const [item] = await memory.store.review.get({ scope, ids: [id] });
          const key = options.key ?? (item?.proposal as { key?: unknown } | undefined)?.key;
          if (typeof key !== 'string') throw invalidInput('--entity needs --key for this item');
          fact = { entity: options.entity, key, ...(options.type ? { entityType: options.type } : {}) };
        } else if (options.key !== undefined || options.type !== undefined) {
          throw invalidInput('--key and --type go with --entity');
        }
        const result = await memory.review.approve(scope, id, {
          principal,
          ...(options.note === undefined ? {} : { note: options.note }),
          ...(fact ? { fact } : {}),
        });
        ctx.output.result(result, () => {
          if (result.fact) {
            return `approved ${id}: ${result.fact.entityId} · ${result.fact.key} = ${formatValue(result.fact.value)} (${result.fact.id})`;
          }
          return `approved ${id}: ${describeProposal(result.item)}${result.edge ? ` (${result.edge.id})` : ''}`;
        });
        return undefined;
      }),
    );

  withReader(
    review
      .command('reject')
      .description('reject a proposal: nothing is written (audited)')
      .argument('<id>', 'the review item’s id'),
  )
    .option('--note <text>', 'why, kept on the item')
    .action(
      action(async (ctx, id: string, options: DecideOptions) => {
        const { memory } = await ctx.memory();
        const { scope, principal } = readerOf(memory, options);
        const item = await memory.review.reject(scope, id, {
          principal,
          ...(options.note === undefined ? {} : { note: options.note }),
        });
        ctx.output.result({ item }, () => `rejected ${id}: ${describeProposal(item)}`);
        return undefined;
      }),
    );
}
