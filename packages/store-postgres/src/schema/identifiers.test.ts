import { StrataError } from '@strata-memory/core/store';
import { describe, expect, it } from 'vitest';
import { checkSchemaName, quoteIdent } from './identifiers.ts';

describe('schema names', () => {
  it('accepts plain lower-case identifiers', () => {
    for (const name of ['strata', 'tenant_a', '_x1', 'a'.repeat(63)])
      expect(checkSchemaName(name)).toBe(name);
  });

  it('rejects anything that would need quoting, is too long, or is a system schema', () => {
    for (const name of [
      '',
      'Strata',
      '1abc',
      'a-b',
      'a"b',
      'x; DROP',
      'a'.repeat(64),
      'pg_temp',
      'information_schema',
    ]) {
      let error: unknown;
      try {
        checkSchemaName(name);
      } catch (e) {
        error = e;
      }
      expect(StrataError.hasCode(error, 'invalid_input')).toBe(true);
    }
  });

  it('quotes identifiers, doubling embedded quotes', () => {
    expect(quoteIdent('strata')).toBe('"strata"');
    expect(quoteIdent('a"b')).toBe('"a""b"');
  });
});
