import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { StrataError } from '@strata-memory/core';
import { describe, expect, it } from 'vitest';
import { DB_PATH_ENV, DEFAULT_DB_PATH, demoOptions } from './demo-options.ts';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

describe('demoOptions', () => {
  it('defaults to .strata/demo.db at the repository root, whatever the working directory', () => {
    expect(DEFAULT_DB_PATH).toBe(join(repoRoot, '.strata', 'demo.db'));
    expect(demoOptions([], {})).toEqual({ dbPath: DEFAULT_DB_PATH, reset: false, help: false });
  });

  it('reads --reset with or without a bare -- before it', () => {
    expect(demoOptions(['--reset'], {}).reset).toBe(true);
    expect(demoOptions(['--', '--reset'], {}).reset).toBe(true);
  });

  it('takes the database path from --db, else from the environment', () => {
    expect(demoOptions([], { [DB_PATH_ENV]: '/tmp/x/demo.db' }).dbPath).toBe('/tmp/x/demo.db');
    expect(demoOptions(['--db', '/tmp/y.db'], { [DB_PATH_ENV]: '/tmp/x/demo.db' }).dbPath).toBe('/tmp/y.db');
    expect(demoOptions([], { [DB_PATH_ENV]: '  ' }).dbPath).toBe(DEFAULT_DB_PATH);
  });

  it.each([[['--frobnicate']], [['extra']], [['--db']], [['--db', ' ']]])(
    'rejects %j with invalid_input',
    (args) => {
      let caught: unknown;
      try {
        demoOptions(args, {});
      } catch (error) {
        caught = error;
      }
      expect(StrataError.isInstance(caught)).toBe(true);
      expect((caught as StrataError).code).toBe('invalid_input');
    },
  );
});
