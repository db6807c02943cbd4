import { resolvePolicy } from '@strata-memory/core/internals';
import { localEmbedder } from '@strata-memory/embed-local';
import type { Command } from 'commander';
import { checkCaseRoles } from '../eval/case-roles.ts';
import { formatEvalReport } from '../eval/eval-report.ts';
import { describeEvalStore, parseEvalStore } from '../eval/fresh-store.ts';
import { loadCaseFile } from '../eval/load-case-file.ts';
import { runEval } from '../eval/run-eval.ts';
import { loadConfig } from '../open-memory.ts';
import { EXIT } from '../output.ts';
import { action } from '../program.ts';

/** `strata eval <cases.yaml>`: runs recall cases on fresh memories; exit 1 when one fails. */
export function register(program: Command): void {
  program
    .command('eval')
    .description(
      'run recall cases from a YAML file, each on a fresh temporary memory with your config; exit 1 if any fails',
    )
    .argument('<cases>', 'the case file (YAML)')
    .addHelpText(
      'after',
      '\n--store picks where each case runs on an empty memory: sqlite (default, a temporary file per case), pglite (a temporary embedded database, a schema per case) or a postgres:// URL (a schema per case, dropped afterwards).',
    )
    .action(
      action(async (ctx, file: string) => {
        const cases = loadCaseFile(file);
        const kind = parseEvalStore(ctx.options.store);
        const config = await loadConfig(ctx.options.config);
        checkCaseRoles(cases, file, resolvePolicy(config.policy).roles);
        const embedder = config.embedder === false ? undefined : (config.embedder ?? localEmbedder());
        const report = await runEval({
          file,
          cases,
          config,
          embedder,
          kind,
          storeDescription: describeEvalStore(kind),
          onCase: (index, name) => ctx.output.progress(`[${index + 1}/${cases.cases.length}] ${name}`),
        });
        ctx.output.result(report, () => formatEvalReport(report));
        return report.failed === 0 ? EXIT.ok : EXIT.failed;
      }),
    );
}
