import { invalidInput } from '@strata-memory/core/store';

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * Checks a schema name given in the options: lower-case letters, digits and `_`, starting with a
 * letter or `_`, at most 63 characters (PostgreSQL's identifier limit), and not a system schema.
 */
export function checkSchemaName(name: string): string {
  if (!SCHEMA_NAME.test(name) || name.startsWith('pg_') || name === 'information_schema') {
    throw invalidInput(
      `schema "${name}" is not allowed: use 1-63 lower-case letters, digits or _, starting with a letter or _, not pg_*`,
      { schema: name },
    );
  }
  return name;
}

/** A double-quoted SQL identifier. */
export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
