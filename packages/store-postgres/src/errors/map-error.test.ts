import { StrataError } from '@strata-memory/core/store';
import { describe, expect, it } from 'vitest';
import { isConnectionFailure, mapPostgresError } from './map-error.ts';

function withCode(code: string, message = 'boom'): Error {
  return Object.assign(new Error(message), { code });
}

describe('mapPostgresError', () => {
  it.each([
    ['refused socket', withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432')],
    ['reset socket', withCode('ECONNRESET')],
    ['connect timeout', new Error('timeout exceeded when trying to connect')],
    ['query timeout (no answer)', new Error('Query read timeout')],
    ['dropped connection', new Error('Connection terminated unexpectedly')],
    ['server shutdown', withCode('57P01', 'terminating connection due to administrator command')],
    ['startup', withCode('57P03', 'the database system is starting up')],
    ['connection exception class', withCode('08006')],
    ['statement timeout', withCode('57014', 'canceling statement due to statement timeout')],
    ['too many clients', withCode('53300')],
    [
      'dual-stack refusal',
      Object.assign(new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')]), {
        code: 'ECONNREFUSED',
      }),
    ],
  ])('%s → store_unavailable, retryable', (_label, error) => {
    const mapped = mapPostgresError(error);
    expect(mapped?.code).toBe('store_unavailable');
    expect(mapped?.retryable).toBe(true);
    expect(mapped?.cause).toBe(error);
  });

  it.each([
    ['unique violation', '23505'],
    ['serialization failure', '40001'],
    ['deadlock', '40P01'],
  ])('%s → conflict, retryable', (_label, code) => {
    const mapped = mapPostgresError(withCode(code));
    expect(mapped?.code).toBe('conflict');
    expect(mapped?.retryable).toBe(true);
  });

  it('maps text PostgreSQL cannot store to invalid_input and size limits to payload_too_large', () => {
    expect(mapPostgresError(withCode('22021'))?.code).toBe('invalid_input');
    expect(mapPostgresError(withCode('22P05'))?.code).toBe('invalid_input');
    expect(mapPostgresError(withCode('54000'))?.code).toBe('payload_too_large');
  });

  it('leaves other errors, and StrataErrors, to the default mapping', () => {
    expect(mapPostgresError(withCode('42P01', 'relation does not exist'))).toBeUndefined();
    expect(mapPostgresError(new Error('something else'))).toBeUndefined();
    expect(mapPostgresError('a string')).toBeUndefined();
    expect(mapPostgresError(new StrataError({ code: 'conflict', message: 'x' }))).toBeUndefined();
  });
});

describe('isConnectionFailure', () => {
  it('is true for a broken, refused or unanswered connection', () => {
    expect(isConnectionFailure(new Error('Query read timeout'))).toBe(true);
    expect(isConnectionFailure(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isConnectionFailure(withCode('ECONNRESET'))).toBe(true);
  });

  it('is false for errors the server answered with, the connection still usable', () => {
    expect(isConnectionFailure(withCode('57014', 'canceling statement due to statement timeout'))).toBe(
      false,
    );
    expect(isConnectionFailure(withCode('23505', 'duplicate key value'))).toBe(false);
    expect(isConnectionFailure(new Error('something else'))).toBe(false);
    expect(isConnectionFailure('Query read timeout')).toBe(false);
  });
});
