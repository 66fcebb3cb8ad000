import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { onlineLocations } from '../../src/db/repositories/location-repository';
import { type Confirmation, locationTaskQueue } from '../../src/domain/confirmation';
import { bucketOf } from '../../src/domain/metric-buckets';
import { metricBucketScheduleId, temporalMetricScheduler } from '../../src/temporal/metric-schedules';
import { startAgentProcess } from '../support/agent-process';
import { type ApiHarness, type TestOrg, startApi } from '../support/api-harness';
import { eventually } from '../support/eventually';
import { type ProberProcess, proberProcesses } from '../support/prober-process';
import { type TemporalHarness, startTemporalHarness } from '../support/temporal-harness';

/**
 * Check rounds across probe locations, with real processes only: three `vigil-prober`
 * processes, each binding its sockets to its own loopback address (127.0.0.11–13), and a target
 * that answers, resets or never answers depending on the path and on which address asks. The
 * installation's worker has no location of its own, so the three probers are all there is.
 *
 * Each metric runs at an interval no other metric here has, so its bucket holds it alone; its
 * bucket Schedule is paused, and every round below is a bucket run the test starts
 * (cloudMetricBucketWorkflow, as the Schedule starts it): rounds are counted exactly.
 */
type Mode = 'ok' | 'reset' | 'hang' | 'slow';

let h: TemporalHarness;
let api: ApiHarness;
let org: TestOrg;
let serviceId: string;
let target: http.Server;
let origin: string;
const probers = proberProcesses();
const suffix = randomBytes(3).toString('hex');
const ADDRESSES = ['127.0.0.11', '127.0.0.12', '127.0.0.13'] as const;
/** The three locations, in id order, and their probers; location i binds ADDRESSES[i]. */
const LOC = [`la-${suffix}`, `lb-${suffix}`, `lc-${suffix}`] as const;
const prober: ProberProcess[] = [];

/** path → source address → how the target treats it (default: answers). */
const modes = new Map<string, Map<string, Mode>>();
const arrivals: { path: string; from: string }[] = [];
const arrivalWaiters: { path: string; from: string; resolve: () => void }[] = [];
const held = new Set<http.ServerResponse>();

const setModes = (p: string, byLocation: Partial<Record<0 | 1 | 2, Mode>>) => {
  const m = new Map<string, Mode>();
  for (const [i, mode] of Object.entries(byLocation)) m.set(ADDRESSES[Number(i)]!, mode);
  modes.set(p, m);
};
const arrival = (p: string, from: string) =>
  new Promise<void>((resolve) => arrivalWaiters.push({ path: p, from, resolve }));

beforeAll(async () => {
  target = http.createServer((req, res) => {
    const from = req.socket.remoteAddress ?? '';
    const p = req.url ?? '/';
    arrivals.push({ path: p, from });
    for (const w of arrivalWaiters.filter((x) => x.path === p && x.from === from)) {
      arrivalWaiters.splice(arrivalWaiters.indexOf(w), 1);
      w.resolve();
    }
    const mode = modes.get(p)?.get(from) ?? 'ok';
    if (mode === 'reset') return req.socket.resetAndDestroy();
    if (mode === 'hang') {
      held.add(res);
      return;
    }
    const answer = () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    if (mode === 'slow') setTimeout(answer, 1_200);
    else answer();
  });
  await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;

  h = await startTemporalHarness({ location: false });
  api = await startApi({ metricScheduler: temporalMetricScheduler(h.temporal), taskQueue: h.taskQueue });
  org = await api.createOrg('enterprise', 'Probe locations');
  serviceId = (await call('POST', '/v1/services', { name: 'Rounds' })).body.id;
  prober.push(
    ...(await Promise.all(
      LOC.map((location, i) =>
        probers.start({ taskQueue: h.taskQueue, location, label: `Location ${i + 1}`, sourceAddress: ADDRESSES[i] }),
      ),
    )),
  );
  await eventually(
    async () =>
      expect((await onlineLocations(h.orm.em.fork() as never, h.taskQueue, new Date())).map((l) => l.id)).toEqual([
        ...LOC,
      ]),
    30_000,
  );
}, 120_000);

afterAll(async () => {
  for await (const s of h.temporal.client.schedule.list()) {
    if (s.scheduleId.startsWith(`metric-bucket:${h.taskQueue}:`))
      await h.temporal.client.schedule
        .getHandle(s.scheduleId)
        .delete()
        .catch(() => undefined);
  }
  await probers.closeAll();
  for (const res of held) res.destroy();
  target.closeAllConnections();
  await new Promise((r) => target.close(r));
  await api.close();
  await h.close();
});

const call = (method: string, p: string, body?: unknown) => api.request(method, p, { key: org.key, body });
const THRESHOLDS = {
  healthy_operation: 'under',
  healthy_value: 1000,
  unhealthy_operation: 'over',
  unhealthy_value: 5000,
};

interface Created {
  id: string;
  path: string;
  interval: number;
}

let nextInterval = 3_601;
/** A cloud http metric alone in its bucket (Schedule paused), after its first check (a round of the coalesced first checks the creation signals) stored its sample. */
async function createMetric(
  name: string,
  confirmation: Partial<Confirmation>,
  extra: Record<string, unknown> = {},
): Promise<Created> {
  const interval = nextInterval++;
  const p = `/${name}`;
  const res = await call('POST', '/v1/metrics', {
    service_id: serviceId,
    name,
    source_type: 'http',
    source_config: { url: `${origin}${p}` },
    thresholds: THRESHOLDS,
    interval_seconds: interval,
    confirmation: { quorum: 'majority', failures: 2, recoveries: 2, recheck: false, ...confirmation },
    ...extra,
  });
  expect([res.status, res.text]).toEqual([201, expect.any(String)]);
  const id = res.body.id as string;
  await h.temporal.client.schedule
    .getHandle(metricBucketScheduleId({ id, intervalSeconds: interval }, h.taskQueue))
    .pause('test: rounds are started by hand');
  const samples = async () =>
    (
      await h.orm.em
        .fork()
        .getConnection()
        .execute<{ n: number }[]>('select count(*)::int as n from metric_samples where metric_id = ?', [id])
    )[0]!.n;
  await eventually(async () => expect(await samples()).toBe(1), 30_000);
  return { id, path: p, interval };
}

interface RoundResult {
  metrics: number;
  stored: number;
  roundStart: string;
  locations: { asked: string[]; answered: string[] };
  unanswered: number;
  failing: number;
  rechecked: number;
}

let rounds = 0;
const roundHandle = async (m: Created) => {
  const b = bucketOf(m.id, m.interval);
  return h.temporal.client.workflow.start('cloudMetricBucketWorkflow', {
    taskQueue: h.taskQueue,
    workflowId: `round-${m.id}-${++rounds}`,
    args: [{ intervalSeconds: b.intervalSeconds, slot: b.slot }],
  });
};
/** One round of the metric's bucket (the metric alone in it). */
const round = async (m: Created): Promise<RoundResult> => (await roundHandle(m)).result() as Promise<RoundResult>;

const metric = async (m: Created) => (await call('GET', `/v1/metrics/${m.id}`)).body;
const flips = async (m: Created) => (await call('GET', `/v1/metrics/${m.id}/flips?limit=100`)).body.items as any[];

describe('check rounds across probe locations', () => {
  it('asks every online location once per round; one location failing under a majority quorum fails no round', async () => {
    const m = await createMetric('one-fails', { failures: 1, recoveries: 1 });
    const before = (await flips(m)).length;
    setModes(m.path, { 0: 'reset' });
    for (let i = 0; i < 2; i++) {
      const r = await round(m);
      expect(r).toMatchObject({
        metrics: 1,
        stored: 1,
        failing: 0,
        unanswered: 0,
        rechecked: 0,
        locations: { asked: [...LOC], answered: [...LOC] },
      });
    }
    const view = await metric(m);
    expect(view).toMatchObject({ status: 'healthy', confirmation_pending: null });
    // The failing location's own reading is there, labelled with it.
    expect(view.location_readings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          location: LOC[0],
          status: 'no_data',
          reason: 'ECONNRESET',
          reason_class: 'target',
          offline: false,
        }),
        expect.objectContaining({ location: LOC[1], status: 'healthy', offline: false }),
      ]),
    );
    expect((await flips(m)).length).toBe(before);
    // Each location was asked from its own address.
    const from = new Set(arrivals.filter((a) => a.path === m.path).map((a) => a.from));
    expect([...from].sort()).toEqual([...ADDRESSES]);
  }, 60_000);

  it('flips after exactly `failures` rounds that two locations fail, dated at the first, with every vote; recovers after `recoveries` good rounds', async () => {
    const m = await createMetric('two-fail', { failures: 2, recoveries: 2 });
    const before = (await flips(m)).length;
    // One location's connection is reset, another's request is never answered (its check times out).
    setModes(m.path, { 0: 'reset', 1: 'hang' });
    const r1 = await round(m);
    expect(r1).toMatchObject({ stored: 1, failing: 1, locations: { answered: [...LOC] } });
    expect(await metric(m)).toMatchObject({
      status: 'healthy',
      confirmation_pending: {
        to_status: 'no_data',
        reason_class: 'target',
        rounds: 1,
        needed: 2,
        summary: 'failing 1 of 2',
      },
    });
    expect((await flips(m)).length).toBe(before);

    const handle = await roundHandle(m);
    const r2 = (await handle.result()) as RoundResult;
    expect(r2).toMatchObject({ stored: 1, failing: 1 });
    const view = await metric(m);
    expect(view).toMatchObject({
      status: 'no_data',
      reason: 'ECONNRESET',
      reason_class: 'target',
      confirmation_pending: null,
    });
    const all = await flips(m);
    expect(all.length).toBe(before + 1);
    const flip = all[0];
    expect(flip).toMatchObject({
      from_status: 'healthy',
      to_status: 'no_data',
      reason: 'ECONNRESET',
      reason_class: 'target',
      at: r1.roundStart,
      confirmed_at: r2.roundStart,
      confirmations: 2,
    });
    expect(flip.rounds.map((x: { at: string }) => x.at)).toEqual([r1.roundStart, r2.roundStart]);
    for (const rd of flip.rounds) {
      expect(rd.votes.map((v: { location: string }) => v.location)).toEqual([...LOC]);
      expect(rd.votes[0]).toMatchObject({ location: LOC[0], value: null, reason: 'ECONNRESET', status: 'no_data' });
      expect(rd.votes[1]).toMatchObject({ location: LOC[1], value: null, reason: 'ETIMEDOUT', status: 'no_data' });
      expect(rd.votes[2]).toMatchObject({
        location: LOC[2],
        value: expect.any(Number),
        reason: null,
        status: 'healthy',
      });
    }

    // The run's history names each location's activity, on the location's task queue.
    const scheduled = (await handle.fetchHistory())
      .events!.filter((e) => e.activityTaskScheduledEventAttributes)
      .map((e) => e.activityTaskScheduledEventAttributes!);
    expect(scheduled.map((a) => [a.activityId, a.activityType?.name, a.taskQueue?.name]).sort()).toEqual(
      LOC.map((l) => [`probe:${l}`, 'probeChecks', locationTaskQueue(l)]),
    );

    // Back: the first good round starts the recovery, the second confirms it.
    setModes(m.path, {});
    const r3 = await round(m);
    expect(r3).toMatchObject({ stored: 1, failing: 0 });
    expect(await metric(m)).toMatchObject({
      status: 'no_data',
      confirmation_pending: { to_status: 'healthy', rounds: 1, needed: 2, summary: 'recovering 1 of 2' },
    });
    const r4 = await round(m);
    expect(r4).toMatchObject({ stored: 1, failing: 0 });
    expect(await metric(m)).toMatchObject({ status: 'healthy', confirmation_pending: null });
    const back = await flips(m);
    expect(back.length).toBe(before + 2);
    expect(back[0]).toMatchObject({
      from_status: 'no_data',
      to_status: 'healthy',
      at: r3.roundStart,
      confirmed_at: r4.roundStart,
      confirmations: 2,
    });
  }, 90_000);

  it('never flips a metric whose failing rounds alternate with good ones under failures 3', async () => {
    const m = await createMetric('flapping', { failures: 3, recoveries: 1 });
    const before = (await flips(m)).length;
    for (let i = 0; i < 6; i++) {
      // Two of three locations fail every other round; a slow answer (degraded) fails as well.
      setModes(m.path, i % 2 === 0 ? { 0: 'reset', 2: 'slow' } : {});
      expect(await round(m)).toMatchObject({ stored: 1, failing: i % 2 === 0 ? 1 : 0 });
      expect((await metric(m)).status).toBe('healthy');
    }
    expect((await flips(m)).length).toBe(before);
  }, 60_000);

  it('with recheck, checks a failing vote again from the next location in the same round: a blip at one location fails nothing', async () => {
    // quorum any: one failing vote would fail the round, and failures 1 would flip it at once.
    const rechecked = await createMetric('recheck-on', { quorum: 'any', failures: 1, recoveries: 1, recheck: true });
    const plain = await createMetric('recheck-off', { quorum: 'any', failures: 1, recoveries: 1, recheck: false });
    setModes(rechecked.path, { 0: 'reset' });
    setModes(plain.path, { 0: 'reset' });

    const handle = await roundHandle(rechecked);
    expect(await handle.result()).toMatchObject({ stored: 1, failing: 0, rechecked: 1 });
    expect(await metric(rechecked)).toMatchObject({ status: 'healthy' });
    const fromB = arrivals.filter((a) => a.path === rechecked.path && a.from === ADDRESSES[1]).length;
    expect(fromB).toBe(3); // its first check, this round, and the recheck
    const scheduledEvents = (await handle.fetchHistory())
      .events!.filter((e) => e.activityTaskScheduledEventAttributes)
      .map((e) => e.activityTaskScheduledEventAttributes!);
    expect(scheduledEvents.map((a) => a.activityId).sort()).toEqual(
      [...LOC.map((l) => `probe:${l}`), `recheck:${LOC[1]}`].sort(),
    );
    // A batch carries its checks' ids and sources only ('compact-rounds'): no thresholds or settings in history.
    for (const a of scheduledEvents) {
      const input = JSON.parse(Buffer.from(a.input!.payloads![0]!.data!).toString());
      expect(Object.keys(input).sort()).toEqual(['ids', 'sources']);
      expect(input.sources.length).toBe(input.ids.length);
    }
    if (process.env.VIGIL_RECORD_HISTORIES) {
      writeFileSync(
        path.join(__dirname, '..', 'replay-histories', 'metric-bucket-v3.json'),
        historyToJSON(await handle.fetchHistory()),
      );
    }

    // Without recheck the same blip is a failing round, and flips.
    expect(await round(plain)).toMatchObject({ stored: 1, failing: 1, rechecked: 0 });
    expect(await metric(plain)).toMatchObject({ status: 'no_data', reason: 'ECONNRESET' });

    // A failure every location sees is confirmed by its recheck, and counts.
    setModes(rechecked.path, { 0: 'reset', 1: 'reset', 2: 'reset' });
    expect(await round(rechecked)).toMatchObject({ stored: 1, failing: 1, rechecked: 3 });
    const flip = (await flips(rechecked))[0];
    expect(flip).toMatchObject({ to_status: 'no_data', confirmations: 1 });
    expect(flip.rounds[0].votes[0]).toMatchObject({
      location: LOC[0],
      reason: 'ECONNRESET',
      recheck: { location: LOC[1], value: null, reason: 'ECONNRESET', status: 'no_data' },
    });
  }, 60_000);

  it('leaves out agents and locations a metric does not name', async () => {
    const agent = await call('POST', '/v1/agents', { name: `edge-${suffix}` });
    expect(agent.status).toBe(201);
    const m = await createMetric(
      'named',
      { failures: 1, recoveries: 1 },
      { locations: [LOC[2], `agent:${agent.body.id}`, LOC[0]] },
    );
    expect(await round(m)).toMatchObject({
      stored: 1,
      locations: { asked: [LOC[0], LOC[2]], answered: [LOC[0], LOC[2]] },
    });
    expect(arrivals.filter((a) => a.path === m.path && a.from === ADDRESSES[1])).toEqual([]);
  }, 60_000);

  it('lets an agent vote next to two cloud locations: its latest answer counts in the round, labelled with the agent', async () => {
    const reg = await call('POST', '/v1/agents', { name: `voter-${suffix}` });
    expect(reg.status).toBe(201);
    const agentLocation = `agent:${reg.body.id}`;
    // The agent reaches the target from 127.0.0.1 and is refused, so is the first cloud location; the second answers.
    const p = '/agent-votes';
    modes.set(
      p,
      new Map<string, Mode>([
        ['127.0.0.1', 'reset'],
        [ADDRESSES[0], 'reset'],
      ]),
    );
    // Before the agent answered, its vote is absent: 1 of 2 failing is no majority.
    const m = await createMetric(
      'agent-votes',
      { failures: 1, recoveries: 1 },
      { locations: [LOC[0], LOC[1], agentLocation] },
    );
    expect(m.path).toBe(p);
    expect((await metric(m)).status).toBe('healthy');
    const agent = await startAgentProcess(api.baseUrl, reg.body.token);
    try {
      await eventually(
        async () =>
          expect((await metric(m)).location_readings).toEqual(
            expect.arrayContaining([
              expect.objectContaining({ location: agentLocation, reason: 'ECONNRESET', offline: false }),
            ]),
          ),
        30_000,
      );
      // Now 2 of 3 fail: the round fails, and failures 1 flips it.
      expect(await round(m)).toMatchObject({
        stored: 1,
        failing: 1,
        locations: { asked: [LOC[0], LOC[1]], answered: [LOC[0], LOC[1]] },
      });
      expect(await metric(m)).toMatchObject({ status: 'no_data', reason: 'ECONNRESET' });
      const flip = (await flips(m))[0];
      expect(
        flip.rounds[0].votes.map((v: { location: string; reason: string | null }) => [v.location, v.reason]),
      ).toEqual([
        [agentLocation, 'ECONNRESET'],
        [LOC[0], 'ECONNRESET'],
        [LOC[1], null],
      ]);
    } finally {
      await agent.stop();
    }
  }, 60_000);

  it('a prober killed (SIGKILL) in the middle of a round: its vote is absent, the others decide, nothing flips; back after a restart', async () => {
    const m = await createMetric('killed', { failures: 1, recoveries: 1 });
    const before = (await flips(m)).length;
    // The third location's request is held; once it arrives, its prober dies holding the batch.
    setModes(m.path, { 2: 'hang' });
    const arrived = arrival(m.path, ADDRESSES[2]);
    const running = round(m);
    await arrived;
    await prober[2]!.kill();
    // Its batch is lost with it: the round waits out the batch's timeout, then records the others.
    const r = await running;
    expect(r).toMatchObject({
      stored: 1,
      failing: 0,
      unanswered: 0,
      locations: { asked: [...LOC], answered: [LOC[0], LOC[1]] },
    });
    const view = await metric(m);
    expect(view.status).toBe('healthy');
    expect((await flips(m)).length).toBe(before);
    // The killed location's latest reading is still its one from before the round.
    const readings = (
      await h.orm.em
        .fork()
        .getConnection()
        .execute<{ lr: Record<string, { at: string }> }[]>('select location_readings as lr from metrics where id = ?', [
          m.id,
        ])
    )[0]!.lr;
    expect(Date.parse(readings[LOC[2]]!.at)).toBeLessThan(Date.parse(r.roundStart));
    expect(Date.parse(readings[LOC[0]]!.at)).toBeGreaterThanOrEqual(Date.parse(r.roundStart));
    // Offline now: the next round does not ask it.
    await eventually(
      async () =>
        expect((await onlineLocations(h.orm.em.fork() as never, h.taskQueue, new Date())).map((l) => l.id)).toEqual([
          LOC[0],
          LOC[1],
        ]),
      15_000,
    );
    expect(await round(m)).toMatchObject({
      stored: 1,
      locations: { asked: [LOC[0], LOC[1]], answered: [LOC[0], LOC[1]] },
    });

    setModes(m.path, {});
    await prober[2]!.restart();
    await eventually(
      async () =>
        expect((await onlineLocations(h.orm.em.fork() as never, h.taskQueue, new Date())).map((l) => l.id)).toEqual([
          ...LOC,
        ]),
      15_000,
    );
    expect(await round(m)).toMatchObject({ stored: 1, failing: 0, locations: { asked: [...LOC], answered: [...LOC] } });
  }, 90_000);
});
