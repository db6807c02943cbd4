import type { Command } from 'commander';
import { action } from '../program.ts';
import { unitOption, withScope } from '../reader-options.ts';
import { parseScopeOption } from '../scope-option.ts';

interface ConsolidateOptions {
  scope: string;
  dryRun?: boolean;
  archiveBelow?: number;
}

/** `strata consolidate [--dry-run]`: merge duplicates, archive decayed episodes, flag stale facts. */
export function register(program: Command): void {
  withScope(
    program
      .command('consolidate')
      .description(
        'merge near duplicates, archive decayed episodes, flag stale facts, retire replaced graph branches (audited)',
      ),
  )
    .option('--dry-run', 'print what would change and change nothing')
    .option(
      '--archive-below <value>',
      'archive episodes whose decayed value is below this (0 to 1)',
      unitOption,
    )
    .action(
      action(async (ctx, options: ConsolidateOptions) => {
        const { memory } = await ctx.memory();
        const scope = parseScopeOption(options.scope);
        const dryRun = options.dryRun ?? false;
        ctx.output.progress(`${dryRun ? 'checking what consolidation would do' : 'consolidating'}…`);
        const report = await memory.consolidate({
          scope,
          dryRun,
          ...(options.archiveBelow === undefined ? {} : { archiveBelow: options.archiveBelow }),
        });
        ctx.output.result(report, () => {
          const { checked } = report;
          const lines = [
            `${dryRun ? 'dry run: nothing changed' : 'consolidated'}; checked ${checked.scopes} scopes, ${checked.episodes} episodes, ${checked.facts} facts, ${checked.replacementEdges} replacement edges`,
            ...report.notes.map((note) => `- ${note}`),
          ];
          for (const merge of report.merged) {
            const facts = merge.facts.map((f) => `${f.entityId} ${f.key} = ${JSON.stringify(f.value)}`);
            const why =
              facts.length > 0
                ? `same fact: ${facts.join('; ')}`
                : `similarity ${merge.similarity.toFixed(3)}`;
            lines.push(`  merge into ${merge.keptId}: ${merge.mergedIds.join(', ')} (${why})`);
          }
          for (const archive of report.archived) {
            lines.push(
              `  archive ${archive.ids.join(', ')}${archive.summaryEpisodeId ? ` into ${archive.summaryEpisodeId}` : ''}`,
            );
          }
          for (const id of report.staleFacts) lines.push(`  stale fact ${id}`);
          for (const id of report.supersededGraph) lines.push(`  supersede graph item ${id}`);
          if (!dryRun) lines.push(`${report.auditIds.length} audit entries written`);
          return lines.join('\n');
        });
        return undefined;
      }),
    );
}
