import { ConnectionException, DriverException } from '@mikro-orm/core';
import { DatabaseError } from 'pg';
import { isDatabaseUnavailable } from '../../src/db/unavailable';

/** An error as the pg driver raises it for a server message, with its SQLSTATE. */
function serverError(code: string, message: string, severity = 'ERROR'): DatabaseError {
  const err = new DatabaseError(message, message.length, 'error');
  err.code = code;
  err.severity = severity;
  return err;
}

/** What a socket error looks like (Node's `connect ECONNREFUSED …`). */
function socketError(code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`connect ${code} 127.0.0.1:5432`), { code, syscall: 'connect' });
}

describe('isDatabaseUnavailable', () => {
  it('counts connection failures, a server shutting down or starting, and too many connections, also wrapped by MikroORM', () => {
    for (const code of ['08000', '08001', '08003', '08004', '08006', '57P01', '57P02', '57P03', '53300']) {
      const err = serverError(code, 'terminating connection', code.startsWith('57') ? 'FATAL' : 'ERROR');
      expect([
        code,
        isDatabaseUnavailable(err),
        isDatabaseUnavailable(new ConnectionException(err)),
        isDatabaseUnavailable(new Error('query failed', { cause: err })),
      ]).toEqual([code, true, true, true]);
    }
    for (const code of ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN'])
      expect([code, isDatabaseUnavailable(socketError(code))]).toEqual([code, true]);
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('Timeout acquiring a connection. The pool is probably full.'))).toBe(true);
  });

  it('does not count a protocol violation (08P01) a statement caused: the connection carries on, and a retry fails the same way', () => {
    // What PostgreSQL answers to a query text holding U+0000: "invalid message format".
    const err = serverError('08P01', 'invalid message format');
    expect(isDatabaseUnavailable(err)).toBe(false);
    expect(isDatabaseUnavailable(new DriverException(err))).toBe(false);
    expect(isDatabaseUnavailable(new Error('insert failed', { cause: err }))).toBe(false);
  });

  it('does not count a statement the server refused for what it holds', () => {
    for (const code of ['22021', '23505', '42601', '40001', '57014'])
      expect([code, isDatabaseUnavailable(serverError(code, 'refused'))]).toEqual([code, false]);
    expect(isDatabaseUnavailable(socketError('ETIMEDOUT'))).toBe(false);
    expect(isDatabaseUnavailable(null)).toBe(false);
  });
});
