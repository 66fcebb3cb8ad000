import { type ApiHarness, type TestOrg, startApi } from '../support/api-harness';

let api: ApiHarness;
beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => api.close());

const HTTP_THRESHOLDS = { healthy_operation: 'under', healthy_value: 300, unhealthy_operation: 'over', unhealthy_value: 1000 };

/** A document with a bit of everything: services, metrics of three kinds, SLOs, a page, a webhook, a customer. */
function baseDocument(sub: string) {
  return {
    version: 1,
    customers: [{ config_key: 'acme', name: 'Acme Corp', contact_email: 'billing@acme.example' }],
    services: [
      { config_key: 'checkout', name: 'Checkout' },
      { config_key: 'search', name: 'Search', description: 'Full-text search' },
    ],
    metrics: [
      { config_key: 'checkout-http', service: 'checkout', name: 'Checkout HTTP', source_type: 'http', source_config: { url: 'https://checkout.example.com/health' }, thresholds: HTTP_THRESHOLDS, interval_seconds: 30 },
      { config_key: 'checkout-manual', service: 'checkout', name: 'Payments provider', source_type: 'manual', source_config: {} },
      { config_key: 'search-heartbeat', service: 'search', name: 'Indexer heartbeat', source_type: 'heartbeat', source_config: {}, thresholds: { healthy_operation: 'under', healthy_value: 120, unhealthy_operation: 'over', unhealthy_value: 600 } },
    ],
    slos: [
      { config_key: 'checkout-avail', name: 'Checkout availability', service: 'checkout', objective: '99.9', window: { kind: 'rolling', days: 30 } },
      { config_key: 'http-avail', name: 'HTTP availability', metric: 'checkout-http', objective: '99.5', window: { kind: 'calendar_month', timezone: 'Europe/Berlin' } },
    ],
    status_pages: [
      { config_key: 'public', subdomain: sub, title: 'Acme status', groups: [{ name: 'Shop', components: [{ service: 'checkout' }, { slo: 'checkout-avail' }] }, { name: null, components: [{ metric: 'search-heartbeat' }] }] },
    ],
    webhooks: [{ config_key: 'ops', url: 'https://hooks.example.com/vigil', event_types: ['incident.created', 'metric.status_changed'] }],
  };
}

async function freshOrg(plan: 'team' | 'business' | 'enterprise' = 'business'): Promise<TestOrg> {
  return api.createOrg(plan, 'Config org');
}

const apply = (org: TestOrg, doc: unknown, query = '') => api.request('POST', `/v1/config/apply${query}`, { key: org.key, body: doc });

describe('applyConfig', () => {
  it('plans, applies, and re-applies a document with nothing to do', async () => {
    const org = await freshOrg();
    const doc = baseDocument(`cfg-${Date.now().toString(36)}`);
    const plan = await apply(org, doc, '?dry_run=true');
    expect(plan.status).toBe(200);
    expect(plan.body).toMatchObject({ dry_run: true, applied: false, changed: true, summary: { create: 10, update: 0, delete: 0, unchanged: 0 } });
    expect(plan.body.changes.every((c: { id: string | null }) => c.id === null)).toBe(true);
    expect((await api.request('GET', '/v1/services', { key: org.key })).body.items).toHaveLength(0);

    const applied = await apply(org, doc);
    expect(applied.status).toBe(200);
    expect(applied.body).toMatchObject({ dry_run: false, applied: true, changed: true, summary: { create: 10 } });
    expect(applied.body.secrets).toEqual([{ config_key: 'ops', webhook_id: expect.any(String), secret: expect.stringMatching(/^whsec_/) }]);
    expect(applied.body.inbound_urls).toEqual([{ config_key: 'search-heartbeat', metric_id: expect.any(String), url: expect.stringMatching(/\/v1\/heartbeats\//) }]);

    const again = await apply(org, doc);
    expect(again.body).toMatchObject({ changed: false, summary: { create: 0, update: 0, delete: 0, unchanged: 10 }, secrets: [] });

    const services = (await api.request('GET', '/v1/services', { key: org.key })).body.items;
    expect(services.map((s: { config_key: string }) => s.config_key).sort()).toEqual(['checkout', 'search']);
  });
});
