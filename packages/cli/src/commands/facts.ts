import { type FactRecord, invalidInput, type JsonValue, notFound } from '@strata-memory/core';
import type { Command } from 'commander';
import { table } from '../output.ts';
import { action } from '../program.ts';
import { type ReaderOptions, readerOf, unitOption, withReader } from '../reader-options.ts';
import { formatProvenance, formatTime, formatValue, scopeText } from '../text-format.ts';

interface KeyOptions extends ReaderOptions {
  entity: string;
  key: string;
  type?: string;
}

interface SetOptions extends KeyOptions {
  value: string;
  jsonValue?: boolean;
  confidence?: number;
  correct?: boolean;
}

function factRows(facts: FactRecord[]): Array<Array<string | number>> {
  return facts.map((f) => [
    f.id,
    f.entityType,
    f.entityId,
    f.key,
    formatValue(f.value),
    f.confidence.toFixed(2),
    f.status,
    scopeText(f.scope),
  ]);
}

const FACT_HEADERS = ['id', 'type', 'entity', 'key', 'value', 'confidence', 'status', 'scope'];

function parseValue(options: SetOptions): JsonValue {
  if (!options.jsonValue) return options.value;
  try {
    return JSON.parse(options.value) as JsonValue;
  } catch (error) {
    throw invalidInput(`--value is not JSON: ${error instanceof Error ? error.message : String(error)}`, {
      value: options.value,
    });
  }
}

function keyOptions(command: Command): Command {
  return command
    .requiredOption('--entity <name>', 'the entity the fact is about, e.g. "Supplier X"')
    .requiredOption('--key <key>', 'the fact’s key, e.g. "lead time"')
    .option('--type <type>', 'the entity type (default: the one memory holds for the entity)');
}

/** `strata facts list|history|set|forget`: current facts, their versions, and changes through the engine. */
export function register(program: Command): void {
  const facts = program.command('facts').description('facts: list | history | set | forget');

  withReader(facts.command('list').description('current facts visible at a scope'))
    .option('--entity <name>', 'only this entity’s facts')
    .option('--type <type>', 'only entities of this type')
    .action(
      action(async (ctx, options: ReaderOptions & { entity?: string; type?: string }) => {
        const { memory } = await ctx.memory();
        const { scope, principal } = readerOf(memory, options);
        const list = await memory.facts.list(
          scope,
          {
            ...(options.entity === undefined ? {} : { entity: options.entity }),
            ...(options.type === undefined ? {} : { entityType: options.type }),
          },
          { principal },
        );
        ctx.output.result({ scope, facts: list }, () =>
          list.length === 0 ? 'no facts' : table(FACT_HEADERS, factRows(list)),
        );
        return undefined;
      }),
    );

  keyOptions(
    withReader(
      facts
        .command('history')
        .description('every version of a fact: value, confidence, validity, provenance'),
    ),
  ).action(
    action(async (ctx, options: KeyOptions) => {
      const { memory } = await ctx.memory();
      const { scope, principal } = readerOf(memory, options);
      const versions = await memory.facts.history(
        scope,
        { entity: options.entity, key: options.key, ...(options.type ? { entityType: options.type } : {}) },
        { principal },
      );
      if (versions.length === 0) throw notFound('fact', `${options.entity} · ${options.key}`);
      ctx.output.result({ scope, versions }, () =>
        table(
          ['version', 'value', 'status', 'confidence', 'valid from', 'valid to', 'provenance', 'scope', 'id'],
          versions.map((f) => [
            f.version,
            formatValue(f.value),
            f.status,
            f.confidence.toFixed(2),
            formatTime(f.validFrom),
            formatTime(f.validTo),
            formatProvenance(f.provenance),
            scopeText(f.scope),
            f.id,
          ]),
        ),
      );
      return undefined;
    }),
  );

  keyOptions(
    withReader(
      facts
        .command('set')
        .description('write a value through the engine (supersedes or confirms; audited)')
        .requiredOption('--value <value>', 'the new value (text; see --json-value)'),
    ),
  )
    .option('--json-value', 'read --value as JSON (a number, list or object)')
    .option(
      '--confidence <c>',
      'confidence from 0 to 1 (below the review threshold it goes to review)',
      unitOption,
    )
    .option('--correct', 'record a human correction: confidence 1, overrides later extractions')
    .action(
      action(async (ctx, options: SetOptions) => {
        const { memory } = await ctx.memory();
        const { scope, principal } = readerOf(memory, options);
        const value = parseValue(options);
        const key = {
          entity: options.entity,
          key: options.key,
          ...(options.type ? { entityType: options.type } : {}),
        };
        if (options.correct) {
          if (options.confidence !== undefined)
            throw invalidInput('--correct sets confidence 1; drop --confidence');
          const result = await memory.facts.correct(scope, { ...key, value, principal });
          ctx.output.result({ outcome: 'corrected', ...result }, () =>
            describeWrite('corrected', result.fact, result.previous),
          );
          return undefined;
        }
        const result = await memory.facts.remember(scope, {
          ...key,
          value,
          principal,
          ...(options.confidence === undefined ? {} : { confidence: options.confidence }),
        });
        const outcome = result.review
          ? 'review'
          : result.confirmed
            ? 'confirmed'
            : result.previous
              ? 'superseded'
              : 'written';
        ctx.output.result({ outcome, ...result }, () =>
          result.review
            ? `below the review threshold: queued for review as ${result.review.id}`
            : describeWrite(outcome, result.fact!, result.previous),
        );
        return undefined;
      }),
    );

  withReader(
    facts
      .command('forget')
      .description('delete one fact with its whole history (audited)')
      .argument('<id>', 'the fact’s id (any version’s), from `strata facts list`'),
  ).action(
    action(async (ctx, id: string, options: ReaderOptions) => {
      const { memory } = await ctx.memory();
      const { scope, principal } = readerOf(memory, options);
      const [fact] = await memory.store.facts.get({ scope, ids: [id] });
      if (!fact) throw notFound('fact', id);
      const result = await memory.forgetItem(scope, id, { principal });
      if (!result.deleted) {
        throw notFound(
          `fact (it belongs to ${scopeText(fact.scope)}, above this scope; forget it there)`,
          id,
        );
      }
      ctx.output.result({ deleted: true, fact }, () => `forgot ${fact.entityId} · ${fact.key} (${id})`);
      return undefined;
    }),
  );
}

function describeWrite(outcome: string, fact: FactRecord, previous: FactRecord | undefined): string {
  const was = previous ? ` (was ${formatValue(previous.value)}, version ${previous.version})` : '';
  return `${outcome}: ${fact.entityId} · ${fact.key} = ${formatValue(fact.value)}${was}, version ${fact.version}, ${fact.id}`;
}
