import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time';
import { isPortOpen } from '../../src/launchers/free-port';
import {
  TEMPORAL_CLI_SQLITE_VERSION,
  TEMPORAL_CLI_VERSION,
  ensureTemporalCli,
  startTemporalDevServer,
  temporalCliPath,
  type RunningTemporal,
} from '../../src/launchers/temporal-dev-server';
import { removeAbandonedBuilds } from '../../src/launchers/go-build';
import { VIGIL_SEARCH_ATTRIBUTES, registerSearchAttributes } from '../../src/temporal/search-attributes';

const cacheDir = process.env.VIGIL_CACHE_DIR ?? path.join(os.homedir(), '.cache', 'vigil');
// A first `go install` of the CLI takes minutes; with the binary cached a start takes a few seconds.
jest.setTimeout(fs.existsSync(temporalCliPath(cacheDir)) ? 60_000 : 900_000);

async function withConnection<T>(address: string, fn: (c: Connection) => Promise<T>): Promise<T> {
  const connection = await Connection.connect({ address });
  try {
    return await fn(connection);
  } finally {
    await connection.close();
  }
}

function splitAddress(address: string): { host: string; port: number } {
  const i = address.lastIndexOf(':');
  return { host: address.slice(0, i), port: Number(address.slice(i + 1)) };
}

async function httpStatus(url: string, attempts = 40): Promise<number> {
  for (let i = 0; ; i++) {
    try {
      return (await fetch(url)).status;
    } catch (err) {
      if (i >= attempts) throw err;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

/** Schedule ids listed in `namespace` (from the visibility store), polled until `id` shows up or 10 s pass. */
async function eventuallyListed(address: string, namespace: string, id: string): Promise<string[]> {
  return withConnection(address, async (connection) => {
    const client = new Client({ connection, namespace });
    for (let deadline = Date.now() + 10_000; ;) {
      const ids: string[] = [];
      for await (const schedule of client.schedule.list()) ids.push(schedule.scheduleId);
      if (ids.includes(id) || Date.now() > deadline) return ids;
      await new Promise((r) => setTimeout(r, 200));
    }
  });
}

describe('temporalCliPath', () => {
  it('puts the binary under temporal-cli/v<version>-sqlite<driver version>', () => {
    expect(temporalCliPath('/c')).toBe(
      `/c/temporal-cli/v${TEMPORAL_CLI_VERSION}-sqlite${TEMPORAL_CLI_SQLITE_VERSION}/temporal`,
    );
    expect(TEMPORAL_CLI_VERSION).toMatch(/^\d+\.\d+\.\d+$/);
    expect(TEMPORAL_CLI_SQLITE_VERSION).toMatch(/^\d+\.\d+\.\d+$/);
  });
});

describe('removeAbandonedBuilds', () => {
  it('removes the work folders of builders that died, and keeps a live one', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-builds-'));
    try {
      // A pid that is surely gone: a child that has already exited.
      const dead = spawnSync(process.execPath, ['-e', '0']).pid;
      for (const name of [`.build-${dead}-0a1b2c3d`, `.build-${process.pid}-0a1b2c3d`, 'temporal'])
        fs.mkdirSync(path.join(dir, name));
      fs.writeFileSync(path.join(dir, `.build-${dead}-0a1b2c3d`, 'half-built'), 'x');
      removeAbandonedBuilds(dir);
      expect(fs.readdirSync(dir).sort()).toEqual([`.build-${process.pid}-0a1b2c3d`, 'temporal']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('ensureTemporalCli', () => {
  it('returns the cached binary, building it only when missing', async () => {
    const binary = temporalCliPath(cacheDir);
    const cached = fs.existsSync(binary);
    const lines: string[] = [];
    await expect(ensureTemporalCli(cacheDir, (l) => lines.push(l))).resolves.toBe(binary);
    // Cached: returned without a word. Missing: built here (announced, with its result) or by another process waited for.
    if (cached) expect(lines).toEqual([]);
    else if (lines[0]?.startsWith('waiting for another process'))
      expect(lines).toEqual(['waiting for another process that is building the Temporal CLI']);
    else
      expect([lines[0], lines.at(-1)]).toEqual([
        expect.stringMatching(/^building Temporal CLI v/),
        `Temporal CLI ready at ${binary}`,
      ]);
    // Either way a working CLI is in place, with no build leftovers beside it.
    expect(fs.statSync(binary).mode & 0o111).not.toBe(0);
    expect(fs.readdirSync(path.dirname(binary))).toEqual(['temporal']);
    const version = execFileSync(binary, ['--version'], { encoding: 'utf8', timeout: 30_000 });
    expect(version).toMatch(/^temporal version .*Server \d+\.\d+\.\d+/);
  });

  it('builds once for concurrent callers and installs the binary atomically', async () => {
    // A stand-in `go` first on PATH: the real build takes minutes. It writes the binary slowly, in two parts.
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-go-'));
    const calls = path.join(tmp, 'calls');
    fs.writeFileSync(
      path.join(tmp, 'go'),
      `#!/bin/sh\necho "go $*" >> '${calls}'\necho "go: downloading example v1"\n` +
        `case "$1" in mod) echo 'module m' > go.mod ;; build) printf '#!/bin/sh\\n' > "$3"; sleep 1; printf 'echo fake\\n' >> "$3"; chmod +x "$3" ;; esac\n`,
      { mode: 0o755 },
    );
    const savedPath = process.env.PATH;
    process.env.PATH = `${tmp}${path.delimiter}${savedPath ?? ''}`;
    try {
      const lines: string[] = [];
      const results = await Promise.all(
        [1, 2, 3].map(() => ensureTemporalCli(path.join(tmp, 'cache'), (l) => lines.push(l))),
      );
      const binary = temporalCliPath(path.join(tmp, 'cache'));
      expect(results).toEqual([binary, binary, binary]);
      expect(fs.readFileSync(binary, 'utf8')).toBe('#!/bin/sh\necho fake\n');
      // One build, in a scratch module that pins the newer SQLite driver beside the CLI.
      const ran = fs.readFileSync(calls, 'utf8').trim().split('\n');
      expect(ran).toEqual([
        'go mod init vigil.local/temporal-cli-build',
        `go get github.com/temporalio/cli/cmd/temporal@v${TEMPORAL_CLI_VERSION} modernc.org/sqlite@v${TEMPORAL_CLI_SQLITE_VERSION}`,
        expect.stringMatching(/^go build -o \S+\/\.build-[^/]+\/temporal github\.com\/temporalio\/cli\/cmd\/temporal$/),
      ]);
      expect(lines).toContain('go: downloading example v1');
      expect(fs.readdirSync(path.dirname(binary))).toEqual(['temporal']); // no lock or scratch GOBIN left behind
    } finally {
      process.env.PATH = savedPath;
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});

describe('startTemporalDevServer', () => {
  let tmp: string;
  const running: RunningTemporal[] = [];
  const start = async (opts: Partial<Parameters<typeof startTemporalDevServer>[0]> = {}): Promise<RunningTemporal> => {
    const server = await startTemporalDevServer({ cacheDir, logFile: path.join(tmp, 'temporal.log'), ...opts });
    running.push(server);
    return server;
  };

  beforeAll(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-temporal-'));
  });
  afterAll(async () => {
    await Promise.all(running.map((s) => s.stop()));
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('starts in memory on free ports with the Vigil search attributes, serves the UI, and stops', async () => {
    const server = await start();
    expect(server.binary).toBe(temporalCliPath(cacheDir));
    expect(server.address).toMatch(/^127\.0\.0\.1:\d+$/);

    const attributes = await withConnection(server.address, async (c) => {
      const res = await c.operatorService.listSearchAttributes({ namespace: 'default' });
      return res.customAttributes ?? {};
    });
    for (const name of Object.keys(VIGIL_SEARCH_ATTRIBUTES)) expect(attributes).toHaveProperty(name);
    // Registering again on a server that already has them is a no-op, not an error.
    await registerSearchAttributes(server.address, 'default');
    // A namespace created later lacks them until registerSearchAttributes adds them.
    const extra = await withConnection(server.address, async (c) => {
      await c.workflowService.registerNamespace({
        namespace: 'vigil-extra',
        workflowExecutionRetentionPeriod: msToTs('1 day'),
      });
      await registerSearchAttributes(server.address, 'vigil-extra');
      return (await c.operatorService.listSearchAttributes({ namespace: 'vigil-extra' })).customAttributes ?? {};
    });
    expect(Object.keys(extra).sort()).toEqual(Object.keys(VIGIL_SEARCH_ATTRIBUTES).sort());

    expect(await httpStatus(server.uiUrl)).toBeLessThan(500);

    await server.stop();
    await server.stop(); // idempotent
    const { host, port } = splitAddress(server.address);
    expect(await isPortOpen(host, port)).toBe(false);
  });

  it('keeps its state in dbFile across restarts', async () => {
    const dbFile = path.join(tmp, 'nested', 'temporal.sqlite');
    const scheduleId = 'vigil-infra-test-schedule';
    const namespace = 'vigil-test';

    const first = await start({ dbFile, namespace });
    await withConnection(first.address, async (connection) => {
      const client = new Client({ connection, namespace });
      await client.schedule.create({
        scheduleId,
        spec: { intervals: [{ every: '1h' }] },
        action: { type: 'startWorkflow', workflowType: 'noop', taskQueue: 'vigil-infra-test', args: [] },
        state: { paused: true },
      });
    });
    // Visibility is written asynchronously: wait for it before pulling the plug.
    expect(await eventuallyListed(first.address, namespace, scheduleId)).toEqual([scheduleId]);
    await first.stop();
    expect(fs.existsSync(dbFile)).toBe(true);

    const second = await start({ dbFile, namespace });
    expect(await eventuallyListed(second.address, namespace, scheduleId)).toEqual([scheduleId]);
    await second.stop();
  });

  it('fails with the server output when the server exits, and refuses a port in use', async () => {
    // A directory is not a usable SQLite file: the server logs why and exits.
    await expect(start({ dbFile: tmp, startTimeoutMs: 30_000 })).rejects.toThrow(
      /Temporal dev server at .* exited \(exit code 1\)[\s\S]*Last server output:[\s\S]*SQLite/,
    );

    const server = await start();
    const { port } = splitAddress(server.address);
    await expect(start({ port })).rejects.toThrow(`127.0.0.1:${port} is already in use`);
    await server.stop();
  });
});
