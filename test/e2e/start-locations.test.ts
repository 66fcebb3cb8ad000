import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LOCAL_SERVER_URL, dropDatabase, withDatabase } from '../../src/launchers/postgres';
import { getFreePort } from '../../src/launchers/free-port';
import { eventually } from '../support/eventually';

/**
 * `VIGIL_LOCATIONS=eu-central,us-east npm start`, from source: one vigil-prober process
 * per name, each from its own loopback source address, listed in the banner and online in
 * GET /v1/locations, no location inside the worker; Ctrl-C stops them with the stack.
 */
const ROOT = path.join(__dirname, '..', '..');
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'vigil-e2e-locations-'));
const databaseName = `vigil_e2e_locations_${Date.now()}`;

afterAll(async () => {
  await dropDatabase(withDatabase(LOCAL_SERVER_URL, databaseName));
  rmSync(dataDir, { recursive: true, force: true });
});

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('VIGIL_LOCATIONS=… npm start', () => {
  it('runs one prober process per location, lists them in the banner and the API, and stops them on Ctrl-C', async () => {
    const ports = { api: await getFreePort(), temporal: await getFreePort(), ui: await getFreePort() };
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: String(ports.api),
      TEMPORAL_PORT: String(ports.temporal),
      TEMPORAL_UI_PORT: String(ports.ui),
      VIGIL_DATA_DIR: dataDir,
      DATABASE_NAME: databaseName,
      LOG_LEVEL: 'warn',
      VIGIL_LOCATIONS: 'eu-central,us-east',
      LOCATION_HEARTBEAT_SECONDS: '2',
    };
    delete env.DATABASE_URL;
    delete env.TEMPORAL_ADDRESS;
    const child: ChildProcess = spawn(process.execPath, ['-r', 'tsx/cjs', path.join(ROOT, 'src', 'cli', 'start.ts')], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (out += d));
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no banner within 180 s:\n${out}`)), 180_000);
        child.stdout!.on('data', () => out.includes('Press Ctrl-C to stop.') && (clearTimeout(timer), resolve()));
        child.once('exit', (code) => (clearTimeout(timer), reject(new Error(`start exited with ${code}:\n${out}`))));
      });
      const line = /^ {2}Probe locations:\s+(.+)$/m.exec(out)?.[1] ?? '';
      expect(line).toMatch(/^eu-central \(pid \d+, from 127\.0\.0\.11\), us-east \(pid \d+, from 127\.0\.0\.12\)$/);
      const pids = [...line.matchAll(/pid (\d+)/g)].map((m) => Number(m[1]));
      expect(pids.every(alive)).toBe(true);

      const key = /^ {2}Dev API key:\s+(\S+)$/m.exec(out)?.[1];
      const list = async () => {
        const res = await fetch(`http://127.0.0.1:${ports.api}/v1/locations`, {
          headers: { authorization: `Bearer ${key}` },
        });
        expect(res.status).toBe(200);
        return (
          (await res.json()) as { items: { id: string; kind: string; status: string; label: string }[] }
        ).items.filter((l) => l.kind === 'cloud');
      };
      const cloud = await eventually(async () => {
        const items = await list();
        expect(items.map((l) => [l.id, l.status])).toEqual([
          ['eu-central', 'online'],
          ['us-east', 'online'],
        ]);
        return items;
      }, 20_000);
      // The worker's built-in location is off: the probers measure.
      expect(cloud.map((l) => l.label)).toEqual(['eu-central', 'us-east']);

      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      child.kill('SIGINT');
      expect(await exited).toBe(0);
      expect(pids.filter(alive)).toEqual([]);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  }, 300_000);
});
