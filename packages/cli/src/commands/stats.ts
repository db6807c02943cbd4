import { type ScopeInventory, type StoreSize, scopeInventory } from '@strata-memory/core';
import type { Command } from 'commander';
import { table } from '../output.ts';
import { action } from '../program.ts';
import { parseScopeOption } from '../scope-option.ts';
import { formatBytes, scopeText } from '../text-format.ts';

const COLUMNS = [
  ['messages', 'messages'],
  ['episodes', 'episodes'],
  ['inactiveEpisodes', 'merged/archived'],
  ['facts', 'facts'],
  ['factVersions', 'versions'],
  ['nodes', 'nodes'],
  ['edges', 'edges'],
  ['pendingReview', 'review'],
  ['state', 'state'],
  ['ledger', 'ledger'],
  ['audit', 'audit'],
] as const;

function inventoryText(inventory: ScopeInventory): string {
  return table(
    ['scope', ...COLUMNS.map(([, label]) => label)],
    [
      ...inventory.scopes.map((entry) => [
        scopeText(entry.scope),
        ...COLUMNS.map(([key]) => entry.counts[key]),
      ]),
      ['total', ...COLUMNS.map(([key]) => inventory.totals[key])],
    ],
  );
}

function sizeText(size: StoreSize | null, storeName: string): string {
  if (size === null) return `size: the ${storeName} store does not report its size`;
  const parts = size.parts.filter((part) => part.bytes > 0);
  const detail =
    parts.length > 1 ? `\n${parts.map((p) => `  ${formatBytes(p.bytes)}  ${p.name}`).join('\n')}` : '';
  return `size: ${formatBytes(size.bytes)} (${size.bytes} bytes)${detail}`;
}

/** `strata stats`: the store's size, and items per layer and per scope. */
export function register(program: Command): void {
  program
    .command('stats')
    .description('size of the store, and items per layer in each scope (of the store, or of a subtree)')
    .option('--scope <scope>', 'count only this scope and every scope below it, e.g. org=acme')
    .action(
      action(async (ctx, options: { scope?: string }) => {
        const root = options.scope === undefined ? undefined : parseScopeOption(options.scope);
        const { memory, description } = await ctx.memory();
        const size = memory.store.size ? await memory.store.size() : null;
        const inventory: ScopeInventory = await scopeInventory(memory.store, root, {
          onScope: (_scope, index, total) => {
            if (index % 50 === 0) ctx.output.progress(`counting items: scope ${index + 1} of ${total}…`);
          },
        });
        ctx.output.result({ store: description, size, inventory }, () => {
          const lines = [`store: ${description}`, sizeText(size, memory.store.name)];
          if (inventory.scopes.length === 0)
            lines.push(
              options.scope ? `nothing stored at or below ${options.scope}` : 'the store holds nothing',
            );
          else lines.push(inventoryText(inventory));
          return lines.join('\n');
        });
        return undefined;
      }),
    );
}
