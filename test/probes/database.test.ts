import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import type { SourceConfigOf } from '../../src/domain/source-config';
import { getFreePort } from '../../src/launchers/free-port';
import { canConnect, LOCAL_SERVER_URL, withDatabase } from '../../src/launchers/postgres';
import { databaseProbe } from '../../src/probes/database';
import type { ProbeContext } from '../../src/probes/types';
import { type ProbeMariadb, startProbeMariadb } from '../support/probe-mariadb';

type DbConfig = SourceConfigOf<'database'>;

const DSN_VAR = 'PROBE_DB_DSN';

function ctxWith(dsn: string | undefined, signal = new AbortController().signal): ProbeContext {
  return { env: (name) => (name === DSN_VAR ? dsn : undefined), mode: 'agent', signal, defaultTimeoutMs: 5_000 };
}

const config = (engine: DbConfig['engine'], query: string, extra: Partial<DbConfig> = {}): DbConfig => ({
  engine,
  connection_string_ref: DSN_VAR,
  query,
  ...extra,
});

describe('database probe on PostgreSQL', () => {
  const suffix = randomBytes(4).toString('hex');
  const dbName = `vigil_probe_db_${suffix}`;
  const role = `vigil_probe_ro_${suffix}`;
  const dsn = withDatabase(LOCAL_SERVER_URL, dbName);
  const roleDsn = dsn.replace('postgres://postgres@', `postgres://${role}@`);

  const pg = (query: string, extra: Partial<DbConfig> = {}, url = dsn) =>
    databaseProbe(config('postgresql', query, extra), ctxWith(url));

  async function admin(url: string, ...statements: string[]): Promise<void> {
    const client = new Client({ connectionString: url });
    await client.connect();
    try {
      for (const sql of statements) await client.query(sql);
    } finally {
      await client.end();
    }
  }

  async function readingsCount(): Promise<number> {
    const client = new Client({ connectionString: dsn });
    await client.connect();
    try {
      const { rows } = await client.query<{ n: string }>('SELECT count(*) AS n FROM readings');
      return Number(rows[0]!.n);
    } finally {
      await client.end();
    }
  }

  beforeAll(async () => {
    if (!(await canConnect(LOCAL_SERVER_URL, 3000)))
      throw new Error(`PostgreSQL must be running at ${LOCAL_SERVER_URL} (user postgres, trust) for these tests`);
    await admin(LOCAL_SERVER_URL, `CREATE DATABASE ${dbName}`, `CREATE ROLE ${role} LOGIN`);
    await admin(
      dsn,
      'CREATE TABLE readings (v numeric)',
      'INSERT INTO readings VALUES (1.5), (1), (2)',
      'CREATE TABLE secrets (v int)',
      'INSERT INTO secrets VALUES (7)',
      'CREATE SEQUENCE ticket_seq',
      `GRANT SELECT ON readings TO ${role}`,
    );
  });

  afterAll(async () => {
    await admin(LOCAL_SERVER_URL, `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`, `DROP ROLE IF EXISTS ${role}`);
  });

  describe('measures', () => {
    it('a bigint count (driver text) as a number, unit null', async () => {
      expect(await pg('SELECT count(*) FROM readings')).toEqual({
        value: 3,
        unit: null,
        value_description: 'Result of the database query',
        reason: null,
      });
    });

    it('a numeric sum, a WITH … SELECT, booleans 1/0 and numeric text', async () => {
      expect((await pg('SELECT sum(v) FROM readings')).value).toBe(4.5);
      expect((await pg('WITH big AS (SELECT v FROM readings WHERE v > 1) SELECT count(*) FROM big')).value).toBe(2);
      expect((await pg('SELECT true')).value).toBe(1);
      expect((await pg('SELECT 1 > 2')).value).toBe(0);
      expect((await pg("SELECT '42.5'::text")).value).toBe(42.5);
      expect((await pg('SELECT 2.5::float8')).value).toBe(2.5);
    });

    it('as a role that holds SELECT on the table', async () => {
      expect((await pg('SELECT max(v) FROM readings', {}, roleDsn)).value).toBe(2);
    });
  });

  describe('result shape', () => {
    it('db_empty_result for zero rows', async () => {
      expect((await pg('SELECT v FROM readings WHERE false')).reason).toBe('db_empty_result');
    });

    it('db_multi_row for more than one row', async () => {
      expect(await pg('SELECT v FROM readings')).toMatchObject({
        value: null,
        reason: 'db_multi_row',
        metadata: { rows: 3 },
      });
    });

    it('db_multi_column for more than one column', async () => {
      expect(await pg('SELECT 1, 2')).toMatchObject({
        value: null,
        reason: 'db_multi_column',
        metadata: { columns: 2 },
      });
    });

    it('db_null_value for NULL', async () => {
      expect((await pg('SELECT NULL::int')).reason).toBe('db_null_value');
    });

    it('db_non_numeric for text and dates', async () => {
      expect(await pg("SELECT 'abc'")).toMatchObject({ reason: 'db_non_numeric', metadata: { type: 'string' } });
      expect(await pg('SELECT now()')).toMatchObject({ reason: 'db_non_numeric', metadata: { type: 'date' } });
    });

    it('non_finite_value for NaN and infinity', async () => {
      expect((await pg("SELECT 'NaN'::numeric")).reason).toBe('non_finite_value');
      expect((await pg("SELECT 'Infinity'::float8")).reason).toBe('non_finite_value');
    });
  });

  describe('refuses before connecting (db_query_not_allowed)', () => {
    it.each([
      ['INSERT', 'INSERT INTO readings VALUES (9)', 'not_select'],
      ['DELETE', 'DELETE FROM readings', 'not_select'],
      ['DROP', 'DROP TABLE readings', 'not_select'],
      ['a second statement', 'SELECT 1; DROP TABLE readings', 'multiple_statements'],
      [
        'a DELETE in a CTE (unparseable in the PostgreSQL dialect)',
        'WITH d AS (DELETE FROM readings RETURNING 1) SELECT count(*) FROM d',
        'unparseable',
      ],
      ['an UPDATE in a CTE', 'WITH d AS (UPDATE readings SET v = 0 RETURNING v) SELECT count(*) FROM d', 'writes_data'],
      ['SELECT … FOR UPDATE', 'SELECT v FROM readings LIMIT 1 FOR UPDATE', 'unparseable'],
      ['SELECT … INTO', 'SELECT v INTO copied FROM readings', 'select_into'],
      ['SET', 'SET statement_timeout = 0', 'not_select'],
    ])('%s', async (_what, query, problem) => {
      expect(await pg(query)).toMatchObject({ value: null, reason: 'db_query_not_allowed', metadata: { problem } });
    });

    it('and nothing changed', async () => {
      expect(await readingsCount()).toBe(3);
    });
  });

  describe('defense in depth on the server', () => {
    it('the READ ONLY transaction stops a write the parser lets through (nextval)', async () => {
      expect(await pg("SELECT nextval('ticket_seq')")).toMatchObject({
        reason: 'db_query_not_allowed',
        metadata: { sqlstate: '25006' },
      });
    });

    it('the extended protocol refuses a statement hidden behind a backslash the parser reads as an escape', async () => {
      expect(await pg("SELECT 'a\\'; DROP TABLE readings; --'")).toMatchObject({
        reason: 'db_query_not_allowed',
        metadata: { problem: 'multiple_statements' },
      });
      expect(await readingsCount()).toBe(3);
    });
  });

  describe('failures', () => {
    it('db_timeout when the query outlives statement_timeout_ms', async () => {
      // 57014 (canceled by statement_timeout) is the server saying it stopped the query, which would otherwise succeed after 5 s.
      expect(await pg('SELECT pg_sleep(5)', { statement_timeout_ms: 200 })).toMatchObject({
        reason: 'db_timeout',
        metadata: { sqlstate: '57014' },
      });
    });

    it('db_timeout when the probe deadline (ctx.signal) passes first', async () => {
      // aborted: the deadline ended it, before the query's own 5 s and its 30 s statement timeout.
      const outcome = await databaseProbe(
        config('postgresql', 'SELECT pg_sleep(5)', { statement_timeout_ms: 30_000 }),
        ctxWith(dsn, AbortSignal.timeout(300)),
      );
      expect(outcome).toMatchObject({ reason: 'db_timeout', metadata: { aborted: true } });
    });

    it('db_access_denied when the role lacks SELECT', async () => {
      expect(await pg('SELECT count(*) FROM secrets', {}, roleDsn)).toMatchObject({
        reason: 'db_access_denied',
        metadata: { sqlstate: '42501' },
      });
    });

    it('db_auth_failed for a role that does not exist (trust auth accepts any password, so 28000 not 28P01)', async () => {
      const url = dsn.replace('postgres://postgres@', 'postgres://vigil_no_such_role:wrong@');
      expect(await pg('SELECT 1', {}, url)).toMatchObject({
        reason: 'db_auth_failed',
        metadata: { sqlstate: '28000' },
      });
    });

    it('db_syntax_error for SQL the parser reads but the server rejects', async () => {
      const outcome = await pg('SELECT 1 LIMIT 1 LIMIT 2');
      expect(outcome).toMatchObject({ reason: 'db_syntax_error', metadata: { sqlstate: '42601' } });
      expect(outcome.metadata?.message).toMatch(/syntax error/);
    });

    it('db_connection_failed when nothing listens', async () => {
      const port = await getFreePort();
      expect(await pg('SELECT 1', {}, `postgres://postgres@127.0.0.1:${port}/postgres`)).toMatchObject({
        reason: 'db_connection_failed',
        metadata: { cause: 'ECONNREFUSED' },
      });
    });

    it('db_error (with the SQLSTATE) for an unknown table or database', async () => {
      expect(await pg('SELECT count(*) FROM no_such_table')).toMatchObject({
        reason: 'db_error',
        metadata: { sqlstate: '42P01' },
      });
      expect(await pg('SELECT 1', {}, withDatabase(LOCAL_SERVER_URL, `no_such_db_${suffix}`))).toMatchObject({
        reason: 'db_error',
        metadata: { sqlstate: '3D000' },
      });
    });

    it('db_dsn_missing when the variable is not set, naming it', async () => {
      expect(await databaseProbe(config('postgresql', 'SELECT 1'), ctxWith(undefined))).toMatchObject({
        reason: 'db_dsn_missing',
        metadata: { connection_string_ref: DSN_VAR },
      });
      expect((await databaseProbe(config('postgresql', 'SELECT 1'), ctxWith('  '))).reason).toBe('db_dsn_missing');
    });

    it('db_invalid_timeout for a non-finite statement timeout', async () => {
      expect((await pg('SELECT 1', { statement_timeout_ms: Number.NaN })).reason).toBe('db_invalid_timeout');
    });

    it('never returns rows or the DSN', async () => {
      const outcome = await pg('SELECT v FROM readings');
      expect(JSON.stringify(outcome)).not.toMatch(/1\.5|postgres:\/\//);
    });
  });
});

describe('database probe on MariaDB (engine mysql)', () => {
  let maria: ProbeMariadb;
  let readerDsn: (password: string) => string;
  const my = (query: string, extra: Partial<DbConfig> = {}, url = maria.rootUrl('probe')) =>
    databaseProbe(config('mysql', query, extra), ctxWith(url));

  beforeAll(async () => {
    maria = await startProbeMariadb();
    await maria.admin(`
      CREATE DATABASE probe;
      CREATE TABLE probe.readings (v DECIMAL(10,2));
      INSERT INTO probe.readings VALUES (1.50), (1.00), (2.00);
      CREATE TABLE probe.secrets (v INT);
      CREATE TABLE probe.flags (f BIT(1));
      INSERT INTO probe.flags VALUES (b'1');
      CREATE SEQUENCE probe.ticket_seq;
      CREATE USER 'reader'@'127.0.0.1' IDENTIFIED BY 'right-pass';
      GRANT SELECT ON probe.readings TO 'reader'@'127.0.0.1';
    `);
    readerDsn = (password) => `mysql://reader:${password}@127.0.0.1:${maria.port}/probe`;
  }, 40_000);

  afterAll(async () => {
    await maria?.stop();
  });

  it('measures a DECIMAL sum, a BIGINT count and a BIT column', async () => {
    expect(await my('SELECT SUM(v) FROM readings')).toEqual({
      value: 4.5,
      unit: null,
      value_description: 'Result of the database query',
      reason: null,
    });
    expect((await my('WITH r AS (SELECT v FROM readings) SELECT COUNT(*) FROM r')).value).toBe(3);
    expect((await my('SELECT f FROM flags')).value).toBe(1);
  });

  it('measures as a user that holds SELECT', async () => {
    expect((await my('SELECT MAX(v) FROM readings', {}, readerDsn('right-pass'))).value).toBe(2);
  });

  it('db_auth_failed for a wrong password (ER_ACCESS_DENIED_ERROR)', async () => {
    expect(await my('SELECT 1', {}, readerDsn('wrong-pass'))).toMatchObject({
      reason: 'db_auth_failed',
      metadata: { errno: 1045 },
    });
  });

  it('db_access_denied when the user lacks SELECT (ER_TABLEACCESS_DENIED_ERROR)', async () => {
    expect(await my('SELECT COUNT(*) FROM secrets', {}, readerDsn('right-pass'))).toMatchObject({
      reason: 'db_access_denied',
      metadata: { errno: 1142 },
    });
  });

  it('db_timeout when the query outlives statement_timeout_ms (max_statement_time)', async () => {
    // errno 1969 (max_statement_time exceeded) is the server saying it stopped the query, which would otherwise succeed after 5 s.
    expect(await my('SELECT SLEEP(5)', { statement_timeout_ms: 300 })).toMatchObject({
      reason: 'db_timeout',
      metadata: { errno: 1969 },
    });
  });

  it('db_syntax_error (ER_PARSE_ERROR) and the result-shape codes', async () => {
    expect(await my('SELECT 1 LIMIT 1 LIMIT 2')).toMatchObject({
      reason: 'db_syntax_error',
      metadata: { errno: 1064 },
    });
    expect((await my('SELECT v FROM readings')).reason).toBe('db_multi_row');
    expect((await my('SELECT 1, 2')).reason).toBe('db_multi_column');
    expect((await my('SELECT v FROM readings WHERE 1 = 0')).reason).toBe('db_empty_result');
    expect((await my('SELECT NULL')).reason).toBe('db_null_value');
    expect((await my("SELECT 'abc'")).reason).toBe('db_non_numeric');
  });

  it('refuses locking reads, INTO and executable comments before connecting', async () => {
    for (const [query, problem] of [
      ['SELECT v FROM readings FOR UPDATE', 'locking_read'],
      ['SELECT v INTO @x FROM readings LIMIT 1', 'select_into'],
      ["SELECT 1 /*! INTO OUTFILE '/tmp/vigil-probe-x' */", 'executable_comment'],
      ['DELETE FROM readings', 'not_select'],
    ] as const) {
      expect(await my(query)).toMatchObject({ reason: 'db_query_not_allowed', metadata: { problem } });
    }
    expect((await my('SELECT COUNT(*) FROM readings')).value).toBe(3);
  });

  it('the READ ONLY transaction stops a write the parser lets through (NEXTVAL)', async () => {
    expect(await my('SELECT NEXTVAL(ticket_seq)')).toMatchObject({
      reason: 'db_query_not_allowed',
      metadata: { errno: 1792 },
    });
  });

  it('db_connection_failed when nothing listens', async () => {
    const port = await getFreePort();
    expect(await my('SELECT 1', {}, `mysql://root@127.0.0.1:${port}/probe`)).toMatchObject({
      reason: 'db_connection_failed',
      metadata: { cause: 'ECONNREFUSED' },
    });
  });
});
