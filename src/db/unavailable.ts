/**
 * Whether an error says PostgreSQL could not be reached or went away (a restart, a failover, a
 * network cut), rather than that a statement was wrong. Such requests are refused with 503 and
 * are safe to retry; nothing they did was committed.
 *
 * SQLSTATE class 08 is "connection exception", except 08P01 (protocol_violation): PostgreSQL
 * answers it to a statement it cannot read (a query text holding U+0000 is cut short: "invalid
 * message format") and the connection carries on, so retrying the same request fails the same way.
 * 57P01–57P03 are a shutdown or a server still starting; 53300 is too many connections. MikroORM
 * wraps the driver's error, so the chain of `cause`s is walked.
 */
const SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);
/** Class 08 codes that are about the statement, not the connection. */
const NOT_CONNECTION = new Set(['08P01']);
// Not ETIMEDOUT: other clients (HTTP, SMTP) time out too, and the pool's own timeouts say so in their message.
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
const MESSAGES = [
  /Connection terminated/i,
  /Connection ended unexpectedly/i,
  /Timeout acquiring a connection/i,
  /not queryable/i,
  /the database system is (starting up|shutting down|in recovery mode)/i,
];

export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = String((e as { code?: unknown }).code ?? '');
    if (SQLSTATES.has(code) || (code.startsWith('08') && !NOT_CONNECTION.has(code)) || SOCKET_CODES.has(code))
      return true;
    const message = String((e as { message?: unknown }).message ?? '');
    if (MESSAGES.some((m) => m.test(message))) return true;
  }
  return false;
}
