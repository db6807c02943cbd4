import { describe, expect, it } from 'vitest';
import { StatementPreparation, statementName } from './prepared-statements.ts';

const params = [1];

describe('StatementPreparation', () => {
  it('prepares a text with parameters once it has run `threshold` times', () => {
    const preparation = new StatementPreparation({ threshold: 3 });
    const text = 'SELECT * FROM t WHERE id = $1';
    expect(preparation.nameFor(text, params)).toBeUndefined();
    expect(preparation.nameFor(text, params)).toBeUndefined();
    expect(preparation.nameFor(text, params)).toBe(statementName(text));
    expect(preparation.nameFor(text, params)).toBe(statementName(text));
  });

  it('never prepares a text without parameters (it may hold several statements)', () => {
    const preparation = new StatementPreparation({ threshold: 1 });
    expect(preparation.nameFor('SELECT 1; SELECT 2', [])).toBeUndefined();
    expect(preparation.nameFor('SELECT 1; SELECT 2', undefined)).toBeUndefined();
  });

  it('gives distinct texts distinct names, derived from the text alone', () => {
    const a = 'SELECT $1::int';
    const b = 'SELECT $1::text';
    expect(statementName(a)).not.toBe(statementName(b));
    expect(statementName(a)).toBe(statementName(`${a}`));
    expect(statementName(a)).toMatch(/^strata_[0-9a-f]{32}$/);
  });

  it('prepares at most `max` texts; the first to reach the threshold keep their names', () => {
    const preparation = new StatementPreparation({ threshold: 1, max: 2 });
    const names = ['SELECT $1::int', 'SELECT $1::text', 'SELECT $1::bigint'].map((t) =>
      preparation.nameFor(t, params),
    );
    expect(names[0]).toBeDefined();
    expect(names[1]).toBeDefined();
    expect(names[2]).toBeUndefined();
    expect(preparation.nameFor('SELECT $1::int', params)).toBe(names[0]);
  });

  it('runs a text unprepared from then on when its cached plan changed result type', () => {
    const preparation = new StatementPreparation({ threshold: 1 });
    const text = 'SELECT * FROM t WHERE id = $1';
    expect(preparation.nameFor(text, params)).toBeDefined();
    const changed = Object.assign(new Error('cached plan must not change result type'), { code: '0A000' });
    expect(preparation.failed(text, changed)).toBe('retry');
    expect(preparation.nameFor(text, params)).toBeUndefined();
    // Other texts are still prepared.
    expect(preparation.nameFor('SELECT $1::int', params)).toBeDefined();
    expect(preparation.on).toBe(true);
  });

  it.each([
    ['26000', 'prepared statement "strata_x" does not exist'],
    ['42P05', 'prepared statement "strata_x" already exists'],
  ])(
    'switches preparation off when the server answers %s (a pooler that does not keep them)',
    (code, message) => {
      const preparation = new StatementPreparation({ threshold: 1 });
      expect(preparation.nameFor('SELECT $1::int', params)).toBeDefined();
      expect(preparation.failed('SELECT $1::int', Object.assign(new Error(message), { code }))).toBe('retry');
      expect(preparation.on).toBe(false);
      expect(preparation.nameFor('SELECT $1::int', params)).toBeUndefined();
    },
  );

  it('leaves every other error to the caller', () => {
    const preparation = new StatementPreparation({ threshold: 1 });
    const text = 'SELECT $1::int';
    expect(preparation.nameFor(text, params)).toBeDefined();
    expect(preparation.failed(text, Object.assign(new Error('division by zero'), { code: '22012' }))).toBe(
      'throw',
    );
    expect(preparation.failed(text, Object.assign(new Error('some other feature'), { code: '0A000' }))).toBe(
      'throw',
    );
    expect(preparation.failed(text, undefined)).toBe('throw');
    expect(preparation.nameFor(text, params)).toBeDefined();
  });
});
