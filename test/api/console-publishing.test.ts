import type { EntityManager } from '@mikro-orm/postgresql';
import { createWebhookActivities } from '../../src/activities/webhooks';
import { OutboxEventSchema, WebhookDeliverySchema } from '../../src/db/entities';
import { dispatchOutbox } from '../../src/db/repositories/outbox-repository';
import { computeCredit, creditTermsSchema } from '../../src/domain/sla';
import { signWebhook } from '../../src/crypto/webhook-signing';
import { type Mailer, createMailer } from '../../src/infra/mailer';
import { accessibleAccent } from '../../src/render/contrast';
import { type ApiHarness, startApi } from '../support/api-harness';
import { type ConsoleClient, csrfOf, signedInClient } from '../support/console-browser';
import { testSecretBox } from '../support/env';
import { type OrgFixture, orgWithKeys } from '../support/org-fixture';
import { takeRelayTurn } from '../support/relay-turn';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink';
import { pageRequest } from '../support/status-host';
import { type Receiver, startReceiver } from '../support/webhook-receiver';
import { publicOnlyPoster } from '../../src/infra/webhook-http';

/** A test that fans the outbox out waits for suites with a relay, which hold it for their whole file. */
const RELAY_WAIT = 300_000;

/**
 * The publishing side of the console: status pages, webhooks, customers and contracts
 * created, edited and deleted through server-rendered forms, over the real API and PostgreSQL.
 */
let api: ApiHarness;
let smtp: SmtpSink;
let mailer: Mailer;
let org: OrgFixture<never, 'Checkout' | 'Search'>;
let other: OrgFixture<never, 'Elsewhere'>;
let operator: ConsoleClient;
let viewer: ConsoleClient;
let finance: ConsoleClient;
let rx: Receiver;
const run = `${process.pid.toString(36)}${Date.now().toString(36)}`;

beforeAll(async () => {
  smtp = await startSmtpSink();
  mailer = createMailer({ smtpUrl: smtp.url, from: 'Vigil <console@vigil.test>', outboxDir: '/nonexistent' });
  api = await startApi({ console: { mail: mailer } });
  org = await orgWithKeys(api, { name: 'Publishing org', services: ['Checkout', 'Search'] });
  other = await orgWithKeys(api, { name: 'Other org', services: ['Elsewhere'] });
  rx = await startReceiver();
  operator = await signedInClient(api, smtp, org.id, `operator-${run}@publishing.test`, 'operator');
  viewer = await signedInClient(api, smtp, org.id, `viewer-${run}@publishing.test`, 'viewer');
  finance = await signedInClient(api, smtp, org.id, `finance-${run}@publishing.test`, 'finance');
}, 60_000);
afterAll(async () => {
  await rx?.close();
  await api?.close();
  await mailer?.close();
  await smtp?.close();
});

const sql = (q: string, params: unknown[] = []) => api.orm.em.getConnection().execute(q, params);

function rowWith(html: string, text: string): string {
  const row = html
    .split('<tr>')
    .slice(1)
    .find((r) => r.includes(text));
  if (!row) throw new Error(`no row with ${text}`);
  return row.split('</tr>')[0]!;
}

/** The text of the field error under the input named `name`. */
function errorOf(html: string, name: string): string {
  const id = `f-${name.replace(/[^A-Za-z0-9_-]/g, '-')}`;
  const m = new RegExp(`id="${id}-error">([^<]*)<`).exec(html);
  if (!m) throw new Error(`no error next to ${name}`);
  return m[1]!;
}

function valueOf(html: string, name: string): string {
  const m = new RegExp(`name="${name.replace(/\./g, '\\.')}"[^>]* value="([^"]*)"`).exec(html);
  if (!m) throw new Error(`no input ${name}`);
  return m[1]!;
}

const idFrom = (location: string | null, prefix: string) =>
  new RegExp(`^${prefix}/([0-9a-f-]{36})$`).exec(location ?? '')![1]!;

describe('console status pages', () => {
  const sub = `pub-${run}`.slice(0, 40);
  let pageId: string;

  it('creates a page with branding, links and a grouped layout (rows added by submit buttons), redirects 303 and is live', async () => {
    const form = await operator.get('/console/status-pages/new');
    expect(form.status).toBe(200);
    expect(form.text).toContain('name="groups.0.components.0.id"');
    expect(form.text).toContain(`<option value="service:${org.services.Checkout}">Checkout</option>`);
    const csrf = csrfOf(form.text);
    // "Add a group" re-renders with one more group, keeping what was typed; nothing is saved.
    const more = await operator.post('/console/status-pages/new', {
      _csrf: csrf,
      _op: 'add_group',
      title: 'Typed <title>',
      subdomain: sub,
      'groups.0.name': 'Core',
      'groups.0.components.0.id': `service:${org.services.Checkout}`,
    });
    expect(more.status).toBe(200);
    expect(more.text).toContain('name="groups.1.components.0.id"');
    expect(valueOf(more.text, 'title')).toBe('Typed &#60;title&#62;');
    expect(more.text).toContain(`<option value="service:${org.services.Checkout}" selected>`);
    expect((await org.call('GET', '/v1/status-pages')).body.items).toHaveLength(0);

    const res = await operator.post('/console/status-pages/new', {
      _csrf: csrf,
      _op: 'save',
      title: 'Acme status',
      subdomain: sub,
      description: 'How Acme is doing',
      time_zone: 'Europe/Berlin',
      'branding.logo_url': 'https://cdn.example.com/logo.png',
      'branding.accent_color': '#ffcc00',
      'branding.header_color': '#102030',
      'links.0.label': 'Home',
      'links.0.url': 'https://acme.example.com',
      'links.1.label': '',
      'links.1.url': '',
      'groups.0.name': 'Core',
      'groups.0.components.0.id': `service:${org.services.Checkout}`,
      'groups.0.components.1.id': '',
      'groups.1.name': '',
      'groups.1.components.0.id': `service:${org.services.Search}`,
    });
    expect(res.status).toBe(303);
    pageId = idFrom(res.headers.get('location'), '/console/status-pages');
    const view = (await org.call('GET', `/v1/status-pages/${pageId}`)).body;
    expect(view).toMatchObject({
      title: 'Acme status',
      subdomain: sub,
      description: 'How Acme is doing',
      time_zone: 'Europe/Berlin',
      branding: { logo_url: 'https://cdn.example.com/logo.png', accent_color: '#ffcc00', header_color: '#102030' },
      links: [{ label: 'Home', url: 'https://acme.example.com' }],
      groups: [
        { name: 'Core', components: [{ kind: 'service', id: org.services.Checkout }] },
        { name: null, components: [{ kind: 'service', id: org.services.Search }] },
      ],
    });
    const shown = await operator.get(`/console/status-pages/${pageId}`);
    expect(shown.text).toContain('Status page created; it is live at');
    // The live link, and the accent as the page will show it (darkened to 4.5:1 on white).
    expect(shown.text).toContain(`<a href="${view.url}" rel="noopener">Open the live page</a>`);
    expect(shown.text).toContain(`<code>${accessibleAccent('#ffcc00')}</code> on white`);
    expect(shown.text).toContain('is darkened to reach 4.5:1');
    const live = await pageRequest(api.baseUrl, sub, '/');
    expect([live.status, live.text]).toEqual([200, expect.stringContaining('Acme status')]);
  });

  it('edits: moves a group up, saves, and the live page follows; errors in words keep the input', async () => {
    const page = await operator.get(`/console/status-pages/${pageId}`);
    const csrf = csrfOf(page.text);
    const base = {
      _csrf: csrf,
      title: 'Acme status',
      subdomain: sub,
      time_zone: 'Europe/Berlin',
      'groups.0.name': 'Core',
      'groups.0.components.0.id': `service:${org.services.Checkout}`,
      'groups.1.name': 'Search',
      'groups.1.components.0.id': `service:${org.services.Search}`,
    };
    const moved = await operator.post(`/console/status-pages/${pageId}`, { ...base, _op: 'up_group:1' });
    expect(moved.status).toBe(200);
    expect(valueOf(moved.text, 'groups.0.name')).toBe('Search');
    expect(valueOf(moved.text, 'groups.1.name')).toBe('Core');

    const bad = await operator.post(`/console/status-pages/${pageId}`, {
      ...base,
      _op: 'save',
      subdomain: 'No Good',
      'branding.accent_color': 'red',
      'links.0.label': 'Docs',
      'links.0.url': 'javascript:alert(1)',
      'groups.1.components.0.id': `service:${other.services.Elsewhere}`,
    });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('Error code: <code>validation_failed</code>');
    expect(errorOf(bad.text, 'branding.accent_color')).toBe('Accent colour must be #rrggbb');
    expect(errorOf(bad.text, 'links.0.url')).not.toBe('');
    expect(valueOf(bad.text, 'subdomain')).toBe('No Good');
    expect(valueOf(bad.text, 'branding.accent_color')).toBe('red');
    // A component of another organization is "no such service", as the API says.
    const layout = await operator.post(`/console/status-pages/${pageId}`, {
      ...base,
      _op: 'save',
      'groups.1.components.0.id': `service:${other.services.Elsewhere}`,
    });
    expect(layout.status).toBe(400);
    expect(errorOf(layout.text, 'groups.1.components.0.id')).toBe('Component 1: No such service');

    const ok = await operator.post(`/console/status-pages/${pageId}`, {
      ...base,
      _op: 'save',
      title: 'Acme & friends',
    });
    expect(ok.status).toBe(303);
    expect((await org.call('GET', `/v1/status-pages/${pageId}`)).body.title).toBe('Acme & friends');
    const live = await pageRequest(api.baseUrl, sub, '/');
    expect(live.text).toContain('Acme &#38; friends');
  });

  it('is refused to viewers (403, no buttons) and 404 for another organization; a managed page warns', async () => {
    const list = await viewer.get('/console/status-pages');
    expect(list.text).not.toContain('New status page');
    expect(list.text).toContain('<a href="/console/export/status_page.yaml" download>Export as YAML</a>');
    const read = await viewer.get(`/console/status-pages/${pageId}`);
    expect(read.status).toBe(200);
    expect(read.text).not.toContain('<form class="stack');
    expect(read.text).not.toContain('Delete this status page');
    expect((await viewer.get('/console/status-pages/new')).status).toBe(403);
    const csrf = csrfOf(read.text);
    expect(
      (await viewer.post(`/console/status-pages/${pageId}`, { _csrf: csrf, _op: 'save', title: 'x', subdomain: sub }))
        .status,
    ).toBe(403);
    expect((await viewer.post(`/console/status-pages/${pageId}/delete`, { _csrf: csrf })).status).toBe(403);
    const theirs = (
      await other.call('POST', '/v1/status-pages', { subdomain: `oth-${run}`.slice(0, 40), title: 'Theirs' })
    ).body;
    expect((await operator.get(`/console/status-pages/${theirs.id}`)).status).toBe(404);
    expect(
      (await operator.submit('/console/status-pages', `/console/status-pages/${theirs.id}/delete`, {})).status,
    ).toBe(404);

    await sql('update status_pages set config_key = ? where id = ?', ['acme-page', pageId]);
    expect(rowWith((await viewer.get('/console/status-pages')).text, sub)).toContain(
      '(config: <code>acme-page</code>)',
    );
    const edit = await operator.get(`/console/status-pages/${pageId}`);
    expect(edit.text).toContain('<strong>Managed by config as code</strong> (key <code>acme-page</code>)');
    expect(edit.text).toContain('overwritten by the next <code>vigil config apply</code>');
  });

  it('deletes after a confirmation page (refused in words while it has subscribers); the subdomain answers 404', async () => {
    const confirm = await operator.get(`/console/status-pages/${pageId}/delete`);
    expect(confirm.text).toContain('Delete the status page <strong>Acme &#38; friends</strong>?');
    const imported = await org.call('POST', `/v1/status-pages/${pageId}/subscribers/import`, {
      subscribers: [{ email: 'reader@publishing.test' }],
      skip_confirmation: true,
    });
    expect(imported.body.created).toBe(1);
    const refused = await operator.post(`/console/status-pages/${pageId}/delete`, { _csrf: csrfOf(confirm.text) });
    expect(refused.status).toBe(409);
    expect(refused.text).toContain('The page has 1 active subscriber; delete them first.');
    const subscriber = (await org.call('GET', `/v1/status-pages/${pageId}/subscribers`)).body.items[0];
    await org.call('DELETE', `/v1/status-pages/${pageId}/subscribers/${subscriber.id}`);
    const res = await operator.post(`/console/status-pages/${pageId}/delete`, { _csrf: csrfOf(confirm.text) });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/console/status-pages');
    expect((await org.call('GET', `/v1/status-pages/${pageId}`)).status).toBe(404);
    expect((await pageRequest(api.baseUrl, sub, '/')).status).toBe(404);
  });
});

describe('console webhooks', () => {
  let hookId: string;
  let secret: string;

  async function deliverOnce(): Promise<string> {
    // The turn first: an event written while another suite's relay holds it would be taken and
    // delivered by that suite's worker, and no delivery would be left pending here.
    const release = await takeRelayTurn();
    const em = () => api.orm.em.fork() as EntityManager;
    try {
      const incident = (await org.call('POST', '/v1/incidents', { title: `Hook test ${Date.now()}` })).body;
      for (
        let i = 0;
        i < 50 &&
        (await em().count(OutboxEventSchema, { organization: org.id, resourceId: incident.id, dispatchedAt: null }));
        i++
      )
        await dispatchOutbox(em(), new Date(), 500);
    } finally {
      await release();
    }
    const delivery = await em().findOneOrFail(
      WebhookDeliverySchema,
      { subscription: hookId, state: 'pending' },
      { orderBy: { createdAt: 'desc' } },
    );
    const activities = createWebhookActivities({
      orm: api.orm,
      webhooks: {
        box: testSecretBox(),
        starter: { start: async () => [] },
        timeoutMs: 2_000,
        poster: publicOnlyPoster('127.0.0.0/8'),
      },
    });
    const outcome = await activities.attemptWebhookDelivery({
      deliveryId: delivery.id,
      attempt: 1,
      policy: { initialMs: 100, factor: 2, maxMs: 100, giveUpAfterMs: 1_000 },
      elapsedMs: 0,
      jitter: 0,
    });
    expect(outcome.state).toBe('succeeded');
    return delivery.id;
  }

  it(
    'creates a webhook with event checkboxes and shows its secret once; the secret signs its deliveries',
    async () => {
      const form = await operator.get('/console/webhooks/new');
      expect(form.text).toContain('<input type="checkbox" name="event_types" value="incident.created">');
      const csrf = csrfOf(form.text);
      const bad = await operator.post('/console/webhooks/new', {
        _csrf: csrf,
        url: 'ftp://nope',
        description: 'Pager <bridge>',
      });
      expect(bad.status).toBe(400);
      expect(errorOf(bad.text, 'url')).toBe('URL must be an http or https URL');
      expect(bad.text).toContain('id="f-event_types-error"');
      expect(bad.text).toContain('Pager &#60;bridge&#62;');

      const res = await operator.post('/console/webhooks/new', {
        _csrf: csrf,
        url: rx.url,
        description: 'Pager bridge',
        event_types: ['incident.created', 'incident.resolved'],
        enabled: 'true',
      });
      expect(res.status).toBe(201);
      expect(res.headers.get('cache-control')).toBe('no-store');
      secret = /id="secret-value" readonly value="(whsec_[^"]+)"/.exec(res.text)![1]!;
      expect(res.text).toContain('it is shown only on this page and never again');
      hookId = /href="\/console\/webhooks\/([0-9a-f-]{36})"/.exec(res.text)![1]!;
      expect((await org.call('GET', `/v1/webhooks/${hookId}`)).body).toMatchObject({
        url: rx.url,
        event_types: ['incident.created', 'incident.resolved'],
        enabled: true,
        description: 'Pager bridge',
      });
      // Never again: not on its page, not in the list.
      expect((await operator.get(`/console/webhooks/${hookId}`)).text).not.toContain(secret);
      expect((await operator.get('/console/webhooks')).text).not.toContain(secret);
      // Nothing delivered yet, and Send test is there all the same (a webhook.test event needs no earlier delivery).
      const fresh = await operator.get(`/console/webhooks/${hookId}`);
      expect(fresh.text).toContain(`action="/console/webhooks/${hookId}/test"`);
      // It is the real secret: a delivery is signed with it.
      await deliverOnce();
      const got = rx.received.at(-1)!;
      expect(got.signature).toBe(signWebhook([secret], got.id, Number(got.timestamp), got.body));
    },
    RELAY_WAIT,
  );

  it('edits, sends a test (a webhook.test delivery), disables and enables', async () => {
    const page = await operator.get(`/console/webhooks/${hookId}`);
    expect(page.text).toContain(`href="/console/webhooks/${hookId}/edit"`);
    const csrf = csrfOf(page.text);
    const edit = await operator.get(`/console/webhooks/${hookId}/edit`);
    expect(edit.text).toContain('<input type="checkbox" name="event_types" value="incident.resolved" checked>');
    const bad = await operator.post(`/console/webhooks/${hookId}/edit`, { _csrf: csrf, url: rx.url, description: '' });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('id="f-event_types-error"');
    const saved = await operator.post(`/console/webhooks/${hookId}/edit`, {
      _csrf: csrf,
      url: rx.url,
      description: '',
      event_types: ['incident.created'],
    });
    expect([saved.status, saved.headers.get('location')]).toEqual([303, `/console/webhooks/${hookId}`]);
    expect((await org.call('GET', `/v1/webhooks/${hookId}`)).body).toMatchObject({
      event_types: ['incident.created'],
      description: null,
    });

    const before = await api.orm.em.fork().count(WebhookDeliverySchema, { subscription: hookId });
    const test = await operator.post(`/console/webhooks/${hookId}/test`, { _csrf: csrf });
    expect(test.status).toBe(303);
    const newId = /\/deliveries\/([0-9a-f-]{36})$/.exec(test.headers.get('location')!)![1]!;
    expect((await org.call('GET', `/v1/webhooks/${hookId}/deliveries/${newId}`)).body).toMatchObject({
      event_type: 'webhook.test',
      state: 'pending',
      redelivery_of: null,
    });
    expect(await api.orm.em.fork().count(WebhookDeliverySchema, { subscription: hookId })).toBe(before + 1);
    expect((await operator.get(test.headers.get('location')!)).text).toContain('Test delivery queued');

    expect((await operator.post(`/console/webhooks/${hookId}/disable`, { _csrf: csrf })).status).toBe(303);
    expect((await org.call('GET', `/v1/webhooks/${hookId}`)).body.enabled).toBe(false);
    const off = await operator.get(`/console/webhooks/${hookId}`);
    expect(off.text).toContain(`action="/console/webhooks/${hookId}/enable"`);
    expect(off.text).toContain('Send test: enable the webhook first.');
    expect((await operator.post(`/console/webhooks/${hookId}/enable`, { _csrf: csrf })).status).toBe(303);
    expect((await org.call('GET', `/v1/webhooks/${hookId}`)).body.enabled).toBe(true);
  });

  it(
    'rotates the secret: the new one shown once, the old one still signs for 24 hours',
    async () => {
      const csrf = csrfOf((await operator.get(`/console/webhooks/${hookId}`)).text);
      const res = await operator.post(`/console/webhooks/${hookId}/rotate-secret`, { _csrf: csrf });
      expect(res.status).toBe(200);
      const fresh = /id="secret-value" readonly value="(whsec_[^"]+)"/.exec(res.text)![1]!;
      expect(fresh).not.toBe(secret);
      expect(res.text).toContain('The previous secret keeps signing beside it');
      const view = (await org.call('GET', `/v1/webhooks/${hookId}`)).body;
      expect(Date.parse(view.previous_secret_expires_at) - Date.now()).toBeGreaterThan(23 * 3600_000);
      expect((await operator.get(`/console/webhooks/${hookId}`)).text).not.toContain(fresh);
      await deliverOnce();
      const got = rx.received.at(-1)!;
      expect(got.signature).toBe(signWebhook([fresh, secret], got.id, Number(got.timestamp), got.body));
    },
    RELAY_WAIT,
  );

  it('is refused to viewers and another organization; deletes after a confirmation', async () => {
    const page = await viewer.get(`/console/webhooks/${hookId}`);
    expect(page.text).not.toContain('Rotate secret');
    expect((await viewer.get('/console/webhooks')).text).not.toContain('New webhook');
    const csrf = csrfOf(page.text);
    for (const path of ['edit', 'test', 'rotate-secret', 'disable', 'enable', 'delete'])
      expect((await viewer.post(`/console/webhooks/${hookId}/${path}`, { _csrf: csrf })).status).toBe(403);
    expect((await viewer.get('/console/webhooks/new')).status).toBe(403);
    const theirs = (
      await other.call('POST', '/v1/webhooks', {
        url: 'https://hooks.example.com/theirs',
        event_types: ['incident.created'],
      })
    ).body;
    for (const path of ['rotate-secret', 'disable', 'delete', 'test'])
      expect((await operator.submit('/console/webhooks', `/console/webhooks/${theirs.id}/${path}`, {})).status).toBe(
        404,
      );
    expect((await operator.get(`/console/webhooks/${theirs.id}/edit`)).status).toBe(404);

    await sql('update webhook_subscriptions set config_key = ? where id = ?', ['pager', hookId]);
    expect((await operator.get(`/console/webhooks/${hookId}/edit`)).text).toContain(
      '<strong>Managed by config as code</strong> (key <code>pager</code>)',
    );
    expect(rowWith((await viewer.get('/console/webhooks')).text, rx.url)).toContain('(config: <code>pager</code>)');

    const confirm = await operator.get(`/console/webhooks/${hookId}/delete`);
    const res = await operator.post(`/console/webhooks/${hookId}/delete`, { _csrf: csrfOf(confirm.text) });
    expect([res.status, res.headers.get('location')]).toEqual([303, '/console/webhooks']);
    expect((await org.call('GET', `/v1/webhooks/${hookId}`)).status).toBe(404);
  });
});

describe('console customers', () => {
  let customerId: string;

  it('creates, edits and deletes a customer (PRG), errors in words keeping the input', async () => {
    const form = await operator.get('/console/customers/new');
    const csrf = csrfOf(form.text);
    const bad = await operator.post('/console/customers/new', {
      _csrf: csrf,
      name: '  ',
      external_id: 'ext-1',
      contact_email: 'not-an-email',
    });
    expect(bad.status).toBe(400);
    expect(errorOf(bad.text, 'contact_email')).not.toBe('');
    expect(errorOf(bad.text, 'name')).not.toBe('');
    expect(valueOf(bad.text, 'external_id')).toBe('ext-1');
    const res = await operator.post('/console/customers/new', {
      _csrf: csrf,
      name: 'Globex <Corp>',
      external_id: 'ext-1',
      contact_email: 'ap@globex.test',
    });
    expect(res.status).toBe(303);
    customerId = idFrom(res.headers.get('location'), '/console/customers');
    expect((await org.call('GET', `/v1/customers/${customerId}`)).body).toMatchObject({
      name: 'Globex <Corp>',
      external_id: 'ext-1',
      contact_email: 'ap@globex.test',
    });
    const list = await viewer.get('/console/customers');
    expect(rowWith(list.text, 'Globex &#60;Corp&#62;')).toContain('ap@globex.test');
    expect(list.text).toContain('<a href="/console/export/customer.yaml" download>Export as YAML</a>');
    expect(list.text).not.toContain('New customer');

    const edit = await operator.post(`/console/customers/${customerId}`, {
      _csrf: csrf,
      name: 'Globex',
      external_id: '',
      contact_email: '',
    });
    expect(edit.status).toBe(303);
    expect((await org.call('GET', `/v1/customers/${customerId}`)).body).toMatchObject({
      name: 'Globex',
      external_id: null,
      contact_email: null,
    });

    await sql('update customers set config_key = ? where id = ?', ['globex', customerId]);
    expect((await operator.get(`/console/customers/${customerId}`)).text).toContain('(key <code>globex</code>)');
    expect(rowWith((await operator.get('/console/customers')).text, 'Globex')).toContain(
      '(config: <code>globex</code>)',
    );
  });

  it('is refused to viewers (403) and 404 for another organization', async () => {
    const page = await viewer.get(`/console/customers/${customerId}`);
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('Delete this customer');
    const csrf = csrfOf(page.text);
    expect((await viewer.post(`/console/customers/${customerId}`, { _csrf: csrf, name: 'x' })).status).toBe(403);
    expect((await viewer.post('/console/customers/new', { _csrf: csrf, name: 'x' })).status).toBe(403);
    expect((await viewer.post(`/console/customers/${customerId}/delete`, { _csrf: csrf })).status).toBe(403);
    const theirs = (await other.call('POST', '/v1/customers', { name: 'Theirs' })).body;
    expect((await operator.get(`/console/customers/${theirs.id}`)).status).toBe(404);
    expect(
      (await operator.submit('/console/customers', `/console/customers/${theirs.id}`, { name: 'Mine now' })).status,
    ).toBe(404);
    expect((await operator.submit('/console/customers', `/console/customers/${theirs.id}/delete`, {})).status).toBe(
      404,
    );
    expect((await other.call('GET', `/v1/customers/${theirs.id}`)).body.name).toBe('Theirs');
  });

  it('deletes after a confirmation page', async () => {
    const confirm = await operator.get(`/console/customers/${customerId}/delete`);
    expect(confirm.text).toContain('Delete the customer <strong>Globex</strong>?');
    const res = await operator.post(`/console/customers/${customerId}/delete`, { _csrf: csrfOf(confirm.text) });
    expect([res.status, res.headers.get('location')]).toEqual([303, '/console/customers']);
    expect((await org.call('GET', `/v1/customers/${customerId}`)).status).toBe(404);
  });
});

describe('console contracts', () => {
  let customerId: string;
  let contractId: string;
  const terms = (extra: Record<string, string | string[]> = {}) => ({
    'credit_terms.type': 'tiered',
    'credit_terms.steps.0.below_pct': '99.9',
    'credit_terms.steps.0.credit_pct': '10',
    'credit_terms.steps.1.below_pct': '99',
    'credit_terms.steps.1.credit_pct': '25',
    'credit_terms.steps.2.below_pct': '',
    'credit_terms.steps.2.credit_pct': '',
    'credit_terms.cap_pct': '100',
    'credit_terms.minimum_credit': '0',
    'credit_terms.rounding': 'half_up',
    'credit_terms.maintenance_notice_hours': '48',
    'credit_terms.no_data_counts_as': 'up',
    'credit_terms.min_coverage_pct': '99',
    ...extra,
  });
  const contract = () => ({
    customer_id: customerId,
    name: 'Globex SLA',
    service_ids: [org.services.Checkout],
    sla_target_pct: '99.9',
    timezone: 'Europe/Berlin',
    currency: 'USD',
    monthly_fee: '10000.00',
    effective_from: '2026-01-01',
    effective_to: '',
    billing_email: '',
    finance_contacts: 'ap@globex.test, cfo@globex.test',
    escalation_contacts: '',
    grace_hours: '48',
  });

  beforeAll(async () => {
    customerId = (await org.call('POST', '/v1/customers', { name: `Contract customer ${run}` })).body.id;
  });

  it('shows a worked example computed by the statement arithmetic, recomputed on "Show example"', async () => {
    const form = await finance.get('/console/contracts/new');
    expect(form.status).toBe(200);
    const csrf = csrfOf(form.text);
    const shown = await finance.post('/console/contracts/new', {
      _csrf: csrf,
      _op: 'example',
      ...contract(),
      ...terms(),
      example_attainment_pct: '99.2',
    });
    expect(shown.status).toBe(200);
    // The domain's own answer for the same terms, fee and attainment (99.2% = 992/1000).
    const parsed = creditTermsSchema.parse({
      type: 'tiered',
      steps: [
        { below_pct: '99.9', credit_pct: '10' },
        { below_pct: '99', credit_pct: '25' },
      ],
      maintenance_notice_hours: 48,
    });
    const want = computeCredit(parsed, 1_000_000, 'USD', { numerator: 992n, denominator: 1000n }, 1000, 8);
    expect(want.creditAmountMinor).toBe(100_000);
    expect(shown.text).toContain(
      'At 99.2% attainment on a $10,000.00 monthly fee this contract pays <strong class="example-amount">$1,000.00</strong> (10% of the fee).',
    );
    expect(shown.text).toContain('about 345.6 minutes down');
    // Recomputed with another attainment and a cap, nothing saved.
    const capped = await finance.post('/console/contracts/new', {
      _csrf: csrf,
      _op: 'example',
      ...contract(),
      ...terms({ 'credit_terms.cap_pct': '20' }),
      example_attainment_pct: '98.5',
    });
    const want2 = computeCredit(
      { ...parsed, cap_pct: '20' },
      1_000_000,
      'USD',
      { numerator: 985n, denominator: 1000n },
      1000,
      15,
    );
    expect([want2.creditAmountMinor, want2.capped]).toEqual([200_000, true]);
    expect(capped.text).toContain('pays <strong class="example-amount">$2,000.00</strong> (20% of the fee).');
    expect(capped.text).toContain('The cap limited the credit.');
    // "Add a step" adds a tier row, keeping the others.
    const added = await finance.post('/console/contracts/new', {
      _csrf: csrf,
      _op: 'add_step',
      ...contract(),
      ...terms(),
    });
    expect(added.text).toContain('name="credit_terms.steps.3.below_pct"');
    expect(valueOf(added.text, 'credit_terms.steps.1.credit_pct')).toBe('25');
    expect((await org.call('GET', '/v1/contracts')).body.items).toHaveLength(0);
  });

  it('creates a contract as finance (PRG) with the terms the form held; errors in words keep the input', async () => {
    const csrf = csrfOf((await finance.get('/console/contracts/new')).text);
    const bad = await finance.post('/console/contracts/new', {
      _csrf: csrf,
      _op: 'save',
      ...contract(),
      monthly_fee: '10000.123',
      ...terms({ 'credit_terms.steps.1.below_pct': '99.95' }),
    });
    expect(bad.status).toBe(400);
    expect(errorOf(bad.text, 'monthly_fee')).toBe(
      'Monthly fee must be an amount such as 10000.00 (at most 2 decimals)',
    );
    expect(errorOf(bad.text, 'credit_terms.steps.1.below_pct')).toContain(
      'Steps must be ordered with below_pct strictly decreasing (mildest breach first)',
    );
    expect(valueOf(bad.text, 'monthly_fee')).toBe('10000.123');
    expect(valueOf(bad.text, 'credit_terms.steps.1.below_pct')).toBe('99.95');

    const res = await finance.post('/console/contracts/new', { _csrf: csrf, _op: 'save', ...contract(), ...terms() });
    expect(res.status).toBe(303);
    contractId = idFrom(res.headers.get('location'), '/console/contracts');
    expect((await org.call('GET', `/v1/contracts/${contractId}`)).body).toMatchObject({
      customer_id: customerId,
      name: 'Globex SLA',
      service_ids: [org.services.Checkout],
      monthly_fee_minor: 1_000_000,
      effective_to: null,
      finance_contacts: ['ap@globex.test', 'cfo@globex.test'],
      credit_terms: {
        type: 'tiered',
        steps: [
          { below_pct: '99.9', credit_pct: '10' },
          { below_pct: '99', credit_pct: '25' },
        ],
        cap_pct: '100',
        minimum_credit_minor: 0,
      },
    });
    const list = await viewer.get('/console/contracts');
    const row = rowWith(list.text, 'Globex SLA');
    expect(row).toContain('$10,000.00');
    expect(row).toContain('tiered: &lt;99.9% → 10%, &lt;99% → 25%; cap 100%');
    expect(list.text).toContain('<a href="/console/export/contract.yaml" download>Export as YAML</a>');
  });

  it('edits the terms as finance; operators and viewers read it with its example but cannot act (403)', async () => {
    const page = await finance.get(`/console/contracts/${contractId}`);
    expect(valueOf(page.text, 'monthly_fee')).toBe('10000.00');
    const csrf = csrfOf(page.text);
    const res = await finance.post(`/console/contracts/${contractId}`, {
      _csrf: csrf,
      _op: 'save',
      ...contract(),
      ...terms({ 'credit_terms.type': 'proportional', 'credit_terms.multiplier': '10' }),
    });
    expect(res.status).toBe(303);
    expect((await org.call('GET', `/v1/contracts/${contractId}`)).body.credit_terms).toMatchObject({
      type: 'proportional',
      multiplier: '10',
    });

    for (const reader of [operator, viewer]) {
      const read = await reader.get(`/console/contracts/${contractId}`);
      expect(read.status).toBe(200);
      expect(read.text).not.toContain('<form class="stack');
      // Proportional ×10 at 99.2%: 0.8% down × 10 = 8% of the fee.
      expect(read.text).toContain('pays <strong class="example-amount">$800.00</strong> (8% of the fee)');
      expect((await reader.get('/console/contracts')).text).not.toContain('New contract');
      const rc = csrfOf(read.text);
      expect(
        (await reader.post(`/console/contracts/${contractId}`, { _csrf: rc, _op: 'save', ...contract(), ...terms() }))
          .status,
      ).toBe(403);
      expect(
        (await reader.post('/console/contracts/new', { _csrf: rc, _op: 'save', ...contract(), ...terms() })).status,
      ).toBe(403);
      expect((await reader.post(`/console/contracts/${contractId}/delete`, { _csrf: rc })).status).toBe(403);
    }
  });

  it('is 404 for another organization; a managed contract warns; deletes after a confirmation', async () => {
    const theirCustomer = (await other.call('POST', '/v1/customers', { name: 'Theirs' })).body.id;
    const theirs = (
      await other.call('POST', '/v1/contracts', {
        customer_id: theirCustomer,
        name: 'Theirs',
        service_ids: [other.services.Elsewhere],
        sla_target_pct: '99.9',
        timezone: 'UTC',
        currency: 'EUR',
        monthly_fee_minor: 1000,
        effective_from: '2026-01-01',
        credit_terms: { type: 'tiered', steps: [{ below_pct: '99', credit_pct: '10' }], maintenance_notice_hours: 48 },
      })
    ).body;
    expect((await finance.get(`/console/contracts/${theirs.id}`)).status).toBe(404);
    expect((await finance.submit('/console/contracts', `/console/contracts/${theirs.id}/delete`, {})).status).toBe(404);

    await sql('update contracts set config_key = ? where id = ?', ['globex-sla', contractId]);
    expect((await finance.get(`/console/contracts/${contractId}`)).text).toContain('(key <code>globex-sla</code>)');
    const confirm = await finance.get(`/console/contracts/${contractId}/delete`);
    const res = await finance.post(`/console/contracts/${contractId}/delete`, { _csrf: csrfOf(confirm.text) });
    expect([res.status, res.headers.get('location')]).toEqual([303, '/console/contracts']);
    expect((await org.call('GET', `/v1/contracts/${contractId}`)).status).toBe(404);
  });
});
