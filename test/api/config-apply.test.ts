import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { Client } from 'pg';
import { parse as parseYaml, stringify as toYaml } from 'yaml';
import { type ApiHarness, type TestOrg, startApi } from '../support/api-harness';
import { testDatabaseUrl } from '../support/env';

let api: ApiHarness;
beforeAll(async () => {
  api = await startApi({ configLockTimeoutMs: 1_000 });
});
afterAll(async () => api.close());

const HTTP_THRESHOLDS = {
  healthy_operation: 'under',
  healthy_value: 300,
  unhealthy_operation: 'over',
  unhealthy_value: 1000,
};

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
      {
        config_key: 'checkout-http',
        service: 'checkout',
        name: 'Checkout HTTP',
        source_type: 'http',
        source_config: { url: 'https://checkout.example.com/health' },
        thresholds: HTTP_THRESHOLDS,
        interval_seconds: 30,
      },
      {
        config_key: 'checkout-manual',
        service: 'checkout',
        name: 'Payments provider',
        source_type: 'manual',
        source_config: {},
      },
      {
        config_key: 'search-heartbeat',
        service: 'search',
        name: 'Indexer heartbeat',
        source_type: 'heartbeat',
        source_config: {},
        thresholds: {
          healthy_operation: 'under',
          healthy_value: 120,
          unhealthy_operation: 'over',
          unhealthy_value: 600,
        },
      },
    ],
    slos: [
      {
        config_key: 'checkout-avail',
        name: 'Checkout availability',
        service: 'checkout',
        objective: '99.9',
        window: { kind: 'rolling', days: 30 },
      },
      {
        config_key: 'http-avail',
        name: 'HTTP availability',
        metric: 'checkout-http',
        objective: '99.5',
        window: { kind: 'calendar_month', timezone: 'Europe/Berlin' },
      },
    ],
    status_pages: [
      {
        config_key: 'public',
        subdomain: sub,
        title: 'Acme status',
        groups: [
          { name: 'Shop', components: [{ service: 'checkout' }, { slo: 'checkout-avail' }] },
          { name: null, components: [{ metric: 'search-heartbeat' }] },
        ],
      },
    ],
    webhooks: [
      {
        config_key: 'ops',
        url: 'https://hooks.example.com/vigil',
        event_types: ['incident.created', 'metric.status_changed'],
      },
    ],
  };
}

async function freshOrg(plan: 'team' | 'business' | 'enterprise' = 'business'): Promise<TestOrg> {
  return api.createOrg(plan, 'Config org');
}

const apply = (org: TestOrg, doc: unknown, query = '') =>
  api.request('POST', `/v1/config/apply${query}`, { key: org.key, body: doc });

describe('applyConfig', () => {
  it('plans, applies, and re-applies a document with nothing to do', async () => {
    const org = await freshOrg();
    const doc = baseDocument(`cfg-${Date.now().toString(36)}`);
    const plan = await apply(org, doc, '?dry_run=true');
    expect(plan.status).toBe(200);
    expect(plan.body).toMatchObject({
      dry_run: true,
      applied: false,
      changed: true,
      summary: { create: 10, update: 0, delete: 0, unchanged: 0 },
    });
    expect(plan.body.changes.every((c: { id: string | null }) => c.id === null)).toBe(true);
    expect((await api.request('GET', '/v1/services', { key: org.key })).body.items).toHaveLength(0);

    const applied = await apply(org, doc);
    expect(applied.status).toBe(200);
    expect(applied.body).toMatchObject({ dry_run: false, applied: true, changed: true, summary: { create: 10 } });
    expect(applied.body.secrets).toEqual([
      { config_key: 'ops', webhook_id: expect.any(String), secret: expect.stringMatching(/^whsec_/) },
    ]);
    expect(applied.body.inbound_urls).toEqual([
      {
        config_key: 'search-heartbeat',
        metric_id: expect.any(String),
        url: expect.stringMatching(/\/v1\/heartbeats\//),
      },
    ]);

    const again = await apply(org, doc);
    expect(again.body).toMatchObject({
      changed: false,
      summary: { create: 0, update: 0, delete: 0, unchanged: 10 },
      secrets: [],
    });

    const services = (await api.request('GET', '/v1/services', { key: org.key })).body.items;
    expect(services.map((s: { config_key: string }) => s.config_key).sort()).toEqual(['checkout', 'search']);
  });

  it('shows field-level diffs, moves a metric between services, and keeps ids', async () => {
    const org = await freshOrg();
    const doc = baseDocument(`cfg-mv-${Date.now().toString(36)}`);
    const first = await apply(org, doc);
    const metricId = first.body.changes.find((c: { config_key: string }) => c.config_key === 'checkout-manual').id;
    const searchId = first.body.changes.find((c: { config_key: string }) => c.config_key === 'search').id;

    doc.metrics[0]!.thresholds = { ...HTTP_THRESHOLDS, healthy_value: 250 };
    doc.metrics[0]!.name = 'Checkout HTTP check';
    doc.metrics[1]!.service = 'search';
    const plan = await apply(org, doc, '?dry_run=true');
    expect(plan.body.summary).toEqual({ create: 0, update: 2, delete: 0, unchanged: 8 });
    const http = plan.body.changes.find((c: { config_key: string }) => c.config_key === 'checkout-http');
    expect(http).toMatchObject({ kind: 'metric', action: 'update', name: 'Checkout HTTP check' });
    expect(http.diff).toEqual(
      expect.arrayContaining([
        { field: 'name', before: 'Checkout HTTP', after: 'Checkout HTTP check' },
        { field: 'thresholds.healthy_value', before: 300, after: 250 },
      ]),
    );
    expect(http.diff).toHaveLength(2);
    const moved = plan.body.changes.find((c: { config_key: string }) => c.config_key === 'checkout-manual');
    expect(moved.diff).toEqual([{ field: 'service', before: 'checkout', after: 'search' }]);

    const applied = await apply(org, doc);
    expect(applied.body.summary.update).toBe(2);
    const metric = await api.request('GET', `/v1/metrics/${metricId}`, { key: org.key });
    expect([metric.body.id, metric.body.service_id, metric.body.config_key]).toEqual([
      metricId,
      searchId,
      'checkout-manual',
    ]);
    expect((await apply(org, doc)).body.changed).toBe(false);
  });

  it('prunes only with prune=true, only managed items, and only in the sections the document has', async () => {
    const org = await freshOrg();
    const doc = baseDocument(`cfg-pr-${Date.now().toString(36)}`);
    await apply(org, doc);
    const handMade = await api.request('POST', '/v1/services', { key: org.key, body: { name: 'Made by hand' } });

    const smaller = { ...doc, webhooks: [], customers: undefined };
    expect((await apply(org, smaller, '?dry_run=true')).body.summary).toMatchObject({ delete: 0 });
    const pruned = await apply(org, smaller, '?prune=true');
    expect(pruned.body.changes.filter((c: { action: string }) => c.action === 'delete')).toEqual([
      {
        kind: 'webhook',
        config_key: 'ops',
        name: 'https://hooks.example.com/vigil',
        action: 'delete',
        id: expect.any(String),
        diff: [],
      },
    ]);
    expect((await api.request('GET', '/v1/webhooks', { key: org.key })).body.items).toHaveLength(0);
    // The customers section was left out: its customer is not the document's business.
    expect((await api.request('GET', '/v1/customers', { key: org.key })).body.items).toHaveLength(1);
    expect((await api.request('GET', `/v1/services/${handMade.body.id}`, { key: org.key })).status).toBe(200);

    // Dropping a service drops its metrics with it; an SLO in the document still naming it is an error.
    const noSearch = {
      ...smaller,
      services: doc.services.filter((x) => x.config_key !== 'search'),
      metrics: doc.metrics.filter((m) => m.service !== 'search'),
    };
    const refused = await apply(org, noSearch, '?prune=true');
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([
      {
        path: 'status_pages[0].groups[1].components[0].metric',
        message: expect.stringMatching(/not in the document, and prune deletes it/),
      },
    ]);
    noSearch.status_pages[0]!.groups = noSearch.status_pages[0]!.groups.slice(0, 1);
    const dropped = await apply(org, noSearch, '?prune=true');
    expect(dropped.status).toBe(200);
    expect(
      dropped.body.changes
        .filter((c: { action: string }) => c.action === 'delete')
        .map((c: { kind: string; config_key: string }) => `${c.kind}:${c.config_key}`)
        .sort(),
    ).toEqual(['metric:search-heartbeat', 'service:search']);
  });

  it('answers 409 in_use when a prune would delete what an item outside the document uses, and writes nothing', async () => {
    const org = await freshOrg();
    const doc = baseDocument(`cfg-iu-${Date.now().toString(36)}`);
    const first = await apply(org, doc);
    const httpId = first.body.changes.find((c: { config_key: string }) => c.config_key === 'checkout-http').id;
    const outside = await api.request('POST', '/v1/slos', {
      key: org.key,
      body: { name: 'Hand-made SLO', metric_id: httpId, objective: '99', window: { kind: 'rolling', days: 7 } },
    });
    expect(outside.status).toBe(201);

    const withoutHttp = { ...doc, metrics: doc.metrics.slice(1), slos: doc.slos.slice(0, 1) };
    const res = await apply(org, withoutHttp, '?prune=true');
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({
      title: 'in_use',
      referenced_by: {
        slos: [{ id: outside.body.id, config_key: null, name: 'Hand-made SLO' }],
        pages: [],
        subscribers: 0,
      },
    });
    expect((await api.request('GET', `/v1/metrics/${httpId}`, { key: org.key })).status).toBe(200);
    expect((await api.request('GET', '/v1/slos', { key: org.key })).body.items).toHaveLength(3);
  });

  it('reports every problem of an invalid document at once, with its path, and writes nothing', async () => {
    const org = await freshOrg();
    const other = await freshOrg();
    const foreign = await api.request('POST', '/v1/services', { key: other.key, body: { name: 'Not yours' } });
    const res = await apply(org, {
      version: 1,
      servics: [],
      customers: [{ config_key: 'acme', name: 'Acme', contact_email: 'not-an-email' }],
      services: [
        { config_key: 'checkout', name: 'Checkout' },
        { config_key: 'checkout', name: 'Checkout again' },
        { config_key: 'Bad Key', name: 'x' },
      ],
      metrics: [
        {
          config_key: 'm0',
          service: 'checkout',
          name: 'x',
          source_type: 'tcp',
          source_config: { host: 'db', port: 5432 },
          thresholds: { ...HTTP_THRESHOLDS, healthy_value: 'fast' },
          agent: 'nowhere',
        },
        { config_key: 'm1', service: 'checkout', name: 'x', source_type: 'nope', source_config: {} },
        { config_key: 'm2', service: 'missing', name: 'x', source_type: 'manual', source_config: {} },
        { config_key: 'm3', service: 'checkout', name: 'x', source_type: 'http', source_config: {} },
        { config_key: 'm4', service: foreign.body.id, name: 'x', source_type: 'manual', source_config: {} },
        // An HTTP check without thresholds is an up/down check; a TCP one still needs them.
        {
          config_key: 'm5',
          service: 'checkout',
          name: 'x',
          source_type: 'tcp',
          source_config: { host: 'db', port: 5432 },
        },
      ],
      slos: [
        {
          config_key: 's0',
          name: 'x',
          metric: 'm2',
          service: 'checkout',
          objective: '99.9',
          window: { kind: 'rolling', days: 30 },
        },
      ],
      status_pages: [
        {
          config_key: 'p0',
          subdomain: 'A!',
          title: 'x',
          groups: [{ name: 'g', components: [{ service: 'checkout' }, { service: 'checkout' }] }],
        },
      ],
      webhooks: [{ config_key: 'w0', url: 'https://example.com/hook', event_types: ['nope.event'] }],
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(res.body.title).toBe('config_invalid');
    const paths = res.body.errors.map((e: { path: string }) => e.path).sort();
    expect(paths).toEqual(
      [
        'servics',
        'customers[0].contact_email',
        'services[1].config_key',
        'services[2].config_key',
        'metrics[0].thresholds.healthy_value',
        'metrics[0].agent',
        'metrics[1].source_type',
        'metrics[2].service',
        'metrics[3].source_config.url',
        'metrics[4].service',
        'metrics[5].thresholds',
        'slos[0].metric',
        'status_pages[0].subdomain',
        'status_pages[0].groups[0].components[1].service',
        'webhooks[0].event_types[0]',
      ].sort(),
    );
    for (const e of res.body.errors) expect(e.message.length).toBeGreaterThan(3);
    expect((await api.request('GET', '/v1/services', { key: org.key })).body.items).toHaveLength(0);
  });

  it('warns about an agent that has never connected, and still applies', async () => {
    const org = await freshOrg();
    const agent = await api.request('POST', '/v1/agents', { key: org.key, body: { name: 'edge-1' } });
    expect(agent.status).toBe(201);
    const doc = {
      version: 1,
      services: [{ config_key: 'db', name: 'Database' }],
      metrics: [
        {
          config_key: 'db-tcp',
          service: 'db',
          name: 'Port',
          source_type: 'tcp',
          source_config: { host: 'db.internal', port: 5432 },
          thresholds: HTTP_THRESHOLDS,
          agent: 'edge-1',
        },
      ],
      webhooks: [{ config_key: 'plain', url: 'http://hooks.internal/vigil', event_types: ['incident.created'] }],
    };
    const res = await apply(org, doc);
    expect(res.status).toBe(200);
    expect(res.body.warnings).toEqual([
      { path: 'metrics[0].agent', message: expect.stringMatching(/never connected/) },
      { path: 'webhooks[0].url', message: expect.stringMatching(/unencrypted/) },
    ]);
    const metric = (await api.request('GET', '/v1/metrics', { key: org.key })).body.items[0];
    expect(metric.agent_id).toBe(agent.body.id);
    // By id too, and the same agent by name or id is no change.
    doc.metrics[0]!.agent = agent.body.id;
    expect((await apply(org, doc)).body.changed).toBe(false);
  });

  it("serializes concurrent applies: each key is created once, and the loser sees the winner's work", async () => {
    const org = await freshOrg();
    const docA = {
      version: 1,
      services: [
        { config_key: 'x', name: 'X' },
        { config_key: 'y', name: 'Y' },
      ],
    };
    const docB = {
      version: 1,
      services: [
        { config_key: 'y', name: 'Y' },
        { config_key: 'z', name: 'Z' },
      ],
    };
    const results = await Promise.all([apply(org, docA), apply(org, docB), apply(org, docA), apply(org, docB)]);
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const created = results
      .flatMap((r) =>
        r.body.changes
          .filter((c: { action: string }) => c.action === 'create')
          .map((c: { config_key: string }) => c.config_key),
      )
      .sort();
    expect(created).toEqual(['x', 'y', 'z']);
    const services = (await api.request('GET', '/v1/services', { key: org.key })).body.items;
    expect(services.map((x: { config_key: string }) => x.config_key).sort()).toEqual(['x', 'y', 'z']);
  });

  it('answers 409 config_busy when another apply holds the organization for longer than the lock wait', async () => {
    const org = await freshOrg();
    const holder = new Client({ connectionString: testDatabaseUrl() });
    await holder.connect();
    try {
      await holder.query('begin');
      await holder.query('select id from organizations where id = $1 for update', [org.id]);
      const started = Date.now();
      const res = await apply(org, { version: 1, services: [{ config_key: 'x', name: 'X' }] });
      expect([res.status, res.body.title]).toEqual([409, 'config_busy']);
      expect(Date.now() - started).toBeGreaterThanOrEqual(900);
      // A dry run takes no lock.
      expect(
        (await apply(org, { version: 1, services: [{ config_key: 'x', name: 'X' }] }, '?dry_run=true')).status,
      ).toBe(200);
    } finally {
      await holder.query('rollback');
      await holder.end();
    }
    expect((await apply(org, { version: 1, services: [{ config_key: 'x', name: 'X' }] })).body.summary.create).toBe(1);
  });

  it("applies the plan's quotas to the result, naming the quota, and writes nothing", async () => {
    const org = await freshOrg('team');
    const services = Array.from({ length: 26 }, (_, i) => ({ config_key: `s${i}`, name: `Service ${i}` }));
    const res = await apply(org, { version: 1, services });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({
      title: 'quota_exceeded',
      quota: { capability: 'services', used: 0, cap: 25, plan: 'team' },
      upgrade: { plan: 'business' },
    });
    expect((await api.request('GET', '/v1/services', { key: org.key })).body.items).toHaveLength(0);
    // Deleting in the same document makes room.
    await apply(org, { version: 1, services: services.slice(0, 25) });
    const swapped = await apply(
      org,
      { version: 1, services: [...services.slice(1, 25), services[25]!] },
      '?prune=true',
    );
    expect([swapped.status, swapped.body.summary]).toEqual([200, { create: 1, update: 0, delete: 1, unchanged: 24 }]);
    const customers = await apply(org, { version: 1, customers: [{ config_key: 'c', name: 'C' }] });
    expect([customers.status, customers.body.title, customers.body.quota?.capability]).toEqual([
      403,
      'feature_locked',
      'customers',
    ]);
  });

  it('needs write:config to apply, read:config to export, and write:sla besides for contracts', async () => {
    const org = await freshOrg();
    const readOnly = await api.mintKey(org.id, ['read:config']);
    const writer = await api.mintKey(org.id, ['write:config']);
    const doc = {
      version: 1,
      customers: [{ config_key: 'acme', name: 'Acme', contact_email: 'billing@acme.example' }],
      services: [{ config_key: 'api', name: 'API' }],
    };
    expect((await api.request('POST', '/v1/config/apply', { key: readOnly, body: doc })).body.title).toBe('forbidden');
    expect((await api.request('POST', '/v1/config/apply', { key: writer, body: doc })).status).toBe(200);
    expect((await api.request('GET', '/v1/config/export', { key: writer })).body.title).toBe('forbidden');
    expect((await api.request('GET', '/v1/config/export', { key: readOnly })).body.services).toEqual([
      { config_key: 'api', name: 'API' },
    ]);

    const contract = {
      config_key: 'acme-sla',
      customer: 'acme',
      name: 'Acme SLA',
      services: ['api'],
      sla_target_pct: '99.9',
      timezone: 'Europe/Berlin',
      currency: 'EUR',
      monthly_fee_minor: 500000,
      effective_from: '2026-01-01',
      credit_terms: { type: 'proportional', multiplier: '10', maintenance_notice_hours: 72 },
    };
    const withContract = { ...doc, contracts: [contract] };
    const refused = await api.request('POST', '/v1/config/apply', { key: writer, body: withContract });
    expect([refused.status, refused.body.title, refused.body.detail, refused.body.errors ?? undefined]).toEqual([
      403,
      'forbidden',
      expect.stringMatching(/write:sla/),
      undefined,
    ]);
    const slaWriter = await api.mintKey(org.id, ['write:config', 'write:sla']);
    const applied = await api.request('POST', '/v1/config/apply', { key: slaWriter, body: withContract });
    expect([applied.status, applied.body.summary.create]).toEqual([200, 1]);
    const contracts = await api.request('GET', '/v1/contracts', { key: org.key });
    expect(contracts.body.items).toEqual([
      expect.objectContaining({ config_key: 'acme-sla', name: 'Acme SLA', currency: 'EUR' }),
    ]);
    expect((await api.request('POST', '/v1/config/apply', { key: slaWriter, body: withContract })).body.changed).toBe(
      false,
    );
  });

  it('exports a document that applies back with an empty plan, as JSON and as YAML', async () => {
    const org = await freshOrg();
    const doc = baseDocument(`cfg-rt-${Date.now().toString(36)}`);
    await apply(org, {
      ...doc,
      contracts: [
        {
          config_key: 'acme-sla',
          customer: 'acme',
          name: 'Acme SLA',
          services: ['checkout'],
          slos: ['http-avail'],
          sla_target_pct: '99.5',
          timezone: 'America/New_York',
          currency: 'USD',
          monthly_fee_minor: 120000,
          effective_from: '2026-02-01',
          credit_terms: {
            type: 'tiered',
            steps: [
              { below_pct: '99.5', credit_pct: '10' },
              { below_pct: '99', credit_pct: '25' },
            ],
            maintenance_notice_hours: 48,
          },
          finance_contacts: ['fin@example.com'],
        },
      ],
    });
    const exported = await api.request('GET', '/v1/config/export', { key: org.key });
    expect(exported.status).toBe(200);
    expect(exported.body.$schema).toMatch(/\/v1\/config\/schema\.json$/);
    expect(Object.keys(exported.body)).toEqual([
      'version',
      '$schema',
      'customers',
      'services',
      'metrics',
      'slos',
      'status_pages',
      'webhooks',
      'contracts',
    ]);
    expect(exported.body.metrics.find((m: { config_key: string }) => m.config_key === 'checkout-manual')).toEqual({
      config_key: 'checkout-manual',
      service: 'checkout',
      name: 'Payments provider',
      source_type: 'manual',
      source_config: {},
      interval_seconds: 60,
    });
    const back = await apply(org, exported.body, '?prune=true');
    expect([back.status, back.body.changed, back.body.summary.unchanged]).toEqual([200, false, 11]);

    const yaml = await api.request('GET', '/v1/config/export?format=yaml', { key: org.key });
    expect(yaml.headers.get('content-type')).toMatch(/^application\/yaml/);
    expect(yaml.text).toMatch(/^# Vigil configuration/);
    expect(parseYaml(yaml.text)).toEqual(
      Object.fromEntries(Object.entries(exported.body).filter(([k]) => k !== '$schema')),
    );
    const viaAccept = await api.request('GET', '/v1/config/export', {
      key: org.key,
      headers: { accept: 'application/yaml' },
    });
    const withoutStamp = (t: string) => t.split('\n').slice(1).join('\n');
    expect(withoutStamp(viaAccept.text)).toBe(withoutStamp(yaml.text));
    const yamlBack = await api.request('POST', '/v1/config/apply?prune=true', {
      key: org.key,
      rawBody: yaml.text,
      headers: { 'content-type': 'application/yaml' },
    });
    expect([yamlBack.status, yamlBack.body.changed]).toEqual([200, false]);
  });

  it('adopts items created outside config as code through an export with include_unmanaged', async () => {
    const org = await freshOrg();
    const svc = await api.request('POST', '/v1/services', { key: org.key, body: { name: 'Payments API' } });
    const metric = await api.request('POST', '/v1/metrics', {
      key: org.key,
      body: { service_id: svc.body.id, name: 'Provider status', source_type: 'manual', source_config: {} },
    });
    expect((await api.request('GET', '/v1/config/export', { key: org.key })).body.services).toEqual([]);
    const exported = (await api.request('GET', '/v1/config/export?include_unmanaged=true', { key: org.key })).body;
    expect(exported.services).toEqual([{ config_key: 'payments-api', id: svc.body.id, name: 'Payments API' }]);
    expect(exported.metrics[0]).toMatchObject({
      config_key: 'provider-status',
      id: metric.body.id,
      service: 'payments-api',
    });
    const adopted = await apply(org, exported);
    expect(adopted.body.summary).toEqual({ create: 0, update: 2, delete: 0, unchanged: 0 });
    expect(adopted.body.changes[0].diff).toEqual([{ field: 'config_key', before: null, after: 'payments-api' }]);
    expect((await api.request('GET', `/v1/services/${svc.body.id}`, { key: org.key })).body.config_key).toBe(
      'payments-api',
    );
    const managed = (await api.request('GET', '/v1/config/export', { key: org.key })).body;
    expect(managed.metrics).toEqual([
      {
        config_key: 'provider-status',
        service: 'payments-api',
        name: 'Provider status',
        source_type: 'manual',
        source_config: {},
        interval_seconds: 60,
      },
    ]);
    expect((await apply(org, managed)).body.changed).toBe(false);
    // An id that already carries another key is refused.
    // Keys are unique among live items of a kind, SLOs included.
    const slo = {
      name: 'x',
      config_key: 'dup',
      service_id: svc.body.id,
      objective: '99',
      window: { kind: 'rolling', days: 7 },
    };
    expect((await api.request('POST', '/v1/slos', { key: org.key, body: slo })).status).toBe(201);
    const second = await api.request('POST', '/v1/slos', { key: org.key, body: slo });
    expect([second.status, second.body.title]).toEqual([409, 'config_key_taken']);
    const clash = await apply(org, {
      version: 1,
      services: [{ config_key: 'other', id: svc.body.id, name: 'Payments API' }],
    });
    expect(clash.body.errors).toEqual([
      { path: 'services[0].id', message: 'The service already has config_key "payments-api"' },
    ]);
  });

  it('reads YAML, with line numbers in its problems, and refuses YAML that does not parse', async () => {
    const org = await freshOrg();
    const text = [
      'version: 1',
      'services:',
      '  - config_key: web',
      '    name: Web',
      'metrics:',
      '  - config_key: web-up',
      '    service: web',
      '    name: Up',
      '    source_type: http',
      '    source_config:',
      '      url: https://web.example.com',
      '    thresholds:',
      '      healthy_operation: sideways',
      '      healthy_value: 300',
      '      unhealthy_operation: over',
      '      unhealthy_value: 1000',
      '',
    ].join('\n');
    const res = await api.request('POST', '/v1/config/apply', {
      key: org.key,
      rawBody: text,
      headers: { 'content-type': 'application/yaml' },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      { path: 'metrics[0].thresholds.healthy_operation', message: expect.stringMatching(/\(line 13\)$/) },
    ]);
    const broken = await api.request('POST', '/v1/config/apply', {
      key: org.key,
      rawBody: 'version: 1\nservices:\n  - config_key: a\n    name: [unclosed\n',
      headers: { 'content-type': 'text/yaml' },
    });
    expect([broken.status, broken.body.title]).toEqual([400, 'config_invalid']);
    expect(broken.body.errors[0]).toEqual({ path: '', message: expect.stringMatching(/line \d+, column \d+/) });
    const dupKeys = await api.request('POST', '/v1/config/apply', {
      key: org.key,
      rawBody: 'version: 1\nversion: 1\n',
      headers: { 'content-type': 'application/yaml' },
    });
    expect(dupKeys.body.title).toBe('config_invalid');
    const ok = await api.request('POST', '/v1/config/apply', {
      key: org.key,
      rawBody: text.replace('sideways', 'under'),
      headers: { 'content-type': 'application/yaml' },
    });
    expect([ok.status, ok.body.summary.create]).toEqual([200, 2]);
  });

  it('refuses what cannot change or is not a document: a new source_type, a non-object body, an unknown version', async () => {
    const org = await freshOrg();
    await apply(org, {
      version: 1,
      services: [{ config_key: 'a', name: 'A' }],
      metrics: [{ config_key: 'm', service: 'a', name: 'M', source_type: 'manual', source_config: {} }],
    });
    const changed = await apply(org, {
      version: 1,
      metrics: [
        {
          config_key: 'm',
          service: 'a',
          name: 'M',
          source_type: 'heartbeat',
          source_config: {},
          thresholds: HTTP_THRESHOLDS,
        },
      ],
    });
    expect(changed.body.errors).toEqual([
      { path: 'metrics[0].source_type', message: expect.stringMatching(/cannot change/) },
    ]);
    const notObject = await api.request('POST', '/v1/config/apply', {
      key: org.key,
      rawBody: '[1,2]',
      headers: { 'content-type': 'application/json' },
    });
    expect([notObject.status, notObject.body.title]).toEqual([400, 'invalid_json']);
    const noBody = await api.request('POST', '/v1/config/apply', { key: org.key });
    expect([noBody.status, noBody.body.title, noBody.body.errors]).toEqual([
      400,
      'config_invalid',
      [{ path: '', message: expect.any(String) }],
    ]);
    const v2 = await apply(org, { version: 2 });
    expect(v2.body.errors).toEqual([{ path: 'version', message: expect.stringMatching(/version 1/) }]);
    // Hostile nesting is refused before anything recurses into it.
    const deep = (n: number) =>
      `{"version":1,"services":[{"config_key":"a","name":"A"}],"metrics":[{"config_key":"m","service":"a","name":"M","source_type":"manual","source_config":{"x":${'['.repeat(n)}${']'.repeat(n)}}}]}`;
    const tooDeep = await api.request('POST', '/v1/config/apply?dry_run=true', {
      key: org.key,
      rawBody: deep(50_000),
      headers: { 'content-type': 'application/json' },
    });
    expect([tooDeep.status, tooDeep.body.title, tooDeep.body.detail]).toEqual([
      400,
      'invalid_json',
      expect.stringMatching(/deeper than 64/),
    ]);
    expect(
      (
        await api.request('POST', '/v1/config/apply?dry_run=true', {
          key: org.key,
          rawBody: deep(50),
          headers: { 'content-type': 'application/json' },
        })
      ).status,
    ).toBe(200);
    const deepYaml = await api.request('POST', '/v1/config/apply?dry_run=true', {
      key: org.key,
      rawBody: `version: 1\nservices: ${'['.repeat(50_000)}${']'.repeat(50_000)}`,
      headers: { 'content-type': 'application/yaml' },
    });
    expect([deepYaml.status, deepYaml.body.title]).toEqual([400, 'config_invalid']);
    const xml = await api.request('POST', '/v1/config/apply', {
      key: org.key,
      rawBody: '<config/>',
      headers: { 'content-type': 'application/xml' },
    });
    expect([xml.status, xml.body.title]).toEqual([415, 'unsupported_media_type']);
  });

  it("publishes the document's JSON Schema, which accepts a real document and names the mistakes of a bad one", async () => {
    const res = await api.request('GET', '/v1/config/schema.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/schema\+json/);
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    const validate = ajv.compile(res.body);
    expect(validate(baseDocument('schema-check'))).toBe(true);
    expect(validate({ version: 1, services: [{ config_key: 'UPPER', name: 'x', colour: 'red' }] })).toBe(false);
    expect(validate.errors!.map((e) => e.instancePath)).toEqual(expect.arrayContaining(['/services/0/config_key']));
  });
});

describe('config documents and YAML exports are plain data', () => {
  it('round-trips a document through YAML text unchanged', () => {
    const doc = baseDocument('yaml-rt');
    expect(parseYaml(toYaml(doc))).toEqual(doc);
  });
});
