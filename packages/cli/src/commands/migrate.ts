import type { Command } from 'commander';
import { action } from '../program.ts';

/** `strata migrate`: brings the store's schema up to date and says what was applied. */
export function register(program: Command): void {
  program
    .command('migrate')
    .description("create or upgrade the store's schema and report its version")
    .action(
      action(async (ctx) => {
        const { memory, description } = await ctx.memory({ create: true });
        if (!memory.store.migrate) {
          ctx.output.result(
            { store: description, migration: null },
            () => `${description} has no schema to migrate`,
          );
          return undefined;
        }
        ctx.output.progress(`migrating ${description}…`);
        const migration = await memory.store.migrate();
        ctx.output.result({ store: description, migration }, () => {
          const applied =
            migration.applied.length === 0
              ? 'already up to date'
              : `applied ${migration.applied.length === 1 ? 'migration' : 'migrations'} ${migration.applied.join(', ')}`;
          return `${description}: schema version ${migration.version} (newest ${migration.latest}); ${applied}`;
        });
        return undefined;
      }),
    );
}
