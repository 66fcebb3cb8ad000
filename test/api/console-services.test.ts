import { createMailer, type Mailer } from '../../src/infra/mailer';
import { type ApiHarness, type TestOrg, startApi } from '../support/api-harness';
import { type ConsoleClient, csrfOf, signedInClient } from '../support/console-browser';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink';

/** Services in the console: list, create, edit, pause/resume, delete, over the real API and PostgreSQL. */
let api: ApiHarness;
let smtp: SmtpSink;
let mailer: Mailer;
let org: TestOrg;
let other: TestOrg;
let operator: ConsoleClient;
let viewer: ConsoleClient;
let finance: ConsoleClient;

const THRESHOLDS = {
  healthy_operation: 'under',
  healthy_value: 300,
  unhealthy_operation: 'over',
  unhealthy_value: 800,
};

beforeAll(async () => {
  smtp = await startSmtpSink();
  mailer = createMailer({ smtpUrl: smtp.url, from: 'Vigil <console@vigil.test>', outboxDir: '/nonexistent' });
  api = await startApi({ console: { mail: mailer, temporalUiUrl: null } });
  [org, other] = await Promise.all([
    api.createOrg('enterprise', 'Services org'),
    api.createOrg('enterprise', 'Other services org'),
  ]);
  [operator, viewer, finance] = await Promise.all([
    signedInClient(api, smtp, org.id, 'ops@services.test', 'operator'),
    signedInClient(api, smtp, org.id, 'look@services.test', 'viewer'),
    signedInClient(api, smtp, org.id, 'money@services.test', 'finance'),
  ]);
}, 60_000);
afterAll(async () => {
  await api?.close();
  await mailer?.close();
  await smtp?.close();
});

const textOf = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n)))
    .replace(/\s+/g, ' ');

async function serviceByName(name: string): Promise<any> {
  const list = await api.request('GET', '/v1/services?limit=200', { key: org.key });
  return list.body.items.find((s: any) => s.name === name);
}

describe('console services', () => {
  it('creates a service through the form (303, then listed with its status, metric count and Export as YAML) and the API agrees', async () => {
    const res = await operator.submit('/console/services/new', '/console/services/new', {
      name: 'Payments',
      description: 'Card payments',
      config_key: '',
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/console/services');
    const created = await serviceByName('Payments');
    expect(created).toMatchObject({ description: 'Card payments', config_key: null });
    const list = await operator.get('/console/services');
    expect(list.status).toBe(200);
    expect(list.text).toContain('Created Payments.');
    expect(list.text).toContain(`href="/console/services/${created.id}"`);
    expect(list.text).toContain('href="/console/export/service.yaml"');
    expect(textOf(list.text)).toContain('0 metrics');
    expect(textOf(list.text)).toContain('no data');
  });

  it('keeps the input and names the field in words when the API refuses it (400, nothing created)', async () => {
    const res = await operator.submit('/console/services/new', '/console/services/new', {
      name: '   ',
      description: 'Kept text',
      config_key: 'Not Valid!',
    });
    expect(res.status).toBe(400);
    expect(res.text).toContain('validation_failed');
    expect(res.text).toMatch(/id="f-name"[^>]*aria-invalid="true"/);
    expect(res.text).toMatch(/id="f-config_key-error">[^<]*Lowercase letters/);
    expect(res.text).toContain('Kept text');
    expect(res.text).toContain('value="Not Valid!"');
    expect(await serviceByName('Kept text')).toBeUndefined();
  });

  it('edits a service; a managed one says so and warns that the next apply overwrites the edit', async () => {
    const s = (
      await api.request('POST', '/v1/services', { key: org.key, body: { name: 'Managed', config_key: 'managed-svc' } })
    ).body;
    const list = await operator.get('/console/services');
    expect(list.text).toContain('(config: <code>managed-svc</code>)');
    const form = await operator.get(`/console/services/${s.id}/edit`);
    expect(form.status).toBe(200);
    expect(form.text).toContain('Managed by config as code');
    expect(form.text).toContain('vigil config apply');
    const saved = await operator.post(`/console/services/${s.id}/edit`, {
      _csrf: csrfOf(form.text),
      name: 'Managed renamed',
      description: 'now described',
      config_key: 'managed-svc',
    });
    expect(saved.status).toBe(303);
    expect((await api.request('GET', `/v1/services/${s.id}`, { key: org.key })).body).toMatchObject({
      name: 'Managed renamed',
      description: 'now described',
      config_key: 'managed-svc',
    });
    const refused = await operator.post(`/console/services/${s.id}/edit`, {
      _csrf: csrfOf(form.text),
      name: '',
      description: 'x',
      config_key: 'managed-svc',
    });
    expect(refused.status).toBe(400);
    expect(refused.text).toMatch(/id="f-name-error"/);
  });

  it('pauses and resumes every metric of a service; the API shows paused and the list counts them', async () => {
    const s = (await api.request('POST', '/v1/services', { key: org.key, body: { name: 'Pausable' } })).body;
    const metrics = await Promise.all(
      ['one', 'two'].map((n) =>
        api.request('POST', '/v1/metrics', {
          key: org.key,
          body: {
            service_id: s.id,
            name: n,
            source_type: 'http',
            source_config: { url: 'https://example.com/' },
            thresholds: THRESHOLDS,
          },
        }),
      ),
    );
    const list = await operator.get('/console/services');
    const paused = await operator.post(`/console/services/${s.id}/pause`, { _csrf: csrfOf(list.text) });
    expect(paused.status).toBe(303);
    for (const m of metrics)
      expect((await api.request('GET', `/v1/metrics/${m.body.id}`, { key: org.key })).body).toMatchObject({
        paused: true,
        paused_at: expect.any(String),
      });
    const after = textOf((await operator.get('/console/services')).text);
    expect(after).toContain('Paused 2 metrics of Pausable');
    expect(after).toContain('2 metrics (2 paused)');
    const resumed = await operator.post(`/console/services/${s.id}/resume`, { _csrf: csrfOf(list.text) });
    expect(resumed.status).toBe(303);
    for (const m of metrics)
      expect((await api.request('GET', `/v1/metrics/${m.body.id}`, { key: org.key })).body).toMatchObject({
        paused: false,
        paused_at: null,
      });
  });

  it('deletes only after the confirmation is ticked, with its metrics', async () => {
    const s = (await api.request('POST', '/v1/services', { key: org.key, body: { name: 'Doomed' } })).body;
    const m = (
      await api.request('POST', '/v1/metrics', {
        key: org.key,
        body: { service_id: s.id, name: 'doomed check', source_type: 'manual', source_config: {} },
      })
    ).body;
    const confirm = await operator.get(`/console/services/${s.id}/delete`);
    expect(confirm.status).toBe(200);
    expect(textOf(confirm.text)).toContain('Its 1 metric are deleted with it');
    const unticked = await operator.post(`/console/services/${s.id}/delete`, { _csrf: csrfOf(confirm.text) });
    expect(unticked.status).toBe(400);
    expect(unticked.text).toMatch(/id="f-confirm-error">Tick the box/);
    expect((await api.request('GET', `/v1/services/${s.id}`, { key: org.key })).status).toBe(200);
    const done = await operator.post(`/console/services/${s.id}/delete`, {
      _csrf: csrfOf(confirm.text),
      confirm: 'yes',
    });
    expect(done.status).toBe(303);
    expect((await api.request('GET', `/v1/services/${s.id}`, { key: org.key })).status).toBe(404);
    expect((await api.request('GET', `/v1/metrics/${m.id}`, { key: org.key })).status).toBe(404);
  });

  it('lets viewers and finance read the list but not write: no buttons, 403 on every form', async () => {
    const s = (await api.request('POST', '/v1/services', { key: org.key, body: { name: 'Read only' } })).body;
    for (const client of [viewer, finance]) {
      const list = await client.get('/console/services');
      expect(list.status).toBe(200);
      expect(list.text).toContain('Read only');
      expect(list.text).not.toContain('New service');
      expect(list.text).not.toContain('/pause"');
      expect(list.text).not.toContain('/edit"');
      expect((await client.get('/console/services/new')).status).toBe(403);
      expect((await client.get(`/console/services/${s.id}/edit`)).status).toBe(403);
      expect((await client.get(`/console/services/${s.id}/delete`)).status).toBe(403);
      const csrf = csrfOf(list.text);
      for (const [path, form] of [
        ['/console/services/new', { name: 'Sneaky' }],
        [`/console/services/${s.id}/edit`, { name: 'Sneaky' }],
        [`/console/services/${s.id}/delete`, { confirm: 'yes' }],
        [`/console/services/${s.id}/pause`, {}],
        [`/console/services/${s.id}/resume`, {}],
      ] as const) {
        const res = await client.post(path, { _csrf: csrf, ...form });
        expect([path, res.status, res.text]).toEqual([path, 403, expect.stringContaining('write:config')]);
      }
    }
    expect((await api.request('GET', `/v1/services/${s.id}`, { key: org.key })).body.name).toBe('Read only');
  });

  it("answers 404 for another organization's service and changes nothing", async () => {
    const theirs = (await api.request('POST', '/v1/services', { key: other.key, body: { name: 'Theirs' } })).body;
    const csrf = csrfOf((await operator.get('/console/services')).text);
    expect((await operator.get(`/console/services/${theirs.id}/edit`)).status).toBe(404);
    expect((await operator.get(`/console/services/${theirs.id}/delete`)).status).toBe(404);
    for (const path of ['edit', 'delete', 'pause', 'resume'])
      expect(
        (
          await operator.post(`/console/services/${theirs.id}/${path}`, {
            _csrf: csrf,
            name: 'Mine now',
            confirm: 'yes',
          })
        ).status,
      ).toBe(404);
    expect((await operator.get('/console/services/not-a-uuid/edit')).status).toBe(404);
    expect((await api.request('GET', `/v1/services/${theirs.id}`, { key: other.key })).body).toMatchObject({
      name: 'Theirs',
      deleted_at: null,
    });
  });

  it('pages the list with a cursor', async () => {
    const fresh = await api.createOrg('enterprise', 'Many services');
    for (let i = 0; i < 52; i++)
      await api.request('POST', '/v1/services', {
        key: fresh.key,
        body: { name: `svc-${String(i).padStart(2, '0')}` },
      });
    const client = await signedInClient(api, smtp, fresh.id, 'pager@services.test', 'viewer');
    const first = await client.get('/console/services');
    const next = /<a href="([^"]+)">Next page →<\/a>/
      .exec(first.text)?.[1]
      ?.replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n)));
    expect(next).toMatch(/^\/console\/services\?cursor=/);
    const second = await client.get(next!);
    expect(second.status).toBe(200);
    expect((second.text.match(/svc-\d\d/g) ?? []).length).toBe(2);
  });
});
