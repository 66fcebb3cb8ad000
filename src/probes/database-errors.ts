/**
 * Maps a PostgreSQL (SQLSTATE) or MySQL/MariaDB (errno) driver error to a §7.3 database reason.
 * Metadata holds the error code and, for server errors that describe the query rather than data,
 * the server's message (class 22/23 messages can quote column values, so they are left out). A
 * client-side error (network, driver) contributes its code only: its text may echo the DSN.
 */
import type { ProbeOutcome } from './types';
import type { SqlEngine } from './read-only-sql';

export interface DbFailure {
  reason: string;
  metadata?: ProbeOutcome['metadata'];
}

const MAX_MESSAGE = 200;

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'EHOSTDOWN',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EADDRNOTAVAIL',
  'PROTOCOL_CONNECTION_LOST',
]);

const PG_REASONS: Record<string, string> = {
  '57014': 'db_timeout', // query_canceled: statement_timeout
  '42501': 'db_access_denied', // insufficient_privilege
  '28P01': 'db_auth_failed', // invalid_password
  '28000': 'db_auth_failed', // invalid_authorization_specification (unknown role, pg_hba reject)
  '42601': 'db_syntax_error',
  '25006': 'db_query_not_allowed', // read_only_sql_transaction: the READ ONLY transaction stopped a write
  '57P01': 'db_connection_failed', // admin_shutdown
  '57P02': 'db_connection_failed', // crash_shutdown
  '57P03': 'db_connection_failed', // cannot_connect_now
};

/** By errno: names differ between MySQL and MariaDB, and mysql2 knows only MySQL's. */
const MYSQL_REASONS: Record<number, string> = {
  1044: 'db_access_denied', // ER_DBACCESS_DENIED_ERROR
  1142: 'db_access_denied', // ER_TABLEACCESS_DENIED_ERROR
  1143: 'db_access_denied', // ER_COLUMNACCESS_DENIED_ERROR
  1227: 'db_access_denied', // ER_SPECIFIC_ACCESS_DENIED_ERROR
  1370: 'db_access_denied', // ER_PROCACCESS_DENIED_ERROR
  1045: 'db_auth_failed', // ER_ACCESS_DENIED_ERROR
  1698: 'db_auth_failed', // ER_ACCESS_DENIED_NO_PASSWORD_ERROR
  1251: 'db_auth_failed', // ER_NOT_SUPPORTED_AUTH_MODE
  1130: 'db_auth_failed', // ER_HOST_NOT_PRIVILEGED
  1064: 'db_syntax_error', // ER_PARSE_ERROR
  3024: 'db_timeout', // MySQL ER_QUERY_TIMEOUT (max_execution_time)
  1969: 'db_timeout', // MariaDB ER_STATEMENT_TIMEOUT (max_statement_time)
  1317: 'db_timeout', // ER_QUERY_INTERRUPTED
  1792: 'db_query_not_allowed', // ER_CANT_EXECUTE_IN_READ_ONLY_TRANSACTION
  1040: 'db_connection_failed', // ER_CON_COUNT_ERROR
  1129: 'db_connection_failed', // ER_HOST_IS_BLOCKED
};

interface DriverError {
  code?: unknown;
  errno?: unknown;
  sqlState?: unknown;
  severity?: unknown;
  message?: unknown;
  name?: unknown;
}

export function classifyDbError(err: unknown, engine: SqlEngine): DbFailure {
  const e = (typeof err === 'object' && err !== null ? err : {}) as DriverError;
  if (
    engine === 'postgresql' &&
    typeof e.code === 'string' &&
    /^[0-9A-Z]{5}$/.test(e.code) &&
    e.severity !== undefined
  ) {
    return postgresFailure(e.code, String(e.message ?? ''));
  }
  if (engine === 'mysql' && typeof e.errno === 'number' && e.errno > 0 && typeof e.sqlState === 'string') {
    return mysqlFailure(e.errno, e.sqlState, typeof e.code === 'string' ? e.code : null, String(e.message ?? ''));
  }
  return clientFailure(e);
}

function postgresFailure(sqlstate: string, message: string): DbFailure {
  // The extended protocol refuses a second statement the parser did not see (e.g. after a backslash-quoted string).
  if (sqlstate === '42601' && message.includes('multiple commands'))
    return { reason: 'db_query_not_allowed', metadata: { problem: 'multiple_statements', sqlstate } };
  const reason = PG_REASONS[sqlstate] ?? (sqlstate.startsWith('08') ? 'db_connection_failed' : 'db_error');
  return { reason, metadata: withMessage({ sqlstate }, reason, sqlstate, message) };
}

function mysqlFailure(errno: number, sqlstate: string, code: string | null, message: string): DbFailure {
  const reason = MYSQL_REASONS[errno] ?? 'db_error';
  return { reason, metadata: withMessage({ errno, sqlstate, ...(code ? { code } : {}) }, reason, sqlstate, message) };
}

function withMessage(
  metadata: Record<string, string | number>,
  reason: string,
  sqlstate: string,
  message: string,
): Record<string, string | number> {
  const describesQuery = (reason === 'db_error' || reason === 'db_syntax_error') && !/^2[23]/.test(sqlstate);
  return describesQuery && message ? { ...metadata, message: message.slice(0, MAX_MESSAGE) } : metadata;
}

function clientFailure(e: DriverError): DbFailure {
  const code = typeof e.code === 'string' ? e.code : null;
  if (code === 'PROTOCOL_SEQUENCE_TIMEOUT' || code === 'client_timeout')
    return { reason: 'db_timeout', metadata: { cause: 'client_timeout' } };
  if (code && NETWORK_CODES.has(code)) return { reason: 'db_connection_failed', metadata: { cause: code } };
  const message = typeof e.message === 'string' ? e.message : '';
  // pg's own connect timeout and lost-connection errors carry no code.
  if (/connection timeout|timeout expired/i.test(message))
    return { reason: 'db_connection_failed', metadata: { cause: 'ETIMEDOUT' } };
  if (/terminated unexpectedly|does not support SSL|Connection terminated/i.test(message))
    return { reason: 'db_connection_failed', metadata: { cause: 'connection_closed' } };
  return { reason: 'db_error', metadata: { error: code ?? (typeof e.name === 'string' ? e.name : 'Error') } };
}
