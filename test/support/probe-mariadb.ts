import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createConnection } from 'mysql2/promise';
import { getFreePort } from '../../src/launchers/free-port';
import { stopChild, tail } from './peer-process';

const INSTALL_HINT = 'MariaDB (mariadbd, mariadb-install-db) is missing: run scripts/install-test-peers.sh';
const START_TIMEOUT_MS = 20_000;

export interface ProbeMariadb {
  port: number;
  /** DSN of the passwordless root account on 127.0.0.1. */
  rootUrl(database?: string): string;
  /** Runs statements as root (test setup only). */
  admin(sql: string): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A throwaway MariaDB server: a fresh datadir (mariadb-install-db) and `mariadbd` on a free
 * loopback port, root without a password. A missing binary fails the test, never skips it.
 */
export async function startProbeMariadb(): Promise<ProbeMariadb> {
  for (const bin of ['mariadb-install-db', 'mariadbd']) {
    const found = spawnSync('sh', ['-c', `command -v ${bin} || test -x /usr/sbin/${bin}`], { encoding: 'utf8' });
    if (found.status !== 0)
      throw new Error(
        `${INSTALL_HINT}${process.env.CI === 'true' ? ' in CI before the tests' : ''} (${bin} not found)`,
      );
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'vigil-probe-mariadb-'));
  const datadir = path.join(dir, 'data');
  const install = spawnSync(
    'mariadb-install-db',
    ['--no-defaults', `--datadir=${datadir}`, '--auth-root-authentication-method=normal', '--user=root'],
    { encoding: 'utf8', timeout: 60_000 },
  );
  if (install.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`mariadb-install-db failed: ${install.stderr || install.stdout}`);
  }
  const port = await getFreePort();
  const logFile = path.join(dir, 'mariadbd.log');
  const child = spawn(
    existsOnPath('mariadbd') ? 'mariadbd' : '/usr/sbin/mariadbd',
    [
      '--no-defaults',
      `--datadir=${datadir}`,
      `--port=${port}`,
      '--bind-address=127.0.0.1',
      `--socket=${path.join(dir, 'sock')}`,
      '--user=root',
      '--skip-log-bin',
      `--log-error=${logFile}`,
      '--skip-name-resolve',
    ],
    { stdio: 'ignore' },
  );
  const rootUrl = (database = 'mysql') => `mysql://root@127.0.0.1:${port}/${database}`;
  const stop = () => stopChild(child).finally(() => rmSync(dir, { recursive: true, force: true }));
  try {
    await waitForConnections(rootUrl(), child, logFile);
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    port,
    rootUrl,
    async admin(sql) {
      const conn = await createConnection({ uri: rootUrl(), multipleStatements: true });
      try {
        await conn.query(sql);
      } finally {
        await conn.end();
      }
    },
    stop,
  };
}

function existsOnPath(bin: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${bin}`]).status === 0;
}

async function waitForConnections(url: string, child: ChildProcess, logFile: string): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`mariadbd exited with ${child.exitCode}: ${tail(logFile)}`);
    try {
      const conn = await createConnection({ uri: url, connectTimeout: 1000 });
      await conn.end();
      return;
    } catch (err) {
      if (Date.now() > deadline)
        throw new Error(
          `mariadbd did not accept connections within ${START_TIMEOUT_MS} ms (${(err as Error).message}): ${tail(logFile)}`,
        );
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
