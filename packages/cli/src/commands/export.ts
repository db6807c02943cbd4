import type { Command } from 'commander';
import { exportToDirectory } from '../files/export-directory.ts';
import { action } from '../program.ts';
import { formatScope, parseScopeOption } from '../scope-option.ts';

/** `strata export <dir> [--scope …]`: memory as files (Markdown per scope plus memory.json). */
export function register(program: Command): void {
  program
    .command('export')
    .description('write memory as files: one Markdown file per scope and memory.json for a lossless import')
    .argument('<dir>', 'folder to write (empty, or an earlier export, which is replaced)')
    .option('--scope <scope>', 'export only this scope and its subtree, e.g. org=acme,user=maria')
    .action(
      action(async (ctx, dir: string, options: { scope?: string }) => {
        const scope = options.scope === undefined ? undefined : parseScopeOption(options.scope);
        const { memory, description } = await ctx.memory();
        ctx.output.progress(`exporting ${scope ? formatScope(scope) : 'every scope'} from ${description}`);
        const result = await exportToDirectory(memory, dir, {
          ...(scope ? { scope } : {}),
          onProgress: ({ done, total }) => {
            if (done === total || done % 50 === 0) ctx.output.progress(`  ${done}/${total} scopes read`);
          },
        });
        ctx.output.result(result, () => {
          const c = result.counts;
          return [
            `exported ${c.scopes} scopes to ${result.dir} (${result.files.length} files)`,
            `  ${c.facts} fact versions, ${c.episodes} episodes, ${c.nodes} nodes, ${c.edges} edges, ${c.review} review items,`,
            `  ${c.threads} threads with ${c.messages} messages, ${c.state} state entries, ${c.ledger} ledger entries, ${c.audit} audit entries`,
          ].join('\n');
        });
        return undefined;
      }),
    );
}
