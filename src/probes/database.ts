/**
 * Database probe: the scalar of a read-only query (one row, one column), not rescaled, unit null.
 * Decisions (spec silent):
 * - The query must pass `refuseUnlessReadOnlySelect` (a real SQL parser, fail-closed) before any
 *   connection opens; it then runs in a READ ONLY transaction on a fresh connection that is closed
 *   afterwards. Refusals by the transaction (SQLSTATE 25006, MySQL 1792) or by the server's
 *   one-statement rule also answer db_query_not_allowed.
 * - `statement_timeout_ms` defaults to 5000 and is capped at 30000; the connection attempt may
 *   take `ctx.defaultTimeoutMs`. The probe's deadline (ctx.signal) drops the connection: db_timeout.
 * - Value: numbers; booleans 1/0; bigint, numeric/decimal and numeric text parsed; NaN/Infinity
 *   → non_finite_value; anything else db_non_numeric. Rows are never returned.
 * - PostgreSQL DSNs are libpq URLs or key=value strings as `pg` reads them; MySQL/MariaDB DSNs
 *   are `mysql://` URLs (see database-mysql.ts).
 */
import type { SourceConfigOf } from '../domain/source-config';
import { classifyDbError } from './database-errors';
import { runMysqlQuery } from './database-mysql';
import { type RunningQuery, runPostgresQuery } from './database-postgres';
import { type QueryRun, scalarOutcome } from './database-result';
import { refuseUnlessReadOnlySelect, type SqlEngine } from './read-only-sql';
import { noValue, type Probe } from './types';

export const DEFAULT_STATEMENT_TIMEOUT_MS = 5_000;
export const MAX_STATEMENT_TIMEOUT_MS = 30_000;

const RUNNERS: Record<SqlEngine, (run: QueryRun) => RunningQuery> = {
  postgresql: runPostgresQuery,
  mysql: runMysqlQuery,
};

export const databaseProbe: Probe<SourceConfigOf<'database'>> = async (config, ctx) => {
  const timeoutMs = config.statement_timeout_ms ?? DEFAULT_STATEMENT_TIMEOUT_MS;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) return noValue('db_invalid_timeout');
  const refusal = refuseUnlessReadOnlySelect(config.query, config.engine);
  if (refusal) return noValue('db_query_not_allowed', { problem: refusal });
  const dsn = ctx.env(config.connection_string_ref);
  if (!dsn?.trim()) return noValue('db_dsn_missing', { connection_string_ref: config.connection_string_ref });
  if (ctx.signal.aborted) return noValue('db_timeout', { aborted: true });

  let running: RunningQuery;
  try {
    running = RUNNERS[config.engine]({
      dsn,
      query: config.query,
      statementTimeoutMs: Math.min(timeoutMs, MAX_STATEMENT_TIMEOUT_MS),
      connectTimeoutMs: ctx.defaultTimeoutMs,
    });
  } catch (err) {
    const failure = classifyDbError(err, config.engine);
    return noValue(failure.reason, failure.metadata);
  }
  let onAbort = () => undefined as void;
  const aborted = new Promise<'aborted'>((resolve) => {
    onAbort = () => {
      running.cancel();
      resolve('aborted');
    };
    ctx.signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    const shape = await Promise.race([running.result, aborted]);
    if (shape === 'aborted') return noValue('db_timeout', { aborted: true });
    return scalarOutcome(shape);
  } catch (err) {
    if (ctx.signal.aborted) return noValue('db_timeout', { aborted: true });
    const failure = classifyDbError(err, config.engine);
    return noValue(failure.reason, failure.metadata);
  } finally {
    ctx.signal.removeEventListener('abort', onAbort);
    running.result.catch(() => undefined);
  }
};
