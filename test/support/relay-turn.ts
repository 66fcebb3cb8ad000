import { Client as PgClient } from 'pg';
import { testDatabaseUrl } from './env';

/**
 * A relay drains the whole shared outbox, whoever wrote it: two suites fanning out at once would
 * take each other's events, and the deliveries one of them made would never be started by the
 * other. Every suite that fans the outbox out (through a relay or by calling `dispatchOutbox`)
 * takes its turn on this advisory lock first and holds it until it is done.
 */
const RELAY_LOCK = 727_001;

export async function takeRelayTurn(): Promise<() => Promise<void>> {
  const pg = new PgClient({ connectionString: testDatabaseUrl() });
  // A test that restarts its own server loses this connection, and with it the lock: nobody else shares that server.
  pg.on('error', () => undefined);
  await pg.connect();
  await pg.query('select pg_advisory_lock($1)', [RELAY_LOCK]);
  return async () => {
    await pg.query('select pg_advisory_unlock($1)', [RELAY_LOCK]).catch(() => undefined);
    await pg.end();
  };
}

const FAULT_LOCK = 727_002;

/**
 * Suites that kill and restart a Temporal server of their own (and spawn workers compiled on the
 * fly) take turns: two of them at once on a 2-core CI machine made each other's timers and
 * deliveries late by tens of seconds. Held from the first server start to the end of the file.
 */
export async function takeFaultTurn(): Promise<() => Promise<void>> {
  const pg = new PgClient({ connectionString: testDatabaseUrl() });
  pg.on('error', () => undefined);
  await pg.connect();
  await pg.query('select pg_advisory_lock($1)', [FAULT_LOCK]);
  return async () => {
    await pg.query('select pg_advisory_unlock($1)', [FAULT_LOCK]).catch(() => undefined);
    await pg.end();
  };
}
