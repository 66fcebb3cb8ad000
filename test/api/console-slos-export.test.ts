import { parse as parseYaml } from 'yaml';
import { CONFIG_KINDS, SECTION_OF } from '../../src/domain/config/kinds';
import { createMailer, type Mailer } from '../../src/infra/mailer';
import { type ApiHarness, type TestOrg, startApi } from '../support/api-harness';
import { type ConsoleClient, type PageResult, csrfOf, signedInClient } from '../support/console-browser';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink';

/**
 * SLOs in the console and "Export as YAML", over real HTTP against the API and the
 * suite's PostgreSQL; every export is applied back through the API's own apply.
 */
let api: ApiHarness;
let smtp: SmtpSink;
let mailer: Mailer;
let org: TestOrg;
let other: TestOrg;
let operator: ConsoleClient;
let viewer: ConsoleClient;
let ids: Record<string, string>;

const tag = `${process.pid}-${Date.now().toString(36)}`;
const textOf = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n)))
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
const THRESHOLDS = {
  healthy_operation: 'under',
  healthy_value: 300,
  unhealthy_operation: 'over',
  unhealthy_value: 1000,
};

/** A document with an item of every kind, contracts included. */
function documentFor(sub: string) {
  return {
    version: 1,
    customers: [{ config_key: 'acme', name: 'Acme Corp', contact_email: 'billing@acme.example' }],
    services: [{ config_key: 'checkout', name: 'Checkout' }],
    metrics: [
      {
        config_key: 'checkout-http',
        service: 'checkout',
        name: 'Checkout HTTP',
        source_type: 'http',
        source_config: { url: 'https://checkout.example.com/health' },
        thresholds: THRESHOLDS,
        interval_seconds: 30,
      },
      {
        config_key: 'checkout-manual',
        service: 'checkout',
        name: 'Payments provider',
        source_type: 'manual',
        source_config: {},
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
        groups: [{ name: 'Shop', components: [{ service: 'checkout' }, { slo: 'checkout-avail' }] }],
      },
    ],
    webhooks: [{ config_key: 'ops', url: 'https://hooks.example.com/vigil', event_types: ['incident.created'] }],
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
          steps: [{ below_pct: '99.5', credit_pct: '10' }],
          maintenance_notice_hours: 48,
        },
        finance_contacts: ['fin@example.com'],
      },
    ],
  };
}

beforeAll(async () => {
  smtp = await startSmtpSink();
  mailer = createMailer({ smtpUrl: smtp.url, from: 'Vigil <console@vigil.test>', outboxDir: '/nonexistent' });
  api = await startApi({ console: { mail: mailer } });
  [org, other] = await Promise.all([
    api.createOrg('enterprise', 'SLO org'),
    api.createOrg('enterprise', 'Other SLO org'),
  ]);
  const applied = await api.request('POST', '/v1/config/apply', { key: org.key, body: documentFor(`slo-${tag}`) });
  expect(applied.status).toBe(200);
  ids = Object.fromEntries(applied.body.changes.map((c: { config_key: string; id: string }) => [c.config_key, c.id]));
  const theirs = documentFor(`slo-other-${tag}`);
  theirs.slos[0]!.name = 'Their secret SLO';
  theirs.services[0]!.name = 'Their checkout';
  expect((await api.request('POST', '/v1/config/apply', { key: other.key, body: theirs })).status).toBe(200);
  [operator, viewer] = await Promise.all([
    signedInClient(api, smtp, org.id, `ops-${tag}@slo.test`, 'operator'),
    signedInClient(api, smtp, org.id, `viewer-${tag}@slo.test`, 'viewer'),
  ]);
}, 60_000);
afterAll(async () => {
  await api?.close();
  await mailer?.close();
  await smtp?.close();
});

function redirectedId(res: PageResult): string {
  const m = /^\/console\/slos\/([0-9a-f-]{36})$/.exec(res.headers.get('location') ?? '');
  if (res.status !== 303 || !m)
    throw new Error(`answered ${res.status} ${res.headers.get('location')}: ${textOf(res.text).slice(0, 400)}`);
  return m[1]!;
}

const SLO_FORM = {
  name: 'Console SLO',
  target: '',
  objective: '99.5',
  'window.kind': 'rolling',
  'window.days': '7',
  'window.timezone': '',
  no_data: 'bad',
  maintenance: 'excluded',
  degraded: 'good',
};

describe('console SLOs', () => {
  it('lists SLOs with their target, window and attainment, marks the managed ones and links the YAML export', async () => {
    const list = await operator.get('/console/slos');
    expect(list.status).toBe(200);
    expect(list.text).toContain('href="/console/export/slo.yaml"');
    expect(list.text).toContain('Checkout availability');
    expect(list.text).toContain('(config: <code>checkout-avail</code>)');
    expect(textOf(list.text)).toContain('calendar month (Europe/Berlin)');
    expect(textOf(list.text)).toContain('service Checkout');
    expect(list.text).not.toContain('Their secret SLO');
    expect(list.text).toContain('href="/console/slos/new"');
  });

  it('creates an SLO through the form, as POST /v1/slos would, and the API agrees', async () => {
    const form = await operator.get('/console/slos/new');
    expect(form.text).toContain(`value="service:${ids.checkout}"`);
    expect(form.text).toContain(`value="metric:${ids['checkout-manual']}"`);
    expect(form.text).not.toContain('Their checkout');
    const id = redirectedId(
      await operator.submit('/console/slos/new', '/console/slos/new', {
        ...SLO_FORM,
        target: `metric:${ids['checkout-manual']}`,
      }),
    );
    const page = await operator.get(`/console/slos/${id}`);
    expect(page.text).toContain('Created the SLO Console SLO.');
    expect(page.text).not.toContain('Managed by config as code');
    const api1 = await api.request('GET', `/v1/slos/${id}`, { key: org.key });
    expect(api1.body).toMatchObject({
      name: 'Console SLO',
      metric_id: ids['checkout-manual'],
      service_id: null,
      objective: '99.5',
      window: { kind: 'rolling', days: 7 },
      no_data: 'bad',
      config_key: null,
    });
  });

  it('refuses what the API refuses, with each error next to its field and the input kept', async () => {
    const none = await operator.submit('/console/slos/new', '/console/slos/new', {
      ...SLO_FORM,
      name: 'Broken',
      objective: 'lots',
      'window.days': '0',
    });
    expect(none.status).toBe(400);
    expect(none.text).toMatch(/id="f-target"[^>]*aria-invalid="true"/);
    expect(none.text).toMatch(/id="f-objective"[^>]*aria-invalid="true"/);
    expect(none.text).toMatch(/id="f-window-days"[^>]*aria-invalid="true"/);
    expect(textOf(none.text)).toContain('Give a whole number of days from 1 to 366');
    expect(none.text).toContain('value="Broken"');
    expect(none.text).toContain('value="lots"');
    // The use case's own checks: a time zone that does not exist.
    const zone = await operator.submit('/console/slos/new', '/console/slos/new', {
      ...SLO_FORM,
      target: `service:${ids.checkout}`,
      'window.kind': 'calendar_month',
      'window.timezone': 'Mars/Olympus',
    });
    expect(zone.status).toBe(400);
    expect(zone.text).toMatch(/id="f-window-timezone"[^>]*aria-invalid="true"/);
    expect(zone.text).toContain('value="Mars/Olympus"');
    // Another organization's service is no target.
    const theirs = (await api.request('GET', '/v1/services', { key: other.key })).body.items[0].id;
    const foreign = await operator.submit('/console/slos/new', '/console/slos/new', {
      ...SLO_FORM,
      target: `service:${theirs}`,
    });
    expect(foreign.status).toBe(400);
    expect(foreign.text).toMatch(/id="f-target"[^>]*aria-invalid="true"/);
    expect(textOf(foreign.text)).toContain('No such service in this organization');
  });

  it('edits a managed SLO with the config-as-code warning, and deletes an SLO after asking', async () => {
    const id = ids['checkout-avail']!;
    const page = await operator.get(`/console/slos/${id}`);
    expect(page.text).toContain('Managed by config as code');
    expect(textOf(page.text)).toContain('Edits made here are overwritten by the next vigil config apply');
    const saved = await operator.post(`/console/slos/${id}`, {
      _csrf: csrfOf(page.text),
      ...SLO_FORM,
      name: 'Checkout availability',
      objective: '99.95',
      'window.days': '30',
      no_data: 'excluded',
    });
    expect(saved.status).toBe(303);
    expect((await operator.get(`/console/slos/${id}`)).text).toContain(
      'the next apply of its document overwrites this edit',
    );
    expect((await api.request('GET', `/v1/slos/${id}`, { key: org.key })).body).toMatchObject({
      objective: '99.95',
      config_key: 'checkout-avail',
    });
    // The document wins again on the next apply.
    const reapplied = await api.request('POST', '/v1/config/apply', { key: org.key, body: documentFor(`slo-${tag}`) });
    expect(reapplied.body.summary.update).toBe(1);
    expect((await api.request('GET', `/v1/slos/${id}`, { key: org.key })).body.objective).toBe('99.9');

    // Shown on a status page: the delete is refused in words (in_use), nothing deleted.
    const confirm = await operator.get(`/console/slos/${id}/delete`);
    expect(textOf(confirm.text)).toContain('Delete the SLO Checkout availability');
    const refused = await operator.post(`/console/slos/${id}/delete`, { _csrf: csrfOf(confirm.text) });
    expect(refused.status).toBe(409);
    expect(refused.text).toContain('in_use');

    const made = redirectedId(
      await operator.submit('/console/slos/new', '/console/slos/new', {
        ...SLO_FORM,
        name: 'Short-lived SLO',
        target: `service:${ids.checkout}`,
      }),
    );
    const deleted = await operator.submit(`/console/slos/${made}/delete`, `/console/slos/${made}/delete`, {});
    expect([deleted.status, deleted.headers.get('location')]).toEqual([303, '/console/slos']);
    expect((await operator.get('/console/slos')).text).toContain('Deleted the SLO Short-lived SLO.');
    expect((await api.request('GET', `/v1/slos/${made}`, { key: org.key })).status).toBe(404);
  });

  it('lets a viewer read but not change SLOs, and answers 404 for another organization’s SLO', async () => {
    const list = await viewer.get('/console/slos');
    expect(list.status).toBe(200);
    expect(list.text).not.toContain('href="/console/slos/new"');
    const detail = await viewer.get(`/console/slos/${ids['checkout-avail']}`);
    expect(detail.status).toBe(200);
    expect(detail.text).not.toContain('<h2>Edit</h2>');
    expect((await viewer.get('/console/slos/new')).status).toBe(403);
    const csrf = csrfOf(list.text);
    expect(
      (await viewer.post('/console/slos/new', { _csrf: csrf, ...SLO_FORM, target: `service:${ids.checkout}` })).status,
    ).toBe(403);
    expect((await viewer.post(`/console/slos/${ids['checkout-avail']}/delete`, { _csrf: csrf })).status).toBe(403);
    const theirs = (await api.request('GET', '/v1/slos', { key: other.key })).body.items[0].id;
    expect((await operator.get(`/console/slos/${theirs}`)).status).toBe(404);
    expect((await operator.submit('/console/slos', `/console/slos/${theirs}/delete`, {})).status).toBe(404);
  });
});

describe('console YAML export', () => {
  it.each(CONFIG_KINDS)('exports the %s section as a file that applies back with no changes', async (kind) => {
    const res = await viewer.get(`/console/export/${kind}.yaml`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/yaml; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="vigil-${SECTION_OF[kind].replace(/_/g, '-')}.yaml"`,
    );
    const doc = parseYaml(res.text) as Record<string, unknown>;
    expect(Object.keys(doc)).toEqual(['version', SECTION_OF[kind]]);
    const items = doc[SECTION_OF[kind]] as { config_key: string; name?: string; title?: string }[];
    expect(items.length).toBeGreaterThan(0);
    // Exactly the organization's managed items of the kind (another organization uses the same keys, with other names).
    expect(items.map((i) => i.config_key).sort()).toEqual(
      (documentFor('')[SECTION_OF[kind] as keyof ReturnType<typeof documentFor>] as { config_key: string }[])
        .map((i) => i.config_key)
        .sort(),
    );
    expect(res.text).not.toMatch(/Their (secret SLO|checkout)/);
    // The API's own plan (the apply use case, dry run) finds nothing to do, and a real apply changes nothing.
    const plan = await api.request('POST', '/v1/config/apply?dry_run=true', {
      key: org.key,
      rawBody: res.text,
      headers: { 'content-type': 'application/yaml' },
    });
    expect([plan.status, plan.body.changed, plan.body.summary]).toEqual([
      200,
      false,
      expect.objectContaining({ create: 0, update: 0, delete: 0 }),
    ]);
    const applied = await api.request('POST', '/v1/config/apply?prune=true', {
      key: org.key,
      rawBody: res.text,
      headers: { 'content-type': 'application/yaml' },
    });
    expect([applied.status, applied.body.changed]).toEqual([200, false]);
  });

  it('adds the items made in the console with include_unmanaged=true, each with its id, as the API does', async () => {
    const managed = parseYaml((await operator.get('/console/export/slo.yaml')).text) as {
      slos: { config_key: string; id?: string; name: string }[];
    };
    expect(managed.slos.every((s) => s.id === undefined)).toBe(true);
    expect(managed.slos.map((s) => s.name)).not.toContain('Console SLO');
    const all = parseYaml((await operator.get('/console/export/slo.yaml?include_unmanaged=true')).text) as {
      slos: { config_key: string; id?: string; name: string }[];
    };
    expect(all.slos).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'Console SLO', config_key: 'console-slo', id: expect.any(String) }),
      ]),
    );
  });

  it('answers 404 for a kind that is not one', async () => {
    for (const path of ['/console/export/users.yaml', '/console/export/slo.json', '/console/export/slo']) {
      const res = await operator.get(path);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    }
  });
});
