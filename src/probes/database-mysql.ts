/**
 * Runs the probe's query on MySQL or MariaDB: one fresh connection without multi-statement
 * support, a session statement time limit (MariaDB `max_statement_time`, else MySQL
 * `max_execution_time`), `START TRANSACTION READ ONLY`, the query, ROLLBACK. Rows stream through
 * a counter; only the first cell is kept (BIT columns read as unsigned integers).
 *
 * The DSN is `mysql://user:password@host:port/database`; of its query parameters only `ssl` (JSON,
 * as mysql2 reads it) and `charset` are used, so no DSN can switch multi-statements back on.
 */
import { createConnection, type Connection, type ConnectionOptions, type FieldPacket, type QueryError } from 'mysql2';
import type { QueryRun, QueryShape } from './database-result';
import type { RunningQuery } from './database-postgres';

const CLIENT_GRACE_MS = 2_000;
const MYSQL_TYPE_BIT = 16;
const ER_UNKNOWN_SYSTEM_VARIABLE = 1193;
const DSN_PARAMS = ['ssl', 'charset'];

export function runMysqlQuery(run: QueryRun): RunningQuery {
  let conn: Connection | null = null;
  const result = (async () => {
    conn = createConnection(connectionOptions(run));
    conn.on('error', () => undefined);
    try {
      await setStatementLimit(conn, run.statementTimeoutMs);
      await exec(conn, 'START TRANSACTION READ ONLY');
      const shape = await streamShape(conn, run.query, run.statementTimeoutMs + CLIENT_GRACE_MS);
      await exec(conn, 'ROLLBACK');
      return shape;
    } finally {
      conn.destroy();
    }
  })();
  return { result, cancel: () => conn?.destroy() };
}

function connectionOptions(run: QueryRun): ConnectionOptions {
  let url: URL;
  try {
    url = new URL(run.dsn);
  } catch {
    throw Object.assign(new Error('connection string is not a URL'), { code: 'invalid_connection_string' });
  }
  const extra: Record<string, unknown> = {};
  for (const key of DSN_PARAMS) {
    const value = url.searchParams.get(key);
    if (value !== null) extra[key] = parseParam(value);
  }
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return {
    ...extra,
    host: decodeURIComponent(host) || 'localhost',
    port: url.port ? Number(url.port) : 3306,
    user: decodeURIComponent(url.username) || undefined,
    password: decodeURIComponent(url.password) || undefined,
    database: decodeURIComponent(url.pathname.slice(1)) || undefined,
    connectTimeout: run.connectTimeoutMs,
    multipleStatements: false,
    supportBigNumbers: true,
    bigNumberStrings: true,
    dateStrings: true,
  };
}

function parseParam(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

async function setStatementLimit(conn: Connection, ms: number): Promise<void> {
  try {
    await exec(conn, `SET SESSION max_statement_time = ${(ms / 1000).toFixed(3)}`);
  } catch (err) {
    if ((err as QueryError).errno !== ER_UNKNOWN_SYSTEM_VARIABLE) throw err;
    await exec(conn, `SET SESSION max_execution_time = ${Math.round(ms)}`);
  }
}

function exec(conn: Connection, sql: string): Promise<void> {
  return new Promise((resolve, reject) => conn.query(sql, (err) => (err ? reject(err) : resolve())));
}

function streamShape(conn: Connection, sql: string, timeout: number): Promise<QueryShape> {
  return new Promise((resolve, reject) => {
    let columns = 0;
    let bit = false;
    let rows = 0;
    let first: unknown;
    let failed = false;
    const query = conn.query({ sql, rowsAsArray: true, timeout });
    query.on('fields', (fields: FieldPacket[]) => {
      columns = fields.length;
      bit = fields[0]?.columnType === MYSQL_TYPE_BIT;
    });
    query.on('result', (row: unknown) => {
      if (rows === 0 && Array.isArray(row)) first = bit && Buffer.isBuffer(row[0]) ? bitValue(row[0]) : row[0];
      rows += 1;
    });
    query.on('error', (err: Error) => {
      failed = true;
      reject(err);
    });
    query.on('end', () => {
      if (!failed) resolve({ columns, rows, first });
    });
  });
}

function bitValue(buf: Buffer): number | Buffer {
  return buf.length > 0 && buf.length <= 6 ? buf.readUIntBE(0, buf.length) : buf;
}
