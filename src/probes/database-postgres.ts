/**
 * Runs the probe's query on PostgreSQL: one fresh connection, `BEGIN TRANSACTION READ ONLY`,
 * `SET LOCAL statement_timeout`, the query through the extended protocol (the server then refuses
 * a second statement), ROLLBACK. Rows stream through a counter; only the first cell is kept.
 */
import { Client, Query } from 'pg';
import type { QueryRun, QueryShape } from './database-result';

/** Client-side backstop past the server's statement_timeout, for a server that stops answering. */
const CLIENT_GRACE_MS = 2_000;

export interface RunningQuery {
  result: Promise<QueryShape>;
  /** Drops the connection at once (the probe's deadline passed). */
  cancel(): void;
}

export function runPostgresQuery(run: QueryRun): RunningQuery {
  const client = new Client({
    connectionString: run.dsn,
    connectionTimeoutMillis: run.connectTimeoutMs,
    application_name: 'vigil-probe',
  });
  client.on('error', () => undefined); // a connection lost after the answer is not the probe's concern
  const result = (async () => {
    try {
      await client.connect();
      await client.query('BEGIN TRANSACTION READ ONLY');
      await client.query(`SET LOCAL statement_timeout = ${Math.round(run.statementTimeoutMs)}`);
      const shape = await streamShape(client, run.query, run.statementTimeoutMs + CLIENT_GRACE_MS);
      await client.query('ROLLBACK');
      return shape;
    } finally {
      await client.end().catch(() => undefined);
    }
  })();
  return { result, cancel: () => void client.end().catch(() => undefined) };
}

/**
 * A Query submittable without a callback: rows arrive as events and are not accumulated. (pg's
 * own `query_timeout` would install a callback on it, so the backstop timer is ours.)
 */
function streamShape(client: Client, text: string, backstopMs: number): Promise<QueryShape> {
  return new Promise((resolve, reject) => {
    let rows = 0;
    let first: unknown;
    const timer = setTimeout(() => {
      reject(Object.assign(new Error('no answer within the statement timeout'), { code: 'client_timeout' }));
      void client.end().catch(() => undefined);
    }, backstopMs);
    const query = new Query({ text, rowMode: 'array', queryMode: 'extended' } as ConstructorParameters<
      typeof Query
    >[0]);
    query.on('row', (row: unknown[]) => {
      if (rows === 0) first = row[0];
      rows += 1;
    });
    query.on('end', (result) => {
      clearTimeout(timer);
      resolve({ columns: result.fields.length, rows, first });
    });
    query.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    void client.query(query);
  });
}
