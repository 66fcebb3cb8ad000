import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type MetricBucket, bucketOf, bucketOffsetSeconds } from '../../src/domain/metric-buckets';
import { metricBucketScheduleId, metricScheduleId, temporalMetricScheduler } from '../../src/temporal/metric-schedules';
import { type ApiHarness, type TestOrg, startApi } from '../support/api-harness';
import { eventually } from '../support/eventually';
import { useOwnDatabase } from '../support/own-database';
import { type TemporalHarness, startTemporalHarness } from '../support/temporal-harness';

/**
 * Cloud metrics in buckets (src/domain/metric-buckets.ts): one Schedule per interval and phase
 * slot, each run checking the bucket's metrics as a batch. A bucket run reads every cloud metric
 * of its interval and slot, so the file runs on a database of its own (other files make daily
 * metrics too). The metrics here run once a day (a daily tick is hours away), and the bucket
 * Schedules are paused as they appear: every run below is started by the test.
 */
const DAY = 86_400;
let h: TemporalHarness;
let api: ApiHarness;
let org: TestOrg;
let serviceId: string;
let target: http.Server;
let origin: string;
const hits = new Map<string, number>();
let ownDatabase: Awaited<ReturnType<typeof useOwnDatabase>> | undefined;

beforeAll(async () => {
  ownDatabase = await useOwnDatabase();
  h = await startTemporalHarness({});
  api = await startApi({ metricScheduler: temporalMetricScheduler(h.temporal) });
  org = await api.createOrg('enterprise', 'Metric buckets');
  serviceId = (await call('POST', '/v1/services', { name: 'Buckets' })).body.id;
  target = http.createServer((req, res) => {
    hits.set(req.url!, (hits.get(req.url!) ?? 0) + 1);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
}, 180_000);
afterAll(async () => {
  // The Temporal server outlives this file: its bucket Schedules go now.
  for await (const s of h.temporal.client.schedule.list()) {
    if (s.scheduleId.startsWith(`metric-bucket:${h.taskQueue}:`))
      await h.temporal.client.schedule
        .getHandle(s.scheduleId)
        .delete()
        .catch(() => undefined);
  }
  target.closeAllConnections();
  await new Promise((r) => target.close(r));
  await api.close();
  await h.close();
  await ownDatabase?.restore();
});

const call = (method: string, path: string, body?: unknown) => api.request(method, path, { key: org.key, body });
const THRESHOLDS = {
  healthy_operation: 'under',
  healthy_value: 1000,
  unhealthy_operation: 'over',
  unhealthy_value: 5000,
};
const schedule = (id: string, intervalSeconds: number) =>
  h.temporal.client.schedule.getHandle(metricBucketScheduleId({ id, intervalSeconds }, h.taskQueue));
const runBucket = (b: MetricBucket): Promise<{ metrics: number; stored: number; retired?: boolean }> =>
  h.temporal.client.workflow.execute('cloudMetricBucketWorkflow', {
    taskQueue: h.taskQueue,
    workflowId: `bucket-test-${randomUUID()}`,
    args: [{ intervalSeconds: b.intervalSeconds, slot: b.slot }],
  });
const samplesOf = async (id: string): Promise<number> => {
  const rows = await h.orm.em
    .fork()
    .getConnection()
    .execute<{ n: number }[]>('select count(*)::int as n from metric_samples where metric_id = ?', [id]);
  return rows[0]!.n;
};

/**
 * Cloud http metrics once a day (created 8 at a time, so their first checks share rounds); each
 * bucket Schedule is paused at once, and each first check (run at creation) has stored its sample.
 */
async function createMetrics(names: string[], intervalSeconds = DAY): Promise<string[]> {
  const ids: string[] = new Array(names.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(8, names.length) }, async () => {
      for (let i = next++; i < names.length; i = next++) {
        const res = await call('POST', '/v1/metrics', {
          service_id: serviceId,
          name: names[i],
          source_type: 'http',
          source_config: { url: `${origin}/${names[i]}` },
          thresholds: THRESHOLDS,
          interval_seconds: intervalSeconds,
        });
        expect(res.status).toBe(201);
        await schedule(res.body.id, intervalSeconds).pause('test: runs are started by hand');
        ids[i] = res.body.id;
      }
    }),
  );
  for (const id of ids) await eventually(async () => expect(await samplesOf(id)).toBe(1), 30_000);
  return ids;
}

/** Metric ids by bucket slot. */
function bySlot(ids: string[], intervalSeconds: number): Map<number, string[]> {
  const out = new Map<number, string[]>();
  for (const id of ids) {
    const { slot } = bucketOf(id, intervalSeconds);
    out.set(slot, [...(out.get(slot) ?? []), id]);
  }
  return out;
}

describe('cloud metrics run in interval buckets', () => {
  const ids: string[] = [];

  it('gives each cloud metric the Schedule of its bucket; a bucket run probes each of its metrics once and stores one sample each', async () => {
    // 40 metrics in 30 slots: some slot holds more than one.
    ids.push(...(await createMetrics(Array.from({ length: 40 }, (_, i) => `m${i}`))));
    for (const id of ids) {
      const d = await schedule(id, DAY).describe();
      expect(d.action).toMatchObject({
        type: 'startWorkflow',
        workflowType: 'cloudMetricBucketWorkflow',
        taskQueue: h.taskQueue,
      });
      expect(d.spec.intervals).toEqual([{ every: DAY * 1000, offset: bucketOffsetSeconds(bucketOf(id, DAY)) * 1000 }]);
      await expect(h.temporal.client.schedule.getHandle(metricScheduleId(id)).describe()).rejects.toThrow();
    }
    const slots = bySlot(ids, DAY);
    const [slot, members] = [...slots].sort((a, b) => b[1].length - a[1].length)[0]!;
    expect(members.length).toBeGreaterThan(1);

    expect(await runBucket({ intervalSeconds: DAY, slot })).toMatchObject({
      metrics: members.length,
      stored: members.length,
    });
    // Each has its first check's sample; the bucket run added one to its members only.
    for (const id of ids) expect(await samplesOf(id)).toBe(members.includes(id) ? 2 : 1);
    for (const id of ids) expect(hits.get(`/m${ids.indexOf(id)}`)).toBe(members.includes(id) ? 2 : 1);
    expect((await call('GET', `/v1/metrics/${members[0]}`)).body).toMatchObject({
      status: 'healthy',
      current_value: expect.any(Number),
    });
  }, 180_000);

  it('moves a metric whose interval changes to a bucket of the new interval; the old bucket runs it no more', async () => {
    const slots = bySlot(ids, DAY);
    const [slot, members] = [...slots].sort((a, b) => b[1].length - a[1].length)[0]!;
    const moved = members[0]!;
    const before = await samplesOf(moved);
    expect((await call('PATCH', `/v1/metrics/${moved}`, { interval_seconds: DAY / 2 })).status).toBe(200);
    const moves = schedule(moved, DAY / 2);
    await moves.pause('test');
    expect((await moves.describe()).spec.intervals).toEqual([expect.objectContaining({ every: (DAY / 2) * 1000 })]);

    expect(await runBucket({ intervalSeconds: DAY, slot })).toMatchObject({ metrics: members.length - 1 });
    expect(await samplesOf(moved)).toBe(before);
    expect(await runBucket(bucketOf(moved, DAY / 2))).toMatchObject({ metrics: 1, stored: 1 });
    expect(await samplesOf(moved)).toBe(before + 1);
    expect((await call('PATCH', `/v1/metrics/${moved}`, { interval_seconds: DAY })).status).toBe(200);
    expect(await runBucket({ intervalSeconds: DAY, slot })).toMatchObject({ metrics: members.length });
  }, 60_000);

  it('leaves out metrics moved to an agent or deleted; a run that finds its bucket empty retires the Schedule, which the next metric brings back', async () => {
    const slots = bySlot(ids, DAY);
    const [slot, members] = [...slots].sort((a, b) => b[1].length - a[1].length)[0]!;
    const agent = await call('POST', '/v1/agents', { name: 'edge' });
    expect((await call('PATCH', `/v1/metrics/${members[0]}`, { agent_id: agent.body.id })).status).toBe(200);
    expect(await runBucket({ intervalSeconds: DAY, slot })).toMatchObject({ metrics: members.length - 1 });
    for (const id of members.slice(1)) expect((await call('DELETE', `/v1/metrics/${id}`)).status).toBe(200);

    expect(await runBucket({ intervalSeconds: DAY, slot })).toEqual(
      expect.objectContaining({ metrics: 0, stored: 0, retired: true }),
    );
    await expect(schedule(members[0]!, DAY).describe()).rejects.toThrow();

    // Back to the cloud: the metric's write creates its bucket's Schedule again.
    expect((await call('PATCH', `/v1/metrics/${members[0]}`, { agent_id: null })).status).toBe(200);
    await schedule(members[0]!, DAY).pause('test');
    expect(await runBucket({ intervalSeconds: DAY, slot })).toMatchObject({ metrics: 1, stored: 1 });
  }, 60_000);

  it("retires a metric's Schedule from before buckets at its next run, and makes sure of the metric's bucket", async () => {
    const [id] = (await createMetrics(['legacy'])) as [string];
    await schedule(id, DAY).delete();
    const legacy = await h.temporal.client.schedule.create({
      scheduleId: metricScheduleId(id),
      spec: { intervals: [{ every: `${DAY} seconds` }] },
      action: {
        type: 'startWorkflow',
        workflowType: 'cloudMetricCheckWorkflow',
        workflowId: `metric-check:${id}`,
        taskQueue: h.taskQueue,
        args: [{ metricId: id }],
      },
      state: { triggerImmediately: true },
    });
    await eventually(async () => expect(await samplesOf(id)).toBe(2), 30_000);
    await eventually(async () => expect(legacy.describe()).rejects.toThrow(), 30_000);
    const bucket = await schedule(id, DAY).describe();
    expect(bucket.action).toMatchObject({ workflowType: 'cloudMetricBucketWorkflow' });
    await schedule(id, DAY).pause('test');
  }, 60_000);
});
