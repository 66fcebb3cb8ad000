import { type ApiHarness, startApi } from '../support/api-harness';
import { type Call, type OrgFixture, orgWithKeys } from '../support/org-fixture';

/**
 * POST /v1/metrics/{id}/samples/import: history from before SAMPLE_MAX_AGE, checked
 * like agent samples, stored as imported, idempotent, counted once in the rollups, and rebuilt
 * into the metric's status flips so timelines (here an SLO) see it. Checked against PostgreSQL.
 */
let api: ApiHarness;
let org: OrgFixture<'reader', 'Imported'>;
let stranger: OrgFixture;
let agent: { id: string; token: string };

const THRESHOLDS = {
  healthy_operation: 'under',
  healthy_value: 100,
  unhealthy_operation: 'over',
  unhealthy_value: 200,
};
const V = { healthy: 50, degraded: 150, unhealthy: 250 } as const;
const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;

beforeAll(async () => {
  api = await startApi();
  org = await orgWithKeys(api, { plan: 'enterprise', services: ['Imported'], keys: { reader: ['read:metrics'] } });
  stranger = await orgWithKeys(api, { plan: 'enterprise', name: 'stranger' });
  agent = (await call('POST', '/v1/agents', { name: 'edge' })).body;
});
afterAll(async () => api.close());

const call: Call = (...args) => org.call(...args);
const sql = async <T = any>(text: string, params: unknown[] = []) =>
  (await api.orm.em.getConnection().execute(text, params)) as T[];

async function newMetric(name: string): Promise<string> {
  const res = await call('POST', '/v1/metrics', {
    service_id: org.services.Imported,
    name,
    source_type: 'tcp',
    source_config: { host: 'db.internal', port: 5432 },
    thresholds: THRESHOLDS,
    interval_seconds: 60,
    agent_id: agent.id,
    confirmation: { failures: 1, recoveries: 1 },
  });
  expect(res.status).toBe(201);
  return res.body.id;
}

interface ImportSample {
  sampled_at: string;
  value: number | null;
  reason?: string | null;
}
const importInto = (metricId: string, samples: ImportSample[], as: Call = call) =>
  as('POST', `/v1/metrics/${metricId}/samples/import`, { samples });
const iso = (ms: number) => new Date(ms).toISOString();
/** A whole hour, so sample times are exact to the millisecond. */
const now0 = Math.floor(Date.now() / HOUR) * HOUR;

const flipsOf = async (metricId: string) =>
  (
    await sql<{ from_status: string; to_status: string; at: string | Date; reason_class: string | null }>(
      `select from_status, to_status, at, reason_class from metric_status_flips where metric_id = ? order by at, id`,
      [metricId],
    )
  ).map(
    (f) =>
      `${f.from_status}→${f.to_status}${f.reason_class ? `/${f.reason_class}` : ''}@${new Date(f.at).toISOString()}`,
  );
const rollupTotals = async (metricId: string) =>
  (
    await sql<{ samples: string; healthy: string; unhealthy: string; no_data: string }>(
      `select sum(samples) as samples, sum(healthy) as healthy, sum(unhealthy) as unhealthy, sum(no_data) as no_data from metric_daily_rollups where metric_id = ?`,
      [metricId],
    )
  )[0];
const eventCount = async (metricId: string) =>
  Number(
    (
      await sql<{ n: string }>(
        `select count(*) as n from outbox_events where type = 'metric.status_changed' and resource_id = ?`,
        [metricId],
      )
    )[0]!.n,
  );

describe('POST /v1/metrics/{id}/samples/import', () => {
  it('refuses a malformed body with 400 validation_failed and the field path', async () => {
    const m = await newMetric('bad bodies');
    const cases: [unknown, string][] = [
      [{ samples: [] }, 'samples'],
      [{}, 'samples'],
      [{ samples: [{ sampled_at: 'yesterday', value: 1 }] }, 'samples.0.sampled_at'],
      [
        {
          samples: [
            { sampled_at: iso(now0 - DAY), value: 1 },
            { sampled_at: iso(now0 - DAY), value: '1' },
          ],
        },
        'samples.1.value',
      ],
      [{ samples: [{ sampled_at: iso(now0 - DAY), value: null, reason: 'x'.repeat(201) }] }, 'samples.0.reason'],
      [{ samples: [{ sampled_at: iso(now0 - DAY), value: 1, metric_id: m }] }, 'samples.0.metric_id'],
    ];
    for (const [body, path] of cases) {
      const res = await call('POST', `/v1/metrics/${m}/samples/import`, body);
      expect([res.status, res.body.title]).toEqual([400, 'validation_failed']);
      expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(path);
    }
    expect(
      Number((await sql<{ n: string }>(`select count(*) as n from metric_samples where metric_id = ?`, [m]))[0]!.n),
    ).toBe(0);
  });

  it('takes 50,000 samples in one call and refuses 50,001 with 400 at `samples` (not 413)', async () => {
    const m = await newMetric('big');
    const start = now0 - 60 * DAY;
    const samples = Array.from({ length: 50_001 }, (_, i) => ({
      sampled_at: iso(start + i * MINUTE),
      value: V.healthy,
    }));
    const over = await importInto(m, samples);
    expect([over.status, over.body.title]).toEqual([400, 'validation_failed']);
    expect(over.body.errors.map((e: { path: string }) => e.path)).toEqual(['samples']);
    const res = await importInto(m, samples.slice(0, 50_000));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ accepted: 50_000, stored: 50_000, rejected: [], flips: 1 });
    expect(await rollupTotals(m)).toEqual({ samples: '50000', healthy: '50000', unhealthy: '0', no_data: '0' });
  });

  it('stores as imported, rejects future samples one by one, is idempotent and never counts a sample twice', async () => {
    const m = await newMetric('idempotent');
    const samples: ImportSample[] = [
      { sampled_at: iso(now0 - 30 * DAY), value: V.healthy },
      { sampled_at: iso(now0 - 30 * DAY + HOUR), value: V.unhealthy },
      { sampled_at: iso(Date.now() + 10 * MINUTE), value: V.healthy },
      { sampled_at: iso(now0 - 29 * DAY), value: null, reason: 'ECONNREFUSED' },
      // Older than SAMPLE_MAX_AGE: refused to agents, taken here.
      { sampled_at: iso(now0 - 300 * DAY), value: V.healthy },
    ];
    const first = await importInto(m, samples);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      accepted: 4,
      stored: 4,
      rejected: [{ index: 2, metric_id: m, reason: 'sampled_in_future' }],
    });
    const stored = await sql<{ status: string; reason_class: string | null; imported: boolean; received: boolean }>(
      `select status, reason_class, imported, received_at is not null as received from metric_samples where metric_id = ? order by sampled_at`,
      [m],
    );
    expect(stored).toEqual([
      { status: 'healthy', reason_class: null, imported: true, received: true },
      { status: 'healthy', reason_class: null, imported: true, received: true },
      { status: 'unhealthy', reason_class: null, imported: true, received: true },
      { status: 'no_data', reason_class: 'target', imported: true, received: true },
    ]);
    const rollups = await rollupTotals(m);
    const flips = await flipsOf(m);
    expect(rollups).toEqual({ samples: '4', healthy: '2', unhealthy: '1', no_data: '1' });

    const again = await importInto(m, samples);
    expect(again.body).toEqual({
      accepted: 4,
      stored: 0,
      rejected: [{ index: 2, metric_id: m, reason: 'sampled_in_future' }],
      flips: 0,
    });
    expect(await rollupTotals(m)).toEqual(rollups);
    expect(await flipsOf(m)).toEqual(flips);
    expect(stored.length).toBe(
      Number((await sql<{ n: string }>(`select count(*) as n from metric_samples where metric_id = ?`, [m]))[0]!.n),
    );
  });

  it('rejects, one by one, samples older than the sample retention (METRIC_SAMPLE_RETENTION_DAYS, 400 days) as sampled_before_retention', async () => {
    const m = await newMetric('retention');
    const res = await importInto(m, [
      { sampled_at: iso(now0 - 401 * DAY), value: V.unhealthy },
      { sampled_at: iso(now0 - 399 * DAY), value: V.healthy },
      { sampled_at: '2020-02-29T12:00:00.000Z', value: V.unhealthy },
    ]);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      accepted: 1,
      stored: 1,
      rejected: [
        { index: 0, metric_id: m, reason: 'sampled_before_retention' },
        { index: 2, metric_id: m, reason: 'sampled_before_retention' },
      ],
      flips: 1,
    });
    expect(await flipsOf(m)).toEqual([`no_data→healthy@${iso(now0 - 399 * DAY)}`]);
    expect(await rollupTotals(m)).toEqual({ samples: '1', healthy: '1', unhealthy: '0', no_data: '0' });
  });

  it('rebuilds the flips from the imported history (class-aware), sends no event for it, and keeps the newer latest outcome', async () => {
    const m = await newMetric('rebuilt');
    // Live: healthy an hour ago (the metric's first flip) and now.
    const live = await api.request('POST', '/v1/agent/samples', {
      headers: { authorization: `Bearer ${agent.token}` },
      body: {
        samples: [
          { metric_id: m, sampled_at: iso(now0 - HOUR), value: V.healthy },
          { metric_id: m, sampled_at: iso(now0), value: V.healthy },
        ],
      },
    });
    expect(live.body).toMatchObject({ accepted: 2, flips: 1 });
    const before = (await call('GET', `/v1/metrics/${m}`)).body;
    const events = await eventCount(m);

    // History 20 days back: healthy, 2 h unhealthy, healthy, 1 h refused (target), a measurement gap, healthy.
    const t = now0 - 20 * DAY;
    const res = await importInto(m, [
      { sampled_at: iso(t), value: V.healthy },
      { sampled_at: iso(t + HOUR), value: V.unhealthy },
      { sampled_at: iso(t + 2 * HOUR), value: V.unhealthy },
      { sampled_at: iso(t + 3 * HOUR), value: V.healthy },
      { sampled_at: iso(t + 4 * HOUR), value: null, reason: 'ECONNREFUSED' },
      { sampled_at: iso(t + 5 * HOUR), value: null, reason: 'stale_agent_silent' },
      { sampled_at: iso(t + 6 * HOUR), value: V.healthy },
    ]);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ accepted: 7, stored: 7, rejected: [], flips: 6 });
    // The live flip an hour ago is gone: the status was already healthy then.
    expect(await flipsOf(m)).toEqual([
      `no_data→healthy@${iso(t)}`,
      `healthy→unhealthy@${iso(t + HOUR)}`,
      `unhealthy→healthy@${iso(t + 3 * HOUR)}`,
      `healthy→no_data/target@${iso(t + 4 * HOUR)}`,
      `no_data→no_data/measurement@${iso(t + 5 * HOUR)}`,
      `no_data→healthy@${iso(t + 6 * HOUR)}`,
    ]);
    expect(await eventCount(m)).toBe(events);
    const after = (await call('GET', `/v1/metrics/${m}`)).body;
    expect(after).toMatchObject({
      status: 'healthy',
      current_value: V.healthy,
      last_sample_at: before.last_sample_at,
      updated_at: before.updated_at,
      status_since: iso(t + 6 * HOUR),
    });

    // A timeline through the API: an SLO over the metric counts the imported 2 h unhealthy as bad.
    const slo = await call('POST', '/v1/slos', {
      name: 'imported',
      metric_id: m,
      objective: '99',
      window: { kind: 'rolling', days: 30 },
    });
    expect(slo.status).toBe(201);
    expect(slo.body.attainment.bad_ms).toBeGreaterThanOrEqual(2 * HOUR);
  });

  it('moves the latest outcome when the import holds samples newer than last_sample_at', async () => {
    const m = await newMetric('newer');
    const res = await importInto(m, [
      { sampled_at: iso(now0 - 9 * DAY), value: V.healthy },
      { sampled_at: iso(now0 - 2 * MINUTE), value: null, reason: 'unexpected_status:503' },
    ]);
    expect(res.body).toMatchObject({ accepted: 2, stored: 2, flips: 2 });
    expect((await call('GET', `/v1/metrics/${m}`)).body).toMatchObject({
      status: 'no_data',
      current_value: null,
      reason: 'unexpected_status:503',
      reason_class: 'target',
      last_sample_at: iso(now0 - 2 * MINUTE),
      status_since: iso(now0 - 2 * MINUTE),
    });
    // Live ingest goes on from the imported state: the same outage is no new flip.
    const live = await api.request('POST', '/v1/agent/samples', {
      headers: { authorization: `Bearer ${agent.token}` },
      body: { samples: [{ metric_id: m, sampled_at: iso(now0 - MINUTE), value: null, reason: 'ECONNREFUSED' }] },
    });
    expect(live.body).toMatchObject({ accepted: 1, flips: 0 });
  });

  it("needs write:metrics and answers 404 for another organization's metric", async () => {
    const m = await newMetric('guarded');
    const body = [{ sampled_at: iso(now0 - 10 * DAY), value: V.healthy }];
    const readOnly = await importInto(m, body, org.keys.reader.call);
    expect([readOnly.status, readOnly.body.title]).toEqual([403, 'forbidden']);
    const foreign = await importInto(m, body, stranger.call);
    expect([foreign.status, foreign.body.title]).toEqual([404, 'not_found']);
    expect(
      Number((await sql<{ n: string }>(`select count(*) as n from metric_samples where metric_id = ?`, [m]))[0]!.n),
    ).toBe(0);
  });
});
