import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { dropDatabase, withDatabase, LOCAL_SERVER_URL } from '../../src/launchers/postgres';
import { getFreePort, isPortOpen } from '../../src/launchers/free-port';

/**
 * `npm start` end to end, from source: one command brings up PostgreSQL (the local server,
 * database created), migrations, the Temporal dev server, the worker and the API, prints what a
 * developer needs, survives a restart with its state, and stops cleanly on Ctrl-C.
 */
const ROOT = path.join(__dirname, '..', '..');
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'vigil-e2e-'));
const databaseName = `vigil_e2e_${Date.now()}`;

interface Started {
  child: ChildProcess;
  output: () => string;
  banner: Record<string, string>;
}

async function startStack(ports: { api: number; temporal: number; ui: number }): Promise<Started> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(ports.api),
    TEMPORAL_PORT: String(ports.temporal),
    TEMPORAL_UI_PORT: String(ports.ui),
    VIGIL_DATA_DIR: dataDir,
    DATABASE_NAME: databaseName,
    LOG_LEVEL: 'warn',
  };
  delete env.DATABASE_URL;
  delete env.TEMPORAL_ADDRESS;
  const child = spawn(process.execPath, ['-r', 'tsx/cjs', path.join(ROOT, 'src', 'cli', 'start.ts')], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no banner within 120 s:\n${out}`)), 120_000);
    const check = () => {
      if (out.includes('Press Ctrl-C to stop.')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`start exited with ${code}:\n${out}`));
    });
  });
  const banner = Object.fromEntries(
    [...out.matchAll(/^ {2}([A-Za-z ]+):\s+(.+)$/gm)].map((m) => [m[1]!.trim(), m[2]!.trim()]),
  );
  return { child, output: () => out, banner };
}

async function stop(s: Started): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => s.child.once('exit', (code) => resolve(code)));
  s.child.kill('SIGINT');
  return exited;
}

afterAll(async () => {
  await dropDatabase(withDatabase(LOCAL_SERVER_URL, databaseName));
  rmSync(dataDir, { recursive: true, force: true });
});

describe('npm start (the whole stack in one command)', () => {
  it('starts everything, prints the URLs and a working dev key, keeps state across a restart and stops on Ctrl-C', async () => {
    const ports = { api: await getFreePort(), temporal: await getFreePort(), ui: await getFreePort() };
    const first = await startStack(ports);
    const base = `http://127.0.0.1:${ports.api}`;
    expect(first.banner['API base URL']).toBe(`${base}/v1`);
    expect(first.banner['API reference']).toContain(`${base}/v1/reference`);
    expect(first.banner['Temporal UI']).toBe(`http://127.0.0.1:${ports.ui}`);
    expect(first.banner['Status pages']).toBe(`http://<subdomain>.status.localhost:${ports.api}/`);
    const key = first.banner['Dev API key']!;
    expect(key).toMatch(/^vgl_pub_/);
    // One probe location inside the worker, online.
    expect(first.banner['Probe location']).toMatch(/^local \("This machine", inside the worker/);
    const locations = (await (
      await fetch(`${base}/v1/locations`, { headers: { authorization: `Bearer ${key}` } })
    ).json()) as { items: unknown[] };
    expect(locations.items).toEqual([
      expect.objectContaining({ id: 'local', label: 'This machine', kind: 'cloud', status: 'online' }),
    ]);

    const services = await fetch(`${base}/v1/services`, { headers: { authorization: `Bearer ${key}` } });
    expect(services.status).toBe(200);
    const ready = await (await fetch(`${base}/readyz`)).json();
    expect(ready).toEqual({ status: 'ready', checks: { database: { status: 'ok' }, temporal: { status: 'ok' } } });
    expect((await fetch(first.banner['Temporal UI']!)).status).toBe(200);

    // The console sign-in link signs the development owner in, once.
    expect(first.banner.Console).toBe(`${base}/console`);
    const signIn = first.banner['Console sign in']!;
    expect(signIn).toMatch(new RegExp(`^${base}/console/sign-in/[A-Za-z0-9_-]{43}$`));
    const used = await fetch(signIn, { method: 'POST', redirect: 'manual' });
    expect([used.status, used.headers.get('location')]).toEqual([303, '/console']);
    const cookie = used.headers.get('set-cookie')!.split(';')[0]!;
    const overview = await fetch(`${base}/console`, { headers: { cookie } });
    expect([overview.status, await overview.text()]).toEqual([
      200,
      expect.stringContaining('owner@vigil.localhost (owner)'),
    ]);
    expect((await fetch(signIn, { method: 'POST', redirect: 'manual' })).status).toBe(410);

    // A workflow run on the stack's own worker must still be there after a restart (SQLite under .data).
    const connection = await Connection.connect({ address: `127.0.0.1:${ports.temporal}` });
    const client = new Client({ connection });
    const run = await client.workflow.start('housekeepingWorkflow', {
      taskQueue: 'vigil',
      workflowId: 'e2e-persisted',
      args: [],
    });
    await run.result();
    await connection.close();

    expect(await stop(first)).toBe(0);
    expect(await isPortOpen('127.0.0.1', ports.api)).toBe(false);
    expect(await isPortOpen('127.0.0.1', ports.temporal)).toBe(false);

    const second = await startStack(ports);
    try {
      expect(second.banner['Dev API key']).toBe(key);
      const again = new Client({ connection: await Connection.connect({ address: `127.0.0.1:${ports.temporal}` }) });
      const described = await again.workflow.getHandle('e2e-persisted').describe();
      expect(described.status.name).toBe('COMPLETED');
      await again.connection.close();
    } finally {
      expect(await stop(second)).toBe(0);
    }
  }, 300_000);
});
