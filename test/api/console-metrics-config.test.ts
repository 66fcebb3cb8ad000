import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ALL_SOURCE_TYPES } from '../../src/domain/source-types';
import { type Mailer, createMailer } from '../../src/infra/mailer';
import { temporalProbeTestRunner } from '../../src/temporal/probe-test-runner';
import { type ApiHarness, startApi } from '../support/api-harness';
import { type ConsoleClient, csrfOf, signedInClient } from '../support/console-browser';
import { type OrgFixture, orgWithKeys } from '../support/org-fixture';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink';
import { type TemporalHarness, startTemporalHarness } from '../support/temporal-harness';

/**
 * Metric configuration in the console: create and edit forms for every source type with
 * the API's validation, Test this probe before saving (a real Temporal worker probing a loopback
 * target), delete with confirmation, pause and resume; roles and organizations.
 */
let h: TemporalHarness;
let api: ApiHarness;
let smtp: SmtpSink;
let mailer: Mailer;
let org: OrgFixture<never, 'Checkout' | 'Search'>;
let other: OrgFixture<never, 'Elsewhere'>;
let operator: ConsoleClient;
let viewer: ConsoleClient;
let finance: ConsoleClient;
let target: http.Server;
let targetUrl: string;
let probed = 0;

const THRESHOLDS = {
  healthy_operation: 'under',
  healthy_value: 300,
  unhealthy_operation: 'over',
  unhealthy_value: 800,
};

beforeAll(async () => {
  h = await startTemporalHarness();
  smtp = await startSmtpSink();
  mailer = createMailer({ smtpUrl: smtp.url, from: 'Vigil <console@vigil.test>', outboxDir: '/nonexistent' });
  api = await startApi({
    probeTestRunner: temporalProbeTestRunner(h.temporal, { eagerClient: h.worker.eagerClient }),
    localProbeJobs: h.worker.localProbeJobs,
    probeTestExpiryMs: 60_000,
    console: { mail: mailer, temporalUiUrl: null },
  });
  org = await orgWithKeys(api, { name: 'Metric config org', plan: 'enterprise', services: ['Checkout', 'Search'] });
  other = await orgWithKeys(api, { name: 'Other metric org', services: ['Elsewhere'] });
  [operator, viewer, finance] = await Promise.all([
    signedInClient(api, smtp, org.id, 'ops@metric-config.test', 'operator'),
    signedInClient(api, smtp, org.id, 'look@metric-config.test', 'viewer'),
    signedInClient(api, smtp, org.id, 'money@metric-config.test', 'finance'),
  ]);
  target = http.createServer((_req, res) => {
    probed++;
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ depth: 17 }));
  });
  await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
  targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}/stats`;
}, 180_000);
afterAll(async () => {
  target?.closeAllConnections();
  await new Promise((r) => target?.close(r));
  await api?.close();
  await h?.close();
  await mailer?.close();
  await smtp?.close();
});

const textOf = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n)))
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
/** The error shown next to a form field (`f-<name>-error`), in words; '' when none. */
function fieldError(html: string, name: string): string {
  const id = `f-${name.replace(/[^A-Za-z0-9_-]/g, '-')}-error`;
  const m = new RegExp(`id="${id}">([^<]*)<`).exec(html);
  return m ? m[1]!.replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n))).replace(/&quot;|&#34;/g, '"') : '';
}
const metricsOf = async (o: OrgFixture<string, string>) =>
  (await o.call('GET', '/v1/metrics?limit=200')).body.items as any[];

function httpForm(csrf: string, over: Record<string, string> = {}): Record<string, string> {
  return {
    _csrf: csrf,
    _action: 'save',
    source_type: 'http',
    service_id: org.services.Checkout,
    name: 'Checkout stats',
    interval_seconds: '60',
    agent_id: '',
    unit: '',
    'source_config.url': targetUrl,
    'source_config.method': '',
    'source_config.headers': 'X-Team: checkout',
    'source_config.expected_status': '200, 204',
    'source_config.timeout_ms': '5000',
    'thresholds.healthy_operation': 'under',
    'thresholds.healthy_value': '300',
    'thresholds.unhealthy_operation': 'over',
    'thresholds.unhealthy_value': '800',
    'confirmation.quorum': 'majority',
    'confirmation.failures': '2',
    'confirmation.recoveries': '2',
    ...over,
  };
}

describe('console metric configuration', () => {
  it('offers a form for every source type, with each field labelled and explained', async () => {
    for (const type of ALL_SOURCE_TYPES) {
      const page = await operator.get(`/console/metrics/new?source_type=${type}`);
      expect([type, page.status]).toEqual([type, 200]);
      expect(page.text).toContain(`name="source_type" value="${type}"`);
      // Every input, select and textarea has a label, and every source_config field its help.
      for (const m of page.text.matchAll(/<(?:input|select|textarea) [^>]*id="([^"]+)"/g))
        expect([type, page.text]).toEqual([type, expect.stringContaining(`for="${m[1]}"`)]);
      for (const m of page.text.matchAll(/name="(source_config\.[^"]+)"[^>]*aria-describedby="([^" ]+)/g))
        expect(page.text).toContain(`id="${m[2]}"`);
    }
    const http = textOf((await operator.get('/console/metrics/new?source_type=http')).text);
    expect(http).toContain('Must occur in the first 4 KB of the body');
    expect(http).toContain('Probe timeout in ms, at most 30000; default 10000');
    const database = (await operator.get('/console/metrics/new?source_type=database')).text;
    expect(database).toContain('name="source_config.connection_string_ref"');
    expect(database).toContain('Test this probe');
    const manual = (await operator.get('/console/metrics/new?source_type=manual')).text;
    expect(textOf(manual)).toContain('take no thresholds');
    expect(manual).not.toContain('value="test"');
  });

  it('picks the type by readable names grouped by what they watch (?type=), with one Service select, no raw backticks and the advanced settings collapsed', async () => {
    const page = (await operator.get(`/console/metrics/new?type=tcp&service_id=${org.services.Search}`)).text;
    expect(page).toContain('name="source_type" value="tcp"');
    const picker = /<form class="stack type-chooser"[\s\S]*?<\/form>/.exec(page)![0];
    const groups = [...picker.matchAll(/<optgroup label="([^"]+)">([\s\S]*?)<\/optgroup>/g)].map((g) => [
      g[1]!.replace(/&amp;|&#38;/g, '&'),
      [...g[2]!.matchAll(/<option value="([^"]+)"/g)].map((o) => o[1]),
    ]);
    expect(groups).toEqual([
      [
        'Websites & APIs',
        ['http', 'grpc', 'websocket', 'mtls_http', 'tls_cert'].sort(
          (a, b) => ALL_SOURCE_TYPES.indexOf(a as never) - ALL_SOURCE_TYPES.indexOf(b as never),
        ),
      ],
      ['Network', ['tcp', 'dns', 'icmp']],
      ['Data & logs', ['prometheus', 'database', 'cloudwatch', 'loki', 'elasticsearch']],
      ['Pushed to Vigil', ['otlp', 'heartbeat', 'alert']],
      ['Set by hand', ['manual']],
      ['Host', ['host']],
      ['Custom', ['custom']],
    ]);
    expect(textOf(picker)).toContain('HTTP(S): is it up?');
    expect(textOf(picker)).toContain('Ping (ICMP)');
    expect(picker).toMatch(/<option value="tcp" selected>TCP port</);
    // One Service select in the whole page: the picker carries the chosen service along instead.
    expect(page.match(/<select[^>]*name="service_id"/g)).toHaveLength(1);
    expect(picker).toContain(`name="service_id" value="${org.services.Search}"`);
    for (const type of ALL_SOURCE_TYPES) {
      const text = textOf((await operator.get(`/console/metrics/new?type=${type}`)).text);
      expect([type, text.includes('`')]).toEqual([type, false]);
    }
    // Required fields first; the rest (more settings, locations, confirmation) collapsed.
    const http = (await operator.get('/console/metrics/new?type=http')).text;
    const advanced = /<details class="advanced"( open)?>[\s\S]*?<\/details>/.exec(http)!;
    expect(advanced[1]).toBeUndefined();
    expect(advanced[0]).toContain('name="source_config.expected_status"');
    expect(advanced[0]).toContain('Locations and confirmation');
    expect(http).toMatch(/<details class="thresholds-optional">/);
    expect(textOf(http)).toContain('Without thresholds this check is up when the URL answers an accepted status');
    expect(http).not.toMatch(/name="thresholds\.[a-z_]+"[^>]* required/);
    // Values show with their unit.
    expect(textOf(http)).toContain('Unhealthy value (ms)');
  });

  it('creates an "Is it up?" HTTP metric without thresholds from the short form; a TCP metric still needs them', async () => {
    const page = await operator.get('/console/metrics/new?type=http');
    const res = await operator.post('/console/metrics/new', {
      _csrf: csrfOf(page.text),
      _action: 'save',
      source_type: 'http',
      service_id: org.services.Search,
      name: 'Search is up',
      'source_config.url': targetUrl,
      'confirmation.quorum': 'majority',
      'confirmation.failures': '2',
      'confirmation.recoveries': '2',
    });
    expect([res.status, res.status === 303 ? '' : textOf(res.text).slice(0, 2000)]).toEqual([303, '']);
    const created = (await metricsOf(org)).find((m) => m.name === 'Search is up');
    expect(created).toMatchObject({ source_type: 'http', thresholds: null, source_config: { url: targetUrl } });
    const edit = await operator.get(`/console/metrics/${created.id}/edit`);
    expect(edit.status).toBe(200);
    const saved = await operator.post(`/console/metrics/${created.id}/edit`, {
      _csrf: csrfOf(edit.text),
      _action: 'save',
      service_id: org.services.Search,
      name: 'Search is up',
      'source_config.url': targetUrl,
      interval_seconds: '60',
      'confirmation.quorum': 'majority',
      'confirmation.failures': '2',
      'confirmation.recoveries': '2',
    });
    expect([saved.status, saved.status === 303 ? '' : textOf(saved.text).slice(0, 1500)]).toEqual([303, '']);
    expect((await org.call('GET', `/v1/metrics/${created.id}`)).body.thresholds).toBeNull();
    const tcpPage = await operator.get('/console/metrics/new?type=tcp');
    const tcp = await operator.post('/console/metrics/new', {
      _csrf: csrfOf(tcpPage.text),
      _action: 'save',
      source_type: 'tcp',
      service_id: org.services.Search,
      name: 'Port',
      'source_config.host': 'db.example.com',
      'source_config.port': '5432',
    });
    expect([tcp.status, textOf(tcp.text).slice(0, 0)]).toEqual([400, '']);
    expect(fieldError(tcp.text, 'thresholds.healthy_operation')).toBe(
      'Healthy when the value is must be over, under or equal',
    );
  });

  it('creates an http metric through the form (303 to its page) and the API stores exactly what the form said', async () => {
    const page = await operator.get('/console/metrics/new?source_type=http');
    const res = await operator.post('/console/metrics/new', httpForm(csrfOf(page.text)));
    expect(res.status).toBe(303);
    const created = (await metricsOf(org)).find((m) => m.name === 'Checkout stats');
    expect(res.headers.get('location')).toBe(`/console/metrics/${created.id}`);
    expect(created).toMatchObject({
      source_type: 'http',
      mode: 'cloud',
      service_id: org.services.Checkout,
      source_config: {
        url: targetUrl,
        headers: { 'X-Team': 'checkout' },
        expected_status: [200, 204],
        timeout_ms: 5000,
      },
      thresholds: THRESHOLDS,
      confirmation: { quorum: 'majority', failures: 2, recoveries: 2, recheck: false },
      paused: false,
    });
    const detail = await operator.get(`/console/metrics/${created.id}`);
    expect(detail.text).toContain('Created Checkout stats.');
    expect(detail.text).toContain(`/console/metrics/${created.id}/edit`);
  });

  it('refuses a bad form with the API’s validators, every problem next to its field in words, keeping the input (400)', async () => {
    const page = await operator.get('/console/metrics/new?source_type=http');
    const res = await operator.post(
      '/console/metrics/new',
      httpForm(csrfOf(page.text), {
        name: 'Broken one',
        'source_config.url': 'ftp://user:pw@example.com',
        'source_config.headers': 'Authorization: Bearer abc',
        'source_config.timeout_ms': '99999',
        'thresholds.healthy_value': 'fast',
      }),
    );
    expect(res.status).toBe(400);
    expect(res.text).toContain('validation_failed');
    expect(fieldError(res.text, 'source_config-url')).toContain('Must be an http or https URL');
    expect(fieldError(res.text, 'source_config-headers')).toContain('Authorization: Authorization is a secret header');
    expect(fieldError(res.text, 'source_config-timeout_ms')).toContain('Expected milliseconds, an integer 1..30000');
    expect(fieldError(res.text, 'thresholds-healthy_value')).toMatch(/finite number/);
    expect(res.text).toContain('value="ftp://user:pw@example.com"');
    expect(res.text).toContain('Authorization: Bearer abc</textarea>');
    expect((await metricsOf(org)).some((m) => m.name === 'Broken one')).toBe(false);
    // An agent-only type without an agent: the API's placement rule, by the agent field.
    const db = await operator.post('/console/metrics/new', {
      _csrf: csrfOf(page.text),
      source_type: 'database',
      service_id: org.services.Search,
      name: 'Orders count',
      'source_config.engine': 'postgresql',
      'source_config.connection_string_ref': 'postgres://secret',
      'source_config.query': 'select count(*) from orders',
      'thresholds.healthy_operation': 'under',
      'thresholds.healthy_value': '10',
      'thresholds.unhealthy_operation': 'over',
      'thresholds.unhealthy_value': '100',
      'confirmation.quorum': 'majority',
      'confirmation.failures': '2',
      'confirmation.recoveries': '2',
    });
    expect(db.status).toBe(400);
    expect(fieldError(db.text, 'agent_id')).toContain('database metrics run on an agent');
    expect(fieldError(db.text, 'source_config-connection_string_ref')).toContain('Name an environment variable');
  });

  it('explains the thresholds in words', async () => {
    const page = await operator.get('/console/metrics/new?source_type=http');
    const res = await operator.post(
      '/console/metrics/new',
      httpForm(csrfOf(page.text), { name: '', 'source_config.url': targetUrl }),
    );
    expect(res.status).toBe(400);
    expect(textOf(res.text)).toContain(
      'Unhealthy when the value is above 800 ms; healthy when it is below 300 ms; degraded in between.',
    );
    // A number read from JSON is in the unit the source names (or bare), not in ms.
    const json = await operator.post(
      '/console/metrics/new',
      httpForm(csrfOf(page.text), {
        name: '',
        'source_config.url': targetUrl,
        'source_config.json_path': '$.depth',
        'source_config.unit': 'jobs',
      }),
    );
    expect(textOf(json.text)).toContain(
      'Unhealthy when the value is above 800 jobs; healthy when it is below 300 jobs; degraded in between.',
    );
  });

  it('tests the probe with the form’s settings before saving: the result is shown, the input kept, nothing stored', async () => {
    const page = await operator.get('/console/metrics/new?source_type=http');
    const before = probed;
    const res = await operator.post(
      '/console/metrics/new',
      httpForm(csrfOf(page.text), {
        _action: 'test',
        name: 'Only tested',
        'source_config.json_path': '$.depth',
        'thresholds.healthy_value': '20',
        'thresholds.unhealthy_value': '50',
      }),
    );
    expect(res.status).toBe(200);
    expect(res.text).toContain('id="probe-test-result"');
    expect(textOf(res.text)).toContain('17');
    expect(textOf(res.text)).toContain('healthy');
    expect(res.text).toContain('value="Only tested"');
    expect(probed).toBeGreaterThan(before);
    expect((await metricsOf(org)).some((m) => m.name === 'Only tested')).toBe(false);
    // A config the validator refuses is not run: its problem is shown.
    const refused = await operator.post(
      '/console/metrics/new',
      httpForm(csrfOf(page.text), { _action: 'test', 'source_config.url': 'not a url' }),
    );
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('invalid_probe_config');
  }, 60_000);

  it('edits a metric (managed ones warn), keeps unknown settings, and refuses a bad edit keeping the input', async () => {
    const created = (
      await org.call('POST', '/v1/metrics', {
        service_id: org.services.Search,
        name: 'Search tcp',
        source_type: 'tcp',
        source_config: { host: 'search.internal', port: 9200, extra: 'kept' },
        thresholds: THRESHOLDS,
      })
    ).body;
    const form = await operator.get(`/console/metrics/${created.id}/edit`);
    expect(form.status).toBe(200);
    expect(form.text).toContain('value="search.internal"');
    expect(form.text).toMatch(/(&quot;|&#34;)extra(&quot;|&#34;): (&quot;|&#34;)kept/);
    const values: Record<string, string> = {};
    for (const m of form.text.matchAll(
      /<input type="(?:text|number|hidden)" id="[^"]*" name="([^"]+)"[^>]*value="([^"]*)"/g,
    ))
      values[m[1]!] = m[2]!.replace(/&quot;|&#34;/g, '"');
    const saved = await operator.post(`/console/metrics/${created.id}/edit`, {
      ...values,
      _csrf: csrfOf(form.text),
      service_id: org.services.Search,
      'source_config.port': '9300',
      'source_config._other': '{"extra": "kept"}',
      'thresholds.healthy_operation': 'under',
      'thresholds.unhealthy_operation': 'over',
      'confirmation.quorum': 'majority',
      name: 'Search tcp renamed',
    });
    expect(saved.status).toBe(303);
    expect((await org.call('GET', `/v1/metrics/${created.id}`)).body).toMatchObject({
      name: 'Search tcp renamed',
      source_config: { host: 'search.internal', port: 9300, extra: 'kept' },
    });
    const bad = await operator.post(`/console/metrics/${created.id}/edit`, {
      ...values,
      _csrf: csrfOf(form.text),
      service_id: org.services.Search,
      'source_config.port': '70000',
      'thresholds.healthy_operation': 'under',
      'thresholds.unhealthy_operation': 'over',
      'confirmation.quorum': 'majority',
    });
    expect(bad.status).toBe(400);
    expect(fieldError(bad.text, 'source_config-port')).toContain('Expected a port, an integer 1..65535');
    expect(bad.text).toContain('value="70000"');

    const managed = (
      await org.call('POST', '/v1/metrics', {
        service_id: org.services.Search,
        name: 'Managed',
        source_type: 'manual',
        source_config: {},
      })
    ).body;
    await api.orm.em
      .fork()
      .getConnection()
      .execute(`update metrics set config_key = 'managed-metric' where id = '${managed.id}'`);
    const managedForm = await operator.get(`/console/metrics/${managed.id}/edit`);
    expect(managedForm.text).toContain('Managed by config as code');
    expect(managedForm.text).toContain('vigil config apply');
    expect((await operator.get('/console/metrics')).text).toContain('(config: <code>managed-metric</code>)');
    expect((await operator.get('/console/metrics')).text).toContain('href="/console/export/metric.yaml"');
  });

  it('pauses and resumes from the metric’s page (PRG) and the API agrees; the list says paused', async () => {
    const m = (
      await org.call('POST', '/v1/metrics', {
        service_id: org.services.Checkout,
        name: 'Pause me',
        source_type: 'manual',
        source_config: {},
      })
    ).body;
    const page = await operator.get(`/console/metrics/${m.id}`);
    expect(page.text).toContain('Pause checks');
    const paused = await operator.post(`/console/metrics/${m.id}/pause`, { _csrf: csrfOf(page.text) });
    expect(paused.status).toBe(303);
    expect((await org.call('GET', `/v1/metrics/${m.id}`)).body.paused).toBe(true);
    const after = await operator.get(`/console/metrics/${m.id}`);
    expect(textOf(after.text)).toContain('paused not checked');
    expect(after.text).toContain('Resume checks');
    expect((await operator.post(`/console/metrics/${m.id}/resume`, { _csrf: csrfOf(page.text) })).status).toBe(303);
    expect((await org.call('GET', `/v1/metrics/${m.id}`)).body.paused).toBe(false);
  });

  it('deletes only after the confirmation is ticked', async () => {
    const m = (
      await org.call('POST', '/v1/metrics', {
        service_id: org.services.Checkout,
        name: 'Delete me',
        source_type: 'manual',
        source_config: {},
      })
    ).body;
    const confirm = await operator.get(`/console/metrics/${m.id}/delete`);
    expect(confirm.status).toBe(200);
    const unticked = await operator.post(`/console/metrics/${m.id}/delete`, { _csrf: csrfOf(confirm.text) });
    expect(unticked.status).toBe(400);
    expect(fieldError(unticked.text, 'confirm')).toContain('Tick the box');
    expect((await org.call('GET', `/v1/metrics/${m.id}`)).status).toBe(200);
    const done = await operator.post(`/console/metrics/${m.id}/delete`, {
      _csrf: csrfOf(confirm.text),
      confirm: 'yes',
    });
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe('/console/metrics');
    expect((await org.call('GET', `/v1/metrics/${m.id}`)).status).toBe(404);
  });

  it('refuses viewers and finance (403, no buttons)', async () => {
    const m = (
      await org.call('POST', '/v1/metrics', {
        service_id: org.services.Checkout,
        name: 'Not yours to change',
        source_type: 'manual',
        source_config: {},
      })
    ).body;
    for (const client of [viewer, finance]) {
      const list = await client.get('/console/metrics');
      expect(list.text).not.toContain('New metric');
      const page = await client.get(`/console/metrics/${m.id}`);
      expect(page.status).toBe(200);
      expect(page.text).not.toContain('Pause checks');
      expect(page.text).not.toContain(`/console/metrics/${m.id}/edit`);
      for (const path of ['/console/metrics/new', `/console/metrics/${m.id}/edit`, `/console/metrics/${m.id}/delete`])
        expect([path, (await client.get(path)).status]).toEqual([path, 403]);
      const csrf = csrfOf(page.text);
      for (const path of [
        '/console/metrics/new',
        `/console/metrics/${m.id}/edit`,
        `/console/metrics/${m.id}/delete`,
        `/console/metrics/${m.id}/pause`,
        `/console/metrics/${m.id}/resume`,
      ]) {
        const res = await client.post(path, {
          _csrf: csrf,
          name: 'x',
          confirm: 'yes',
          source_type: 'manual',
          service_id: org.services.Checkout,
        });
        expect([path, res.status, res.text]).toEqual([path, 403, expect.stringContaining('write:metrics')]);
      }
    }
    expect((await org.call('GET', `/v1/metrics/${m.id}`)).body).toMatchObject({
      name: 'Not yours to change',
      paused: false,
      deleted_at: null,
    });
  });

  it("answers 404 for another organization's metric and service, and changes nothing", async () => {
    const theirs = (
      await other.call('POST', '/v1/metrics', {
        service_id: other.services.Elsewhere,
        name: 'Theirs',
        source_type: 'manual',
        source_config: {},
      })
    ).body;
    const csrf = csrfOf((await operator.get('/console/metrics')).text);
    for (const path of ['edit', 'delete'])
      expect((await operator.get(`/console/metrics/${theirs.id}/${path}`)).status).toBe(404);
    for (const path of ['edit', 'delete', 'pause', 'resume'])
      expect(
        (
          await operator.post(`/console/metrics/${theirs.id}/${path}`, {
            _csrf: csrf,
            name: 'Mine now',
            confirm: 'yes',
          })
        ).status,
      ).toBe(404);
    // Creating a metric under their service is the API's field error, not a way in.
    const page = await operator.get('/console/metrics/new?source_type=manual');
    const res = await operator.post('/console/metrics/new', {
      _csrf: csrfOf(page.text),
      source_type: 'manual',
      service_id: other.services.Elsewhere,
      name: 'Sneaky',
    });
    expect(res.status).toBe(400);
    expect(fieldError(res.text, 'service_id')).toContain('No such service in this organization');
    expect((await other.call('GET', `/v1/metrics/${theirs.id}`)).body).toMatchObject({
      name: 'Theirs',
      paused: false,
      deleted_at: null,
    });
  });
});
