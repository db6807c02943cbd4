import type { Command } from 'commander';
import { importFromDirectory, readMemoryDirectory } from '../files/import-directory.ts';
import { action } from '../program.ts';
import { formatScope } from '../scope-option.ts';

/** `strata import <dir>`: loads a folder written by `strata export`, hand edits of fact values as corrections. */
export function register(program: Command): void {
  program
    .command('import')
    .description(
      'load a folder written by strata export into the store; edited fact values become corrections',
    )
    .argument('<dir>', 'folder written by strata export')
    .option('--edits-only', 'write only the edited fact values, into the store the folder was exported from')
    .action(
      action(async (ctx, dir: string, options: { editsOnly?: boolean }) => {
        // Checked in full before the store is even opened: bad files write nothing.
        const loaded = await readMemoryDirectory(dir);
        const { memory, description } = await ctx.memory({ create: true });
        ctx.output.progress(`importing ${loaded.dir} into ${description}`);
        const result = await importFromDirectory(memory, loaded, {
          editsOnly: options.editsOnly === true,
          onProgress: ({ done, total }) => {
            if (done === total || done % 50 === 0) ctx.output.progress(`  ${done}/${total} scopes written`);
          },
        });
        ctx.output.result(result, () => {
          const c = result.counts;
          const lines = [
            ...(options.editsOnly
              ? [`applied the edits in ${result.dir}`]
              : [
                  `imported ${c.scopes} scopes from ${result.dir}`,
                  `  ${c.facts} fact versions, ${c.episodes} episodes, ${c.nodes} nodes, ${c.edges} edges, ${c.review} review items,`,
                  `  ${c.threads} threads with ${c.messages} messages, ${c.state} state entries, ${c.ledger} ledger entries, ${c.audit} audit entries`,
                ]),
          ];
          if (result.corrections.length > 0) {
            const n = result.corrections.length;
            lines.push(`${n} edited fact${n === 1 ? '' : 's'} recorded as correction${n === 1 ? '' : 's'}:`);
          }
          for (const x of result.corrections) {
            lines.push(
              `  ${formatScope(x.scope)} ${x.entityId} ${x.key}: ${JSON.stringify(x.from)} -> ${JSON.stringify(x.to)} (${x.file}:${x.line})`,
            );
          }
          return lines.join('\n');
        });
        return undefined;
      }),
    );
}
