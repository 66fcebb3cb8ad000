/**
 * The public page follows every announcement at once: after an incident is published, updated or
 * resolved, and after a maintenance starts, ends or is canceled, the very next request for the
 * page or its summary shows it, though both were cached just before (the cache keeps them 10 s).
 * A write from another process (a worker's activity, psql) reaches the page through the change
 * feed. And what the page says agrees with summary.json: one derivation (page-state.ts).
 */
import { type ApiHarness, startApi } from '../support/api-harness';
import { eventually } from '../support/eventually';
import { type OrgFixture, orgWithKeys } from '../support/org-fixture';
import { pageRequest } from '../support/status-host';

const SUBDOMAIN = 'fresh-status';

let api: ApiHarness;
let org: OrgFixture<never, 'API' | 'Database'>;
let svcApi: string;
let svcDb: string;
let metricDb: string;

const page = (path: string, headers: Record<string, string> = {}) =>
  pageRequest(api.baseUrl, SUBDOMAIN, path, { headers });
const ok = async (method: string, url: string, body?: unknown) => {
  const r = await org.call(method, url, body);
  if (r.status >= 300) throw new Error(`${method} ${url} answered ${r.status}: ${r.text}`);
  return r.body;
};

interface Seen {
  headline: { state: string; text: string };
  active: string[];
  inProgress: string[];
  html: string;
}

/** The summary and the HTML page, read back to back: both must tell the same story. */
async function seen(): Promise<Seen> {
  const [summary, html] = await Promise.all([page('/summary.json'), page('/')]);
  const s = JSON.parse(summary.text);
  const banner = html.text.match(
    /<div id="overall-status"[^>]*data-state="([a-z_]+)"[^>]*>[^]*?<p>([^<]*)<\/p><\/div>/,
  );
  expect([banner?.[1], banner?.[2]]).toEqual([s.headline.state, s.headline.text]);
  for (const i of s.active_incidents)
    expect(html.text).toMatch(new RegExp(`section aria-labelledby="active-incidents"[^]*data-incident-id="${i.id}"`));
  if (s.active_incidents.length) expect(html.text).not.toContain('No incidents in the last 7 days');
  return {
    headline: s.headline,
    active: s.active_incidents.map((i: { id: string }) => i.id),
    inProgress: s.maintenance_in_progress.map((m: { id: string }) => m.id),
    html: html.text,
  };
}

/** Fills the page cache, so the next read after a write would be a hit if nothing dropped it. */
const warm = async () => {
  await seen();
  await seen();
};

beforeAll(async () => {
  api = await startApi();
  org = await orgWithKeys(api, { name: 'fresh pages', services: ['API', 'Database'] });
  ({ API: svcApi, Database: svcDb } = org.services);
  for (const [svc, name] of [
    [svcApi, 'API availability'],
    [svcDb, 'Database reachability'],
  ] as const) {
    const m = await ok('POST', '/v1/metrics', { service_id: svc, name, source_type: 'manual', source_config: {} });
    await ok('POST', `/v1/metrics/${m.id}/status`, { status: 'healthy' });
    if (svc === svcDb) metricDb = m.id;
  }
  await ok('POST', '/v1/status-pages', {
    subdomain: SUBDOMAIN,
    title: 'Fresh Status',
    groups: [
      {
        name: 'Core',
        components: [
          { kind: 'service', id: svcApi },
          { kind: 'service', id: svcDb },
        ],
      },
    ],
  });
  await eventually(async () => expect((await seen()).headline.state).toBe('operational'), 15_000);
});
afterAll(async () => api?.close());

describe('the cached public page follows each write at once', () => {
  it('an incident: published, updated, resolved', async () => {
    const draft = await ok('POST', '/v1/incidents', {
      title: 'Slow queries',
      severity: 'minor',
      affected_services: [svcDb],
      initial_message: { body: 'Looking.' },
    });
    await warm();
    expect((await seen()).active).toEqual([]);

    await ok('POST', `/v1/incidents/${draft.id}/publish`);
    let now = await seen();
    expect([now.active, now.headline.state]).toEqual([[draft.id], 'degraded_performance']);

    await warm();
    await ok('PATCH', `/v1/incidents/${draft.id}`, {
      service_impacts: [{ service_id: svcDb, impact: 'major_outage' }],
    });
    now = await seen();
    // Metrics are healthy: the incident's impact is what the headline says.
    expect([now.active, now.headline]).toEqual([[draft.id], { state: 'major_outage', text: 'Major outage' }]);

    await warm();
    await ok('POST', `/v1/incidents/${draft.id}/resolve`, { message: 'Fixed.' });
    now = await seen();
    expect([now.active, now.headline.state]).toEqual([[], 'operational']);
    expect(now.html).toMatch(/section aria-labelledby="recent-incidents"[^]*data-state="resolved"/);
  });

  it('a maintenance: started, completed; another started, canceled', async () => {
    const window = () => ({
      scheduled_start_at: new Date(Date.now() + 3_600_000).toISOString(),
      scheduled_end_at: new Date(Date.now() + 7_200_000).toISOString(),
    });
    await ok('POST', `/v1/metrics/${metricDb}/status`, { status: 'unhealthy' });
    await eventually(async () => expect((await seen()).headline.state).toBe('major_outage'), 15_000);
    const m1 = await ok('POST', '/v1/maintenances', {
      title: 'Failover drill',
      affected_services: [svcDb],
      ...window(),
    });
    await warm();

    await ok('POST', `/v1/maintenances/${m1.id}/start`);
    let now = await seen();
    // Down inside its announced window: maintenance, not an outage.
    expect([now.inProgress, now.headline]).toEqual([
      [m1.id],
      { state: 'under_maintenance', text: 'Under maintenance' },
    ]);

    await warm();
    await ok('POST', `/v1/maintenances/${m1.id}/complete`);
    now = await seen();
    expect([now.inProgress, now.headline.state]).toEqual([[], 'major_outage']);

    const m2 = await ok('POST', '/v1/maintenances', { title: 'Second drill', affected_services: [svcDb], ...window() });
    await ok('POST', `/v1/maintenances/${m2.id}/start`);
    await warm();
    expect((await seen()).headline.state).toBe('under_maintenance');
    await ok('POST', `/v1/maintenances/${m2.id}/cancel`);
    now = await seen();
    expect([now.inProgress, now.headline.state]).toEqual([[], 'major_outage']);
    await ok('POST', `/v1/metrics/${metricDb}/status`, { status: 'healthy' });
  });

  it('a write from another process (a worker activity, psql) reaches the page through the change feed, well before the cache would expire', async () => {
    const inc = await ok('POST', '/v1/incidents', {
      title: 'Written elsewhere',
      severity: 'critical',
      affected_services: [svcApi],
      publish: true,
      initial_message: { body: 'Down.' },
    });
    await eventually(async () => expect((await seen()).active).toEqual([inc.id]), 2_000);
    await warm();
    const at = new Date();
    await api.orm.em.getConnection().execute('update incidents set resolved_at = ? where id = ?', [at, inc.id]);
    // The cache keeps an entry 10 s; the change feed drops it within moments.
    await eventually(async () => expect((await seen()).active).toEqual([]), 2_000);
  });

  it('lets browsers keep the page only if they revalidate it: an ETag, and 304 while nothing changed', async () => {
    const first = await page('/');
    expect(first.headers['cache-control']).toBe('public, no-cache');
    expect(first.headers.etag).toMatch(/^"[^"]+"$/);
    const again = await page('/', { 'if-none-match': first.headers.etag! });
    expect([again.status, again.text]).toEqual([304, '']);
    const summary = await page('/summary.json');
    expect(summary.headers['cache-control']).toBe('public, no-cache');
    expect((await page('/summary.json', { 'if-none-match': summary.headers.etag! })).status).toBe(304);

    const inc = await ok('POST', '/v1/incidents', {
      title: 'After the visit',
      severity: 'major',
      affected_services: [svcApi],
      publish: true,
      initial_message: { body: 'x' },
    });
    const changed = await page('/', { 'if-none-match': first.headers.etag! });
    expect(changed.status).toBe(200);
    expect(changed.text).toContain(`data-incident-id="${inc.id}"`);
    await ok('POST', `/v1/incidents/${inc.id}/resolve`);
  });
});
