import { spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { DefaultLogger, bundleWorkflowCode } from '@temporalio/worker';
import type { ProbeChecksOutput } from '../../src/activities/probe-location';
import { type WorkerHandle, startWorker } from '../../src/composition/worker';
import { rawRun } from '../../src/db/raw-sql';
import { locationTaskQueue } from '../../src/domain/confirmation';
import { PROBER_VERSION, locationWorkflowId } from '../../src/domain/locations';
import { type ApiHarness, startApi } from '../support/api-harness';
import { testTemporalAddress } from '../support/env';
import { eventually } from '../support/eventually';
import { type OrgFixture, orgWithKeys } from '../support/org-fixture';
import { type ProberProcess, proberProcesses } from '../support/prober-process';
import { type TemporalHarness, startTemporalHarness } from '../support/temporal-harness';

/**
 * Issue 25, locations: real `vigil-prober` processes (the bin, Temporal only) register by heartbeat
 * and show in GET /v1/locations; a SIGKILL makes one offline within 3 heartbeats, a restart brings
 * it back, a SIGTERM takes it offline at once; a prober binds its probes to its source address;
 * the list shows an organization its own agents only.
 */
const hex = () => randomBytes(4).toString('hex');
let h: TemporalHarness;
let api: ApiHarness;
let orgA: OrgFixture<'sla' | 'writer', 'Checkout'>;
let orgB: OrgFixture;
const probers = proberProcesses();
let eu: ProberProcess;
const euId = `eu-${hex()}`;
const slowId = `slow-${hex()}`;

beforeAll(async () => {
  h = await startTemporalHarness();
  api = await startApi({ taskQueue: h.taskQueue });
  orgA = await orgWithKeys(api, {
    plan: 'enterprise',
    services: ['Checkout'],
    keys: { sla: ['read:sla'], writer: ['write:config', 'write:metrics', 'write:incidents', 'write:sla'] },
  });
  orgB = await orgWithKeys(api, { plan: 'enterprise' });
  eu = await probers.start({ taskQueue: h.taskQueue, location: euId, label: 'Frankfurt', heartbeatSeconds: 1 });
}, 120_000);
afterAll(async () => {
  await probers.closeAll();
  await api?.close();
  await h?.close();
});

interface LocationItem {
  id: string;
  label: string;
  kind: 'cloud' | 'agent';
  status: 'online' | 'offline';
  last_seen_at: string | null;
  version: string | null;
  metrics: number;
}

/** Every page of GET /v1/locations for `org`, walked with `limit`. */
async function locations(org: OrgFixture, limit = 50): Promise<LocationItem[]> {
  const all: LocationItem[] = [];
  let cursor: string | null = null;
  do {
    const res: { status: number; body: { items: LocationItem[]; next_cursor: string | null } } = await org.call(
      'GET',
      `/v1/locations?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    expect(res.status).toBe(200);
    all.push(...res.body.items);
    cursor = res.body.next_cursor;
  } while (cursor);
  return all;
}
const location = async (org: OrgFixture, id: string) => (await locations(org)).find((l) => l.id === id);
const statusOf = async (id: string) => (await location(orgA, id))?.status;

describe('prober registration (GET /v1/locations)', () => {
  it('lists a running prober as an online cloud location with its label and version, and the worker’s built-in location', async () => {
    const listed = await eventually(async () => {
      const l = await location(orgA, euId);
      expect(l?.status).toBe('online');
      return l!;
    }, 10_000);
    expect(listed).toMatchObject({
      id: euId,
      label: 'Frankfurt',
      kind: 'cloud',
      status: 'online',
      version: PROBER_VERSION,
    });
    expect(Date.now() - Date.parse(listed.last_seen_at!)).toBeLessThan(5_000);
    // The harness's worker runs its own location (`local-<8 hex>`, unique to this harness).
    expect(h.location).toMatch(/^local-[0-9a-f]{8}$/);
    expect(await location(orgA, h.location!)).toMatchObject({
      label: 'Test harness',
      kind: 'cloud',
      status: 'online',
      version: PROBER_VERSION,
    });
    // One location workflow per location and installation, on the main task queue, running.
    const d = await h.temporal.client.workflow.getHandle(locationWorkflowId(h.taskQueue, euId)).describe();
    expect(d.status.name).toBe('RUNNING');
    expect(d.taskQueue).toBe(h.taskQueue);
    // The prober was started without DATABASE_URL: it reached nothing but Temporal.
    expect(eu.output()).toContain('prober running');
  }, 30_000);

  it('marks a SIGKILLed prober offline within 3 heartbeats, and online again once restarted', async () => {
    await eventually(async () => expect(await statusOf(euId)).toBe('online'), 10_000);
    const killedAt = Date.now();
    await eu.kill();
    // Poll until offline, noting when the last request that still read `online` was sent (the
    // API judged it after that moment, so a slow answer on a loaded machine cannot inflate it).
    let lastOnlineSentAt = killedAt;
    await eventually(
      async () => {
        const sentAt = Date.now();
        const status = await statusOf(euId);
        if (status === 'online') lastOnlineSentAt = sentAt;
        expect(status).toBe('offline');
      },
      10_000,
      100,
    );
    // Heartbeat 1 s: its last heartbeat was sent before the kill, so it is offline 3 heartbeats after the kill at most.
    expect(lastOnlineSentAt - killedAt).toBeLessThan(3 * 1_000 + 250);
    await eu.restart();
    await eventually(async () => expect(await statusOf(euId)).toBe('online'), 5_000);
  }, 60_000);

  it('takes a prober stopped with SIGTERM offline at once, not 3 heartbeats later', async () => {
    const slow = await probers.start({ taskQueue: h.taskQueue, location: slowId, heartbeatSeconds: 30 });
    await eventually(async () => expect(await statusOf(slowId)).toBe('online'), 10_000);
    const stoppedAt = Date.now();
    await slow.stop();
    // 3 missed heartbeats would take 90 s; its last heartbeat said it was stopping. (25 s: a CI
    // machine running the fault suites beside this one has been seen taking 5–8 s per workflow
    // task, and a run saw 15 s pass.)
    const stopTook = Date.now() - stoppedAt;
    await eventually(
      async () => {
        const status = await statusOf(slowId);
        if (status !== 'offline')
          throw new Error(
            `still ${status} ${Date.now() - stoppedAt} ms after SIGTERM (the stop took ${stopTook} ms); the prober printed:\n${slow.output().slice(-3_000)}`,
          );
      },
      25_000,
      100,
    );
    expect(Date.now() - stoppedAt).toBeLessThan(25_000);
    expect(slow.child().exitCode).toBe(0);
    const listed = await location(orgA, slowId);
    expect(listed).toMatchObject({ label: slowId, status: 'offline' });
    // The location workflow ends with the stopping heartbeat (its next start begins a new run).
    const handle = h.temporal.client.workflow.getHandle(locationWorkflowId(h.taskQueue, slowId));
    await handle.result();
    // VIGIL_RECORD_HISTORIES=1 rewrites the replay test's history of this workflow.
    if (process.env.VIGIL_RECORD_HISTORIES)
      writeFileSync(
        path.join(__dirname, '..', 'replay-histories', 'location-v1.json'),
        historyToJSON(await handle.fetchHistory()),
      );
  }, 120_000);

  it('refuses to start without TEMPORAL_ADDRESS or with a malformed VIGIL_LOCATION', () => {
    const bin = path.join(__dirname, '..', '..', 'bin', 'vigil-prober.js');
    const run = (env: Record<string, string>) =>
      spawnSync(process.execPath, [bin], {
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
        encoding: 'utf8',
        timeout: 30_000,
      });
    const noTemporal = run({ VIGIL_LOCATION: 'eu-central' });
    expect(noTemporal.status).toBe(1);
    expect(noTemporal.stderr).toMatch(/TEMPORAL_ADDRESS is required/);
    const badId = run({ TEMPORAL_ADDRESS: testTemporalAddress(), VIGIL_LOCATION: 'EU Central' });
    expect(badId.status).toBe(1);
    expect(badId.stderr).toMatch(/VIGIL_LOCATION/);
  }, 60_000);
});

describe('probeChecks from a location bound to its source address', () => {
  let worker: WorkerHandle;
  let workflowQueue: string;
  const boundId = `ap-${hex()}`;
  let httpTarget: http.Server;
  let tcpTarget: net.Server;
  const httpPeers: string[] = [];
  const tcpPeers: string[] = [];

  beforeAll(async () => {
    await probers.start({
      taskQueue: h.taskQueue,
      location: boundId,
      sourceAddress: '127.0.0.12',
      heartbeatSeconds: 1,
    });
    httpTarget = http.createServer((req, res) => {
      httpPeers.push(req.socket.remoteAddress ?? '');
      res.writeHead(200).end('ok');
    });
    await new Promise<void>((r) => httpTarget.listen(0, '127.0.0.1', r));
    tcpTarget = net.createServer((s) => {
      tcpPeers.push(s.remoteAddress ?? '');
      s.destroy();
    });
    await new Promise<void>((r) => tcpTarget.listen(0, '127.0.0.1', r));
    // A test-only workflow that calls probeChecks on a location's task queue, on a worker of its own.
    const { code } = await bundleWorkflowCode({
      workflowsPath: require.resolve('../support/workflows/probe-location-workflow'),
      logger: new DefaultLogger('WARN'),
    });
    const bundlePath = path.join(mkdtempSync(path.join(os.tmpdir(), 'vigil-probe-location-')), 'workflow-bundle.js');
    writeFileSync(bundlePath, code);
    workflowQueue = `probe-at-${randomUUID()}`;
    worker = await startWorker({
      address: testTemporalAddress(),
      namespace: 'default',
      taskQueue: workflowQueue,
      deps: { orm: h.orm },
      workflowBundlePath: bundlePath,
    });
  }, 120_000);
  afterAll(async () => {
    await worker?.shutdown();
    httpTarget?.closeAllConnections();
    await new Promise((r) => httpTarget?.close(r));
    await new Promise((r) => tcpTarget?.close(r));
  });

  const probeAt = (
    locationId: string,
    checks: { metricId: string; sourceType: string; sourceConfig: Record<string, unknown> }[],
  ) =>
    h.temporal.client.workflow.execute('probeAtLocation', {
      taskQueue: workflowQueue,
      workflowId: `probe-at-${randomUUID()}`,
      args: [locationTaskQueue(locationId), { checks }],
    }) as Promise<ProbeChecksOutput>;

  it('reaches a loopback target from 127.0.0.12 (http and tcp), while a prober without a source address comes from 127.0.0.1', async () => {
    const httpPort = (httpTarget.address() as AddressInfo).port;
    const tcpPort = (tcpTarget.address() as AddressInfo).port;
    const checks = [
      { metricId: randomUUID(), sourceType: 'http', sourceConfig: { url: `http://127.0.0.1:${httpPort}/health` } },
      { metricId: randomUUID(), sourceType: 'tcp', sourceConfig: { host: '127.0.0.1', port: tcpPort } },
    ];
    const before = Date.now();
    const out = await probeAt(boundId, checks);
    expect(out.location).toBe(boundId);
    expect(out.results.map((r) => r.metricId)).toEqual(checks.map((c) => c.metricId));
    for (const r of out.results) {
      expect(r).toMatchObject({ reason: null, value: expect.any(Number) });
      expect(Date.parse(r.at)).toBeGreaterThanOrEqual(before - 1_000);
    }
    expect(httpPeers).toEqual(['127.0.0.12']);
    expect(tcpPeers).toEqual(['127.0.0.12']);

    // The same checks from the unbound prober: the system's choice of source.
    await eventually(async () => expect(await statusOf(euId)).toBe('online'), 30_000);
    const plain = await probeAt(euId, checks);
    expect(plain.location).toBe(euId);
    expect(plain.results.every((r) => r.reason === null)).toBe(true);
    expect(httpPeers).toEqual(['127.0.0.12', '127.0.0.1']);
    expect(tcpPeers).toEqual(['127.0.0.12', '127.0.0.1']);
  }, 60_000);

  it('answers a failed check with its reason (one result per check, the activity never fails)', async () => {
    const closed = net.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const out = await probeAt(boundId, [
      { metricId: randomUUID(), sourceType: 'tcp', sourceConfig: { host: '127.0.0.1', port } },
      {
        metricId: randomUUID(),
        sourceType: 'database',
        sourceConfig: { engine: 'postgresql', connection_string_ref: 'DSN', query: 'select 1' },
      },
    ]);
    expect(out.results.map((r) => [r.value, r.reason])).toEqual([
      [null, 'ECONNREFUSED'],
      [null, 'source_not_allowed_in_prober'],
    ]);
  }, 60_000);
});

describe('GET /v1/locations for an organization', () => {
  let agentId: string;

  beforeAll(async () => {
    await eventually(async () => expect(await statusOf(euId)).toBe('online'), 30_000);
    const agent = await orgA.call('POST', '/v1/agents', { name: 'Rack 7' });
    expect(agent.status).toBe(201);
    agentId = agent.body.id;
    const thresholds = {
      healthy_operation: 'under',
      healthy_value: 500,
      unhealthy_operation: 'over',
      unhealthy_value: 2000,
    };
    const create = async (body: Record<string, unknown>) => {
      const res = await orgA.call('POST', '/v1/metrics', { service_id: orgA.services.Checkout, thresholds, ...body });
      expect([res.status, res.text]).toEqual([201, expect.any(String)]);
      return res.body.id as string;
    };
    await create({ name: 'Home page', source_type: 'http', source_config: { url: 'https://example.com/' } });
    await create({
      name: 'Database port',
      source_type: 'tcp',
      source_config: { host: 'db.internal', port: 5432 },
      agent_id: agentId,
    });
    const pinned = await create({
      name: 'Pinned to Frankfurt',
      source_type: 'http',
      source_config: { url: 'https://example.org/' },
    });
    await rawRun(api.orm.em.fork() as never, `update metrics set locations = ?::text[] where id = ?`, [
      `{${euId}}`,
      pinned,
    ]);
  }, 60_000);

  it("shows the organization's agents as locations, never another organization's", async () => {
    const a = await locations(orgA);
    expect(a.find((l) => l.id === `agent:${agentId}`)).toEqual({
      id: `agent:${agentId}`,
      label: 'Rack 7',
      kind: 'agent',
      status: 'offline',
      last_seen_at: null,
      version: null,
      metrics: 1,
    });
    const b = await locations(orgB);
    expect(b.some((l) => l.kind === 'agent')).toBe(false);
    expect(b.map((l) => l.id)).not.toContain(`agent:${agentId}`);
    // Cloud locations belong to the installation: both organizations see them.
    expect(b.map((l) => l.id)).toEqual(expect.arrayContaining([euId, h.location]));
  }, 30_000);

  it('counts the metrics each location measures: those naming it, and the cloud default on every online cloud location', async () => {
    const a = await locations(orgA);
    const byId = new Map(a.map((l) => [l.id, l]));
    // "Home page" (default: every online cloud location) + "Pinned to Frankfurt".
    expect(byId.get(euId)?.metrics).toBe(2);
    // "Home page" only.
    expect(byId.get(h.location!)?.metrics).toBe(1);
    // An offline location (stopped above) measures no default metric.
    expect(byId.get(slowId)).toMatchObject({ status: 'offline', metrics: 0 });
    // Organization B has no metrics.
    expect((await locations(orgB)).every((l) => l.metrics === 0)).toBe(true);
  }, 30_000);

  it('pages by id with an opaque cursor, and refuses a cursor it did not issue', async () => {
    const all = await locations(orgA);
    const paged = await locations(orgA, 1);
    expect(paged.map((l) => l.id)).toEqual(all.map((l) => l.id));
    expect(new Set(paged.map((l) => l.id)).size).toBe(paged.length);
    expect(paged.length).toBeGreaterThanOrEqual(3);
    const bad = await orgA.call('GET', '/v1/locations?cursor=not-a-cursor');
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ title: 'validation_failed', errors: [{ path: 'query.cursor' }] });
  }, 30_000);

  it('answers any read scope, and 403 to a key with write scopes only', async () => {
    const withSla = await orgA.keys.sla.call('GET', '/v1/locations');
    expect(withSla.status).toBe(200);
    expect(withSla.body.items.map((l: LocationItem) => l.id)).toContain(`agent:${agentId}`);
    const writer = await orgA.keys.writer.call('GET', '/v1/locations');
    expect(writer.status).toBe(403);
    expect(writer.body.title).toBe('forbidden');
    expect(writer.body.detail).toMatch(/read:metrics/);
    expect((await api.request('GET', '/v1/locations')).status).toBe(401);
  }, 30_000);
});
