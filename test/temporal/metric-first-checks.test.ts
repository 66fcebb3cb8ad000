import { writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { firstChecksWorkflowId, temporalMetricScheduler } from '../../src/temporal/metric-schedules';
import { type ApiHarness, type TestOrg, startApi } from '../support/api-harness';
import { eventually } from '../support/eventually';
import { type TemporalHarness, startTemporalHarness } from '../support/temporal-harness';

/**
 * A new cloud metric is checked once at once, not only at its bucket's next tick; a burst of
 * creations is checked by one coalesced workflow (metricFirstChecksWorkflow, one per installation)
 * in rounds, never by one workflow per metric. The metrics run once a day: their buckets' ticks
 * are hours away, and their Schedules are paused as soon as the burst is written.
 */
const DAY = 86_400;
const BURST = 200;
const IDLE_MS = 5_000;
let h: TemporalHarness;
let api: ApiHarness;
let org: TestOrg;
let serviceId: string;
let target: http.Server;
let origin: string;
const hits = new Map<string, number>();

beforeAll(async () => {
  h = await startTemporalHarness({});
  // The run ends 5 s after the last new metric (30 s in production), so the test waits less for its result.
  api = await startApi({ metricScheduler: temporalMetricScheduler(h.temporal, { firstChecksIdleMs: IDLE_MS }) });
  org = await api.createOrg('enterprise', 'First checks');
  serviceId = (await call('POST', '/v1/services', { name: 'Burst' })).body.id;
  target = http.createServer((req, res) => {
    hits.set(req.url!, (hits.get(req.url!) ?? 0) + 1);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
}, 180_000);

afterAll(async () => {
  await pauseBuckets(true);
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

/** Pauses (or, at the end, deletes) this installation's bucket Schedules: the Temporal server outlives this file. */
async function pauseBuckets(remove = false): Promise<void> {
  for await (const s of h.temporal.client.schedule.list()) {
    if (!s.scheduleId.startsWith(`metric-bucket:${h.taskQueue}:`)) continue;
    const handle = h.temporal.client.schedule.getHandle(s.scheduleId);
    await (remove ? handle.delete() : handle.pause('test: no ticks')).catch(() => undefined);
  }
}

/** Samples stored per metric. */
async function samplesOf(ids: string[]): Promise<Map<string, number>> {
  const rows = await h.orm.em
    .fork()
    .getConnection()
    .execute<{ metric_id: string; n: number }[]>(
      'select metric_id, count(*)::int as n from metric_samples where metric_id = any(?::uuid[]) group by metric_id',
      [`{${ids.join(',')}}`],
    );
  return new Map(rows.map((r) => [r.metric_id, r.n]));
}

/** The workflows started on this installation's task queue since `since`, by type (visibility is eventually consistent: polled). */
async function workflowsSince(since: Date): Promise<{ type: string; workflowId: string }[]> {
  const out: { type: string; workflowId: string }[] = [];
  for await (const w of h.temporal.client.workflow.list({
    query: `TaskQueue = '${h.taskQueue}' AND StartTime >= '${since.toISOString()}'`,
  }))
    out.push({ type: w.type, workflowId: w.workflowId });
  return out;
}

async function inParallel(n: number, concurrency: number, fn: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) await fn(next++);
    }),
  );
}

describe('first checks of new cloud metrics', () => {
  it(`checks ${BURST} metrics created in a burst with a handful of workflows; each gets one first sample at once`, async () => {
    const since = new Date(Date.now() - 1_000);
    const ids: string[] = [];
    await inParallel(BURST, 16, async (i) => {
      const res = await call('POST', '/v1/metrics', {
        service_id: serviceId,
        name: `b${i}`,
        source_type: 'http',
        source_config: { url: `${origin}/b${i}` },
        thresholds: THRESHOLDS,
        interval_seconds: DAY,
      });
      expect([res.status, res.status === 201 ? '' : res.text]).toEqual([201, '']);
      ids.push(res.body.id);
    });
    await pauseBuckets();

    await eventually(async () => expect((await samplesOf(ids)).size).toBe(BURST), 60_000, 500);
    const samples = await samplesOf(ids);
    expect([...samples.values()].every((n) => n === 1)).toBe(true);
    for (let i = 0; i < BURST; i++) expect([i, hits.get(`/b${i}`)]).toEqual([i, 1]);

    // One coalesced run did it (a run that idled out while the burst was still arriving could make it two or three), none per metric.
    const started = await eventually(async () => {
      const list = await workflowsSince(since);
      expect(list.length).toBeGreaterThan(0);
      return list;
    }, 10_000);
    expect(started.filter((w) => w.type !== 'metricFirstChecksWorkflow')).toEqual([]);
    expect(started.length).toBeLessThanOrEqual(3);
    expect(new Set(started.map((w) => w.workflowId))).toEqual(new Set([firstChecksWorkflowId(h.taskQueue)]));

    // It ends once no new metric came for a while, having checked each metric once.
    const handle = h.temporal.client.workflow.getHandle(firstChecksWorkflowId(h.taskQueue));
    expect(await handle.result()).toEqual({ checked: BURST, stored: BURST });
    const history = await handle.fetchHistory();
    const signals = history.events!.filter((e) => e.workflowExecutionSignaledEventAttributes).length;
    // At most one signal per creation: the API's sender groups the creations that arrive while a
    // signal is on its way, but whether any do depends on timing (a loaded CI run saw none overlap).
    expect(signals).toBeLessThanOrEqual(BURST);
    // VIGIL_RECORD_HISTORIES=1 rewrites the replay test's history of this workflow.
    if (process.env.VIGIL_RECORD_HISTORIES)
      writeFileSync(
        path.join(__dirname, '..', 'replay-histories', 'metric-first-checks-v1.json'),
        historyToJSON(history),
      );
  }, 120_000);

  it('gives the metrics a config apply creates their first checks the same way, and none to the ones it only updates', async () => {
    const since = new Date(Date.now() - 1_000);
    const metric = (i: number, name = `Applied ${i}`) => ({
      config_key: `applied-${i}`,
      service: 'applied',
      name,
      source_type: 'http',
      source_config: { url: `${origin}/applied-${i}` },
      thresholds: THRESHOLDS,
      interval_seconds: DAY,
    });
    const doc = {
      version: 1,
      services: [{ config_key: 'applied', name: 'Applied' }],
      metrics: Array.from({ length: 60 }, (_, i) => metric(i)),
    };
    const applied = await call('POST', '/v1/config/apply', doc);
    expect([applied.status, applied.text]).toEqual([200, expect.any(String)]);
    await pauseBuckets();
    const rows = await h.orm.em
      .fork()
      .getConnection()
      .execute<{ id: string }[]>(`select id from metrics where organization_id = ? and config_key like 'applied-%'`, [
        org.id,
      ]);
    const ids = rows.map((r) => r.id);
    expect(ids).toHaveLength(60);
    await eventually(async () => expect((await samplesOf(ids)).size).toBe(60), 60_000, 500);
    for (let i = 0; i < 60; i++) expect([i, hits.get(`/applied-${i}`)]).toEqual([i, 1]);

    // Renaming them all is no creation: no check.
    const renamed = await call('POST', '/v1/config/apply', {
      ...doc,
      metrics: doc.metrics.map((_, i) => metric(i, `Renamed ${i}`)),
    });
    expect(renamed.status).toBe(200);
    const started = await workflowsSince(since);
    expect(started.filter((w) => w.type !== 'metricFirstChecksWorkflow')).toEqual([]);
    expect(started.length).toBeLessThanOrEqual(2);
    // A fixed wait that proves a negative: the rename runs no second first check.
    await new Promise((r) => setTimeout(r, 3_000));
    expect([...(await samplesOf(ids)).values()].every((n) => n === 1)).toBe(true);
  }, 120_000);
});
