import type { EntityManager } from '@mikro-orm/postgresql';
import { commitSamples } from '../../src/usecases/metrics/ingest';
import { type ApiHarness, startApi } from '../support/api-harness';
import { orgWithKeys } from '../support/org-fixture';
import { pageRequest } from '../support/status-host';

/**
 * Issue 24 §1 (read side), §3 and §4: a refused target is down for the service and its page;
 * uptime is measured in time, the same in the API, on the page and in an SLO; maintenance and
 * incident inputs.
 */
let api: ApiHarness;
beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => api.close());

async function metricWith(
  org: Awaited<ReturnType<typeof orgWithKeys>>,
  serviceId: string,
  samples: [number, string, string | null][],
) {
  const metric = (
    await org.call('POST', '/v1/metrics', {
      service_id: serviceId,
      name: `m-${Math.random()}`,
      source_type: 'manual',
      source_config: {},
    })
  ).body;
  const base = Date.now();
  const rows = samples.map(([minutes, status, reason]) => ({
    metricId: metric.id as string,
    sampledAt: new Date(base - minutes * 60_000),
    value: status === 'no_data' ? null : 1,
    status,
    reason,
  }));
  await commitSamples(api.orm.em.fork() as EntityManager, org.id, rows, new Date());
  return metric.id as string;
}

describe('availability by reason class and uptime in time (§3)', () => {
  it('a metric no_data with a target reason keeps its status, and makes its service and page component unhealthy', async () => {
    const org = await orgWithKeys(api, { services: ['Refused', 'Gap'] });
    const refused = await metricWith(org, org.services.Refused!, [
      [6, 'healthy', null],
      [4, 'no_data', 'ECONNREFUSED'],
    ]);
    await metricWith(org, org.services.Gap!, [
      [6, 'healthy', null],
      [4, 'no_data', 'stale_agent_silent'],
    ]);
    expect((await org.call('GET', `/v1/metrics/${refused}`)).body).toMatchObject({
      status: 'no_data',
      current_value: null,
      reason: 'ECONNREFUSED',
    });
    expect((await org.call('GET', `/v1/services/${org.services.Refused}`)).body.status).toBe('unhealthy');
    // A measurement gap is neither up nor down: the only metric in a gap leaves the service no_data.
    expect((await org.call('GET', `/v1/services/${org.services.Gap}`)).body.status).toBe('no_data');

    const page = await org.call('POST', '/v1/status-pages', {
      subdomain: 'refused-target',
      title: 'x',
      groups: [
        {
          name: null,
          components: [
            { kind: 'service', id: org.services.Refused },
            { kind: 'metric', id: refused },
          ],
        },
      ],
    });
    expect(page.status).toBe(201);
    const html = (await pageRequest(api.baseUrl, 'refused-target', '/')).text;
    expect(html).toMatch(
      new RegExp(`data-component-id="${org.services.Refused}" data-kind="service" data-status="unhealthy"`),
    );
    expect(html).toMatch(new RegExp(`data-component-id="${refused}" data-kind="metric" data-status="unhealthy"`));
    const summary = JSON.parse((await pageRequest(api.baseUrl, 'refused-target', '/summary.json')).text);
    expect(JSON.stringify(summary)).not.toMatch(/"status":"no_data"/);
  });

  it("a young service with one failed sample of three shows time-weighted uptime, not '66.666%', the same in the API, on the page and in an SLO", async () => {
    const org = await orgWithKeys(api, { services: ['Young'] });
    const svc = org.services.Young!;
    await metricWith(org, svc, [
      [6, 'healthy', null],
      [5, 'unhealthy', null],
      [4, 'healthy', null],
      [2, 'no_data', 'stale_agent_silent'],
    ]);
    // Measured 6→2 min ago: 4 minutes, down 5→4: 1 minute. Samples with a value: 2 of 3 up (the old '66.666').
    const read = await org.call('GET', `/v1/services/${svc}`);
    const today = read.body.uptime.at(-1);
    expect(today).toEqual({ date: new Date().toISOString().slice(0, 10), uptime_pct: '75.000', samples: 4 });
    expect(read.body.uptime.slice(0, -1).every((d: { uptime_pct: string | null }) => d.uptime_pct === null)).toBe(true);

    await org.call('POST', '/v1/status-pages', {
      subdomain: 'young-service',
      title: 'x',
      groups: [{ name: null, components: [{ kind: 'service', id: svc }] }],
    });
    const html = (await pageRequest(api.baseUrl, 'young-service', '/')).text;
    // The total counts from the first sample and says so: not "over 90 days" for six minutes of data.
    // The instant in the page's zone (UTC by default), named, as every other time on the page.
    expect(html).toMatch(
      /<p class="uptime-total">75% uptime since <time datetime="[^"]+">\d{1,2} \w{3} \d{4}, \d\d:\d\d UTC<\/time><\/p>/,
    );
    expect(html).not.toContain('uptime over 90 days');
    const summary = JSON.parse((await pageRequest(api.baseUrl, 'young-service', '/summary.json')).text);
    expect(summary.groups[0].components[0]).toMatchObject({
      uptime_pct: '75.000',
      uptime_since: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(html).not.toContain('66.666');
    expect(html).toMatch(/title="\d{4}-\d\d-\d\d: no data"/);

    const slo = await org.call('POST', '/v1/slos', {
      name: 'young',
      service_id: svc,
      objective: '99',
      window: { kind: 'rolling', days: 1 },
      no_data: 'excluded',
      maintenance: 'counted',
    });
    expect(slo.status).toBe(201);
    expect(slo.body.attainment.attainment).toBe('75.000');
    expect(slo.body.attainment).toMatchObject({ good_ms: 180_000, bad_ms: 60_000 });
  });

  it('an SLO counts time down by a target reason as bad', async () => {
    const org = await orgWithKeys(api, { services: ['S'] });
    const m = await metricWith(org, org.services.S!, [
      [6, 'healthy', null],
      [4, 'no_data', 'unexpected_status:503'],
      [2, 'no_data', 'invalid_config'],
    ]);
    const slo = await org.call('POST', '/v1/slos', {
      name: 'm',
      metric_id: m,
      objective: '99',
      window: { kind: 'rolling', days: 1 },
      no_data: 'excluded',
      maintenance: 'counted',
    });
    // Up 6→4 min ago, down 4→2 (a target reason), then a measurement gap: 2 of 4 minutes.
    expect(slo.body.attainment.attainment).toBe('50.000');
  });
});

describe('lifecycle inputs', () => {
  const at = (ms: number) => new Date(Date.now() + ms).toISOString();

  it('refuses a maintenance whose window has already ended, on create and on reschedule; accepts one under way', async () => {
    const org = await orgWithKeys(api, { services: ['DB'] });
    const ended = await org.call('POST', '/v1/maintenances', {
      title: 'Past',
      affected_services: [org.services.DB],
      scheduled_start_at: '2025-01-01T00:00:00.000Z',
      scheduled_end_at: '2025-01-01T02:00:00.000Z',
    });
    expect(ended.status).toBe(400);
    expect(ended.body.title).toBe('validation_failed');
    expect(ended.body.errors[0].path).toBe('scheduled_end_at');
    expect(ended.body.errors[0].message).toMatch(/already ended/);

    const underWay = await org.call('POST', '/v1/maintenances', {
      title: 'Now',
      affected_services: [org.services.DB],
      scheduled_start_at: at(-3_600_000),
      scheduled_end_at: at(3_600_000),
    });
    expect(underWay.status).toBe(201);
    expect(underWay.body.warnings).toEqual([]);

    const moved = await org.call('PATCH', `/v1/maintenances/${underWay.body.id}`, { scheduled_end_at: at(-60_000) });
    expect([moved.status, moved.body.errors?.[0]?.path]).toEqual([400, 'scheduled_end_at']);
  });

  it('keeps an incident or maintenance without affected_services, and warns that it is shown on every status page', async () => {
    const org = await orgWithKeys(api, { services: ['A'] });
    const m = await org.call('POST', '/v1/maintenances', {
      title: 'Everywhere',
      scheduled_start_at: at(3_600_000),
      scheduled_end_at: at(7_200_000),
    });
    expect(m.status).toBe(201);
    expect(m.body.warnings).toEqual([
      { code: 'shown_on_every_status_page', message: expect.stringContaining('shown on every status page') },
    ]);
    const i = await org.call('POST', '/v1/incidents', { title: 'Everywhere' });
    expect(i.status).toBe(201);
    expect(i.body.warnings).toEqual([
      { code: 'shown_on_every_status_page', message: expect.stringContaining('shown on every status page') },
    ]);
    const scoped = await org.call('POST', '/v1/incidents', { title: 'Scoped', affected_services: [org.services.A] });
    expect(scoped.body.warnings).toEqual([]);
    expect((await org.call('GET', `/v1/incidents/${i.body.id}`)).status).toBe(200);
  });
});
