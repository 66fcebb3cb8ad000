import type { EntityManager } from '@mikro-orm/postgresql';
import { createWebhookActivities } from '../../src/activities/webhooks';
import { OutboxEventSchema, WebhookDeliverySchema } from '../../src/db/entities';
import { dispatchOutbox } from '../../src/db/repositories/outbox-repository';
import { type Mailer, createMailer } from '../../src/infra/mailer';
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
 * The configuration side of the console (metrics, status pages, webhooks, agents) over the real
 * API, PostgreSQL and a real SMTP sink for sign-in. The probe test that needs a prober runs in
 * test/temporal/console-probe-test.test.ts.
 */
let api: ApiHarness;
let smtp: SmtpSink;
let mailer: Mailer;
let org: OrgFixture<never, 'Checkout' | 'Search'>;
let other: OrgFixture<never, 'Elsewhere'>;
let operator: ConsoleClient;
let viewer: ConsoleClient;
let rx: Receiver;

const TEMPORAL_UI = 'http://temporal-ui.test';
const INSTALLATION = `console-config-${process.pid}-${Date.now().toString(36)}`;
const THRESHOLDS = {
  healthy_operation: 'under',
  healthy_value: 200,
  unhealthy_operation: 'over',
  unhealthy_value: 1000,
};

beforeAll(async () => {
  smtp = await startSmtpSink();
  mailer = createMailer({ smtpUrl: smtp.url, from: 'Vigil <console@vigil.test>', outboxDir: '/nonexistent' });
  // Its own installation, so the cloud locations registered below are the only ones its forms offer.
  api = await startApi({ console: { mail: mailer, temporalUiUrl: TEMPORAL_UI }, taskQueue: INSTALLATION });
  org = await orgWithKeys(api, { name: 'Config org', services: ['Checkout', 'Search'] });
  other = await orgWithKeys(api, { name: 'Other org', services: ['Elsewhere'] });
  rx = await startReceiver();
  operator = await signedInClient(api, smtp, org.id, 'operator@config.test', 'operator');
  viewer = await signedInClient(api, smtp, org.id, 'viewer@config.test', 'viewer');
}, 60_000);
afterAll(async () => {
  await rx?.close();
  await api?.close();
  await mailer?.close();
  await smtp?.close();
});

/** The table row (`<tr>…</tr>`) of a page that contains `text`. */
function rowWith(html: string, text: string): string {
  const row = html
    .split('<tr>')
    .slice(1)
    .find((r) => r.includes(text));
  if (!row) throw new Error(`no row with ${text}`);
  return row.split('</tr>')[0]!;
}

async function created(res: { status: number; body: any; text: string }): Promise<any> {
  if (res.status !== 201) throw new Error(`expected 201, got ${res.status}: ${res.text}`);
  return res.body;
}

async function registerAgent(o: OrgFixture<string, string>, name: string): Promise<{ id: string; token: string }> {
  return created(await o.call('POST', '/v1/agents', { name }));
}

let manualId: string;
let agentMetricId: string;
let idleAgent: { id: string; token: string };

describe('console metrics', () => {
  it('lists a manual and an agent metric with service, type, mode, status, value and reason label; filters by service and status', async () => {
    const manual = await created(
      await org.call('POST', '/v1/metrics', {
        service_id: org.services.Checkout,
        name: 'Checkout by hand',
        source_type: 'manual',
        source_config: {},
      }),
    );
    manualId = manual.id;
    const edge = await registerAgent(org, 'edge-1');
    const db = await created(
      await org.call('POST', '/v1/metrics', {
        service_id: org.services.Search,
        name: 'Search <db> port',
        source_type: 'tcp',
        source_config: { host: '10.0.0.5', port: 5432 },
        thresholds: THRESHOLDS,
        agent_id: edge.id,
        unit: 'ms',
        // The one refused connection below shows at once (no confirmation rounds).
        confirmation: { failures: 1, recoveries: 1 },
      }),
    );
    agentMetricId = db.id;
    // Before its first sample it waits for its first check; it does not claim a missing value.
    const fresh = rowWith((await viewer.get('/console/metrics')).text, 'Search &#60;db&#62; port');
    expect(fresh).toContain('<span class="badge neutral">first check in progress</span>');
    expect(fresh).not.toContain('No measurable value');
    // The agent reports that nothing listens there.
    const sampledAt = new Date().toISOString();
    const posted = await api.request('POST', '/v1/agent/samples', {
      headers: { authorization: `Bearer ${edge.token}` },
      body: { samples: [{ metric_id: db.id, sampled_at: sampledAt, value: null, reason: 'ECONNREFUSED' }] },
    });
    expect([posted.status, posted.body.accepted]).toEqual([200, 1]);

    const page = await viewer.get('/console/metrics');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<a href="/console/metrics" aria-current="page">Metrics</a>');
    const agentRow = rowWith(page.text, 'Search &#60;db&#62; port');
    expect(agentRow).not.toContain('<db>');
    expect(agentRow).toContain(`href="/console/metrics/${db.id}"`);
    expect(agentRow).toContain('>Search</a>');
    expect(agentRow).toContain('<code>tcp</code>');
    expect(agentRow).toMatch(/<td[^>]*>agent<\/td>/);
    // A refused connection is the target not answering: it reads as down, in words, with the stored status beside it.
    expect(agentRow).toContain(
      '<span class="badge unhealthy">Down (TCP connection refused)</span> <span class="muted">· no value: the target did not answer (status no data)</span>',
    );
    expect(agentRow).not.toContain('not measured');
    expect(agentRow).toContain('no value');
    expect(agentRow).toContain('TCP connection refused');
    expect(agentRow).toContain('Nothing listens on that host and port');
    expect(agentRow).toMatch(/<time datetime="[^"]+">\d+ \w+ \d{4}, \d\d:\d\d UTC<\/time>/);
    const manualRow = rowWith(page.text, 'Checkout by hand');
    expect(manualRow).toContain('<code>manual</code>');
    expect(manualRow).toMatch(/<td[^>]*>push<\/td>/);
    expect(manualRow).toContain('never');
    // A metric never set is not an outage, and not "no measurable value on the last tick" either.
    expect(manualRow).toContain('<span class="badge neutral">no status set yet</span>');
    expect(manualRow).not.toContain('No measurable value');

    const bySearch = await viewer.get(`/console/metrics?service_id=${org.services.Search}`);
    expect(bySearch.text).toContain('Search &#60;db&#62; port');
    expect(bySearch.text).not.toContain('Checkout by hand');
    expect(bySearch.text).toContain(`<option value="${org.services.Search}" selected>Search</option>`);
    const healthy = await viewer.get('/console/metrics?status=healthy');
    expect(healthy.text).toContain('No metric matches these filters.');
    expect((await viewer.get('/console/metrics?status=exploded')).status).toBe(400);
    expect((await viewer.get('/console/metrics?service_id=not-a-uuid')).status).toBe(400);
  });

  it('shows one metric with its reason, thresholds, configuration and history', async () => {
    const page = await viewer.get(`/console/metrics/${agentMetricId}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<h1>Metric: Search &#60;db&#62; port</h1>');
    expect(page.text).toContain('TCP connection refused');
    expect(page.text).toContain('unhealthy when over 1000 ms; healthy when under 200 ms; degraded otherwise');
    expect(page.text).toContain('&#34;host&#34;: &#34;10.0.0.5&#34;');
    expect(page.text).toContain('<code>ECONNREFUSED</code>');
    expect(page.text).toMatch(
      /<dt>Status<\/dt><dd><span class="badge unhealthy">Down \(TCP connection refused\)<\/span> <span class="muted">· no value: the target did not answer \(status no data\)<\/span>/,
    );
    const sample = rowWith(page.text.split('id="history"')[1]!, '<code>ECONNREFUSED</code>');
    expect(sample).toContain('Down (TCP connection refused)');
    // The agent by its name, not only its id.
    expect(page.text).toMatch(/<dt>Agent<\/dt><dd>edge-1 <span class="muted">/);
    expect(sample).toContain('<code>target</code>');
    // A viewer cannot run probe tests: no button, the reason instead.
    expect(page.text).not.toContain('>Test this probe</button>');
    expect(page.text).toContain('needs write:metrics or write:config');
    const asOperator = await operator.get(`/console/metrics/${agentMetricId}`);
    expect(asOperator.text).toContain(`<form method="post" action="/console/metrics/${agentMetricId}/test">`);
    // A manual metric has no probe to test.
    const manual = await operator.get(`/console/metrics/${manualId}`);
    expect(manual.text).toContain('there is no probe to test');
    expect(manual.text).not.toContain('>Test this probe</button>');
  });

  it('"Test this probe" answers the use case\'s problem on the page: an agent that cannot run tests is 409 agent_unavailable', async () => {
    const res = await operator.submit(
      `/console/metrics/${agentMetricId}`,
      `/console/metrics/${agentMetricId}/test`,
      {},
    );
    expect(res.status).toBe(409);
    expect(res.text).toContain(
      '<div class="problem" role="alert" tabindex="-1" id="problem" autofocus><h2>That could not be done</h2>',
    );
    expect(res.text).toContain('Error code: <code>agent_unavailable</code>');
    // The agent has posted samples (online) but never said its version: too old for probe tests.
    expect(res.text).toContain('The agent runs version unknown; probe tests need 1.7.0 or later.');
    expect(res.text).toContain('<h1>Metric: Search &#60;db&#62; port</h1>');
  });

  it("sets a manual metric's status through its form, and shows problems next to the field", async () => {
    const empty = await operator.submit(`/console/metrics/${manualId}`, `/console/metrics/${manualId}/status`, {
      status: '',
    });
    expect(empty.status).toBe(400);
    expect(empty.text).toContain('validation_failed');
    expect(empty.text).toMatch(
      /<select id="f-status" name="status" required aria-invalid="true" aria-describedby="f-status-hint f-status-error">/,
    );
    expect(empty.text).toContain(
      '<p class="field-error" id="f-status-error">Status must be one of healthy, degraded, unhealthy</p>',
    );
    const notManual = await operator.submit(
      `/console/metrics/${agentMetricId}`,
      `/console/metrics/${agentMetricId}/status`,
      { status: 'healthy' },
    );
    expect([notManual.status, notManual.text]).toEqual([
      400,
      expect.stringContaining('Only manual metrics take a status by hand.'),
    ]);

    const set = await operator.submit(`/console/metrics/${manualId}`, `/console/metrics/${manualId}/status`, {
      status: 'degraded',
    });
    expect(set.status).toBe(303);
    expect(set.headers.get('location')).toBe(`/console/metrics/${manualId}`);
    const after = await operator.get(set.headers.get('location')!);
    expect(after.text).toContain('<div class="flash" role="status">Status set to degraded.</div>');
    expect(after.text).toContain('<span class="badge degraded">degraded</span>');
    expect((await org.call('GET', `/v1/metrics/${manualId}`)).body.status).toBe('degraded');
  });

  it('pages the list with cursors, keeping the filters', async () => {
    const many = await orgWithKeys(api, { name: 'Many metrics', services: ['Fleet', 'Other'] });
    await created(
      await many.call('POST', '/v1/metrics', {
        service_id: many.services.Other,
        name: 'Not in the fleet',
        source_type: 'manual',
        source_config: {},
      }),
    );
    for (let i = 0; i < 52; i++)
      await created(
        await many.call('POST', '/v1/metrics', {
          service_id: many.services.Fleet,
          name: `fleet-${String(i).padStart(2, '0')}`,
          source_type: 'manual',
          source_config: {},
        }),
      );
    const b = await signedInClient(api, smtp, many.id, 'pager@config.test', 'viewer');
    const first = await b.get(`/console/metrics?service_id=${many.services.Fleet}`);
    const names = (html: string) => [...html.matchAll(/>(fleet-\d\d|Not in the fleet)<\/a>/g)].map((m) => m[1]);
    expect(names(first.text)).toHaveLength(50);
    // Newest first.
    expect(names(first.text)[0]).toBe('fleet-51');
    const next = /<nav class="pager" aria-label="Pages"><a href="([^"]+)">Next page →<\/a><\/nav>/
      .exec(first.text)![1]!
      .replace(/&#38;/g, '&');
    expect(new URL(next, api.baseUrl).searchParams.get('service_id')).toBe(many.services.Fleet);
    const second = await b.get(next);
    expect(names(second.text)).toEqual(['fleet-01', 'fleet-00']);
    expect(second.text).not.toContain('Next page');
    expect((await b.get('/console/metrics?cursor=garbage')).status).toBe(400);
  });

  it('refuses the probe test and the status form to a viewer (403) and to a post without the CSRF token (403)', async () => {
    const viewerCsrf = csrfOf((await viewer.get(`/console/metrics/${agentMetricId}`)).text);
    const test = await viewer.post(`/console/metrics/${agentMetricId}/test`, { _csrf: viewerCsrf });
    expect([test.status, test.text]).toEqual([403, expect.stringContaining('needs write:metrics or write:config')]);
    expect(
      (await viewer.get(`/console/metrics/${agentMetricId}/test/00000000-0000-4000-8000-000000000000`)).status,
    ).toBe(403);
    const status = await viewer.post(`/console/metrics/${manualId}/status`, { _csrf: viewerCsrf, status: 'healthy' });
    expect([status.status, status.text]).toEqual([403, expect.stringContaining('needs write:metrics')]);
    const forged = await operator.post(`/console/metrics/${agentMetricId}/test`, {});
    expect([forged.status, forged.text]).toEqual([403, expect.stringContaining('CSRF')]);
    expect((await operator.post(`/console/metrics/${manualId}/status`, { status: 'healthy' })).status).toBe(403);
    expect((await org.call('GET', `/v1/metrics/${manualId}`)).body.status).toBe('degraded');
  });

  it("answers 404 for another organization's metric, and for unknown probe tests", async () => {
    const theirs = await created(
      await other.call('POST', '/v1/metrics', {
        service_id: other.services.Elsewhere,
        name: 'Theirs',
        source_type: 'manual',
        source_config: {},
      }),
    );
    expect((await operator.get(`/console/metrics/${theirs.id}`)).status).toBe(404);
    expect((await operator.get('/console/metrics/not-a-uuid')).status).toBe(404);
    expect(
      (await operator.submit(`/console/metrics/${manualId}`, `/console/metrics/${theirs.id}/test`, {})).status,
    ).toBe(404);
    expect(
      (
        await operator.submit(`/console/metrics/${manualId}`, `/console/metrics/${theirs.id}/status`, {
          status: 'healthy',
        })
      ).status,
    ).toBe(404);
    expect((await other.call('GET', `/v1/metrics/${theirs.id}`)).body.status).not.toBe('healthy');
    expect(
      (await operator.get(`/console/metrics/${agentMetricId}/test/00000000-0000-4000-8000-000000000000`)).status,
    ).toBe(404);
    // The other organization's list never shows this one's metrics.
    expect((await operator.get(`/console/metrics?service_id=${other.services.Elsewhere}`)).text).not.toContain(
      'Theirs',
    );
  });
});

describe('console status pages', () => {
  it('lists each page with its title, subdomain and links to the live page and its feeds, as the API names them', async () => {
    const sub = `cfg-${org.id.slice(0, 8)}`;
    const page = await created(
      await org.call('POST', '/v1/status-pages', { subdomain: sub, title: 'Acme & Co status' }),
    );
    const list = await viewer.get('/console/status-pages');
    expect(list.status).toBe(200);
    const row = rowWith(list.text, sub);
    expect(row).toContain('Acme &#38; Co status');
    expect(page.url).toMatch(new RegExp(`^http://${sub}\\.status\\.localhost:\\d+/$`));
    expect(row).toContain(`<a href="${page.url}" rel="noopener">${page.url}</a>`);
    expect(row).toContain(`<a href="${page.feeds.atom}" rel="noopener">Atom</a>`);
    expect(row).toContain(`<a href="${page.feeds.rss}" rel="noopener">RSS</a>`);
    // The link is the live page: the API serves it on that host.
    const live = await pageRequest(api.baseUrl, sub, '/');
    expect([live.status, live.text]).toEqual([200, expect.stringContaining('Acme &#38; Co status')]);
  });
});

describe('console webhooks', () => {
  let hookId: string;
  let deliveryId: string;

  it('lists subscriptions with their URL, events and state', async () => {
    const hook = await created(
      await org.call('POST', '/v1/webhooks', {
        url: rx.url,
        event_types: ['incident.created'],
        description: 'Pager bridge',
      }),
    );
    hookId = hook.id;
    const off = await created(
      await org.call('POST', '/v1/webhooks', {
        url: 'https://hooks.example.com/off',
        event_types: ['maintenance.started', 'incident.resolved'],
      }),
    );
    await org.call('PATCH', `/v1/webhooks/${off.id}`, { enabled: false });
    const list = await viewer.get('/console/webhooks');
    expect(list.status).toBe(200);
    const row = rowWith(list.text, rx.url);
    expect(row).toContain(`href="/console/webhooks/${hook.id}"`);
    expect(row).toContain('Pager bridge');
    expect(row).toContain('<code>incident.created</code>');
    expect(row).toContain('<span class="badge healthy">enabled</span>');
    const offRow = rowWith(list.text, 'hooks.example.com/off');
    expect(offRow).toContain('<code>maintenance.started</code>, <code>incident.resolved</code>');
    expect(offRow).toContain('<span class="badge neutral">disabled</span>');
  });

  it(
    'shows the delivery log of a subscription and a delivery with its attempts',
    async () => {
      // No Temporal here: fan the event out (as the relay does, holding its turn, taken before the
      // event is written so no other suite's relay takes it) and run the delivery activity once, a
      // real signed POST to the receiver.
      const em = () => api.orm.em.fork() as EntityManager;
      const release = await takeRelayTurn();
      const incident = await created(await org.call('POST', '/v1/incidents', { title: 'Console delivery' }));
      try {
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
      const delivery = await em().findOneOrFail(WebhookDeliverySchema, { subscription: hookId });
      deliveryId = delivery.id;
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
        deliveryId,
        attempt: 1,
        policy: { initialMs: 100, factor: 2, maxMs: 100, giveUpAfterMs: 1_000 },
        elapsedMs: 0,
        jitter: 0,
      });
      expect(outcome.state).toBe('succeeded');
      expect(rx.received).toHaveLength(1);

      const log = await viewer.get(`/console/webhooks/${hookId}`);
      expect(log.status).toBe(200);
      expect(log.text).toContain(`<h1>Webhook: ${rx.url}</h1>`);
      const row = rowWith(log.text, 'incident.created</a>');
      expect(row).toContain(`href="/console/webhooks/${hookId}/deliveries/${deliveryId}"`);
      expect(row).toContain('<span class="badge healthy">succeeded</span>');
      expect(row).toMatch(/<td[^>]*>1<\/td>/);
      expect(row).toContain('HTTP 200');
      expect(row).toMatch(/<time datetime=/);
      expect((await viewer.get(`/console/webhooks/${hookId}?state=failed`)).text).toContain(
        'No delivery in this state.',
      );
      expect((await viewer.get(`/console/webhooks/${hookId}?state=exploded`)).status).toBe(400);

      const one = await viewer.get(`/console/webhooks/${hookId}/deliveries/${deliveryId}`);
      expect(one.status).toBe(200);
      expect(one.text).toContain(`<code>${rx.received[0]!.id}</code>`);
      const attempt = rowWith(one.text, 'data-label="#">1</td>');
      expect(attempt).toContain('HTTP 200');
      expect(attempt).toContain('<span class="badge healthy">succeeded</span>');
      expect(one.text).toContain(
        `<a href="${TEMPORAL_UI}/namespaces/default/workflows/webhook%3A${deliveryId}" rel="noopener">Open in Temporal UI`,
      );
      // A viewer may read it, not send it again.
      expect(one.text).not.toContain('>Redeliver</button>');
    },
    RELAY_WAIT,
  );

  it('redelivers as the API does: a new pending delivery of the same event, linked to the original; a pending one is 409', async () => {
    const page = await operator.get(`/console/webhooks/${hookId}/deliveries/${deliveryId}`);
    expect(page.text).toContain(
      `<form class="inline" method="post" action="/console/webhooks/${hookId}/deliveries/${deliveryId}/redeliver">`,
    );
    const res = await operator.post(`/console/webhooks/${hookId}/deliveries/${deliveryId}/redeliver`, {
      _csrf: csrfOf(page.text),
    });
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get('location')!, api.baseUrl);
    const newId = /\/deliveries\/([0-9a-f-]{36})$/.exec(location.pathname)![1]!;
    expect(newId).not.toBe(deliveryId);
    const shown = await operator.get(`${location.pathname}${location.search}`);
    expect(shown.text).toContain('Queued a new delivery of the same event');
    expect(shown.text).toContain('<span class="badge degraded">pending</span>');
    expect(shown.text).toContain(`<a href="/console/webhooks/${hookId}/deliveries/${deliveryId}">${deliveryId}</a>`);
    expect(shown.text).toContain('still being attempted');
    const apiView = (await org.call('GET', `/v1/webhooks/${hookId}/deliveries/${newId}`)).body;
    expect(apiView).toMatchObject({ state: 'pending', redelivery_of: deliveryId, event_id: rx.received[0]!.id });
    // The new one is still pending (no starter here): sending it again is refused, shown on its page.
    const again = await operator.post(`/console/webhooks/${hookId}/deliveries/${newId}/redeliver`, {
      _csrf: csrfOf(page.text),
    });
    expect(again.status).toBe(409);
    expect(again.text).toContain('Error code: <code>delivery_in_progress</code>');
  });

  it("refuses redeliver to a viewer and without the CSRF token (403), and another organization's webhook is 404", async () => {
    const csrf = csrfOf((await viewer.get('/console/webhooks')).text);
    const asViewer = await viewer.post(`/console/webhooks/${hookId}/deliveries/${deliveryId}/redeliver`, {
      _csrf: csrf,
    });
    expect([asViewer.status, asViewer.text]).toEqual([403, expect.stringContaining('needs write:config')]);
    expect((await operator.post(`/console/webhooks/${hookId}/deliveries/${deliveryId}/redeliver`, {})).status).toBe(
      403,
    );
    const theirs = await created(
      await other.call('POST', '/v1/webhooks', {
        url: 'https://hooks.example.com/theirs',
        event_types: ['incident.created'],
      }),
    );
    expect((await operator.get(`/console/webhooks/${theirs.id}`)).status).toBe(404);
    expect((await operator.get(`/console/webhooks/${theirs.id}/deliveries/${deliveryId}`)).status).toBe(404);
    expect(
      (
        await operator.submit(
          '/console/webhooks',
          `/console/webhooks/${theirs.id}/deliveries/${deliveryId}/redeliver`,
          {},
        )
      ).status,
    ).toBe(404);
    expect((await operator.get('/console/webhooks')).text).not.toContain('hooks.example.com/theirs');
    // Only the original and the one redelivery exist.
    expect(await api.orm.em.fork().count(WebhookDeliverySchema, { subscription: hookId })).toBe(2);
  });
});

describe('console agents', () => {
  it('lists agents with status, version, probe-test ability, hostname and last seen', async () => {
    idleAgent = await registerAgent(org, 'spare <one>');
    const list = await viewer.get('/console/agents');
    expect(list.status).toBe(200);
    const row = rowWith(list.text, 'spare &#60;one&#62;');
    expect(row).toContain('<span class="badge neutral">never connected</span>');
    expect(row).toMatch(/<td[^>]*>no <span class="muted">\(version unknown\)<\/span><\/td>/);
    expect(row).toContain('<span class="muted">never</span>');
    expect(row).toContain(`href="/console/metrics?agent_id=${idleAgent.id}"`);
    // The agent that posted samples is online.
    const edge = rowWith(list.text, 'edge-1');
    expect(edge).toContain('<span class="badge healthy">online</span>');
    expect(edge).toMatch(/<time datetime=/);
    // Its metrics, through the list's agent filter.
    const mine = await viewer.get(`/console/metrics?agent_id=${idleAgent.id}`);
    expect(mine.text).toContain('No metric matches these filters.');
  });

  it('is read:config, which every role holds: finance reads the configuration pages too', async () => {
    const finance = await signedInClient(api, smtp, org.id, 'finance@config.test', 'finance');
    expect((await finance.get('/console/agents')).status).toBe(200);
    expect((await finance.get('/console/webhooks')).status).toBe(200);
    expect((await finance.get('/console/status-pages')).status).toBe(200);
  });
});

describe('console metric locations and confirmation', () => {
  const suffix = Date.now().toString(36);
  const EU = `con-eu-${suffix}`;
  const US = `con-us-${suffix}`;
  let edge: { id: string; token: string };
  let agentMetric: any;
  let cloudMetric: any;
  const sql = (q: string, params: unknown[] = []) => api.orm.em.getConnection().execute(q, params);

  beforeAll(async () => {
    // Registered as a prober's heartbeat would: Frankfurt online, Virginia silent for an hour.
    await sql(
      `insert into probe_locations (task_queue, id, label, version, heartbeat_seconds, started_at, last_seen_at) values (?, ?, 'Frankfurt', 'test', 10, now(), now()), (?, ?, 'Virginia', 'test', 10, now() - interval '2 hours', now() - interval '1 hour')`,
      [INSTALLATION, EU, INSTALLATION, US],
    );
    edge = await registerAgent(org, 'edge-2');
    agentMetric = await created(
      await org.call('POST', '/v1/metrics', {
        service_id: org.services.Search,
        name: 'Search replica',
        source_type: 'tcp',
        source_config: { host: '10.0.0.6', port: 5432 },
        thresholds: THRESHOLDS,
        agent_id: edge.id,
        unit: 'ms',
        interval_seconds: 300,
      }),
    );
    cloudMetric = await created(
      await org.call('POST', '/v1/metrics', {
        service_id: org.services.Checkout,
        name: 'Checkout from the world',
        source_type: 'http',
        source_config: { url: 'https://shop.example.com/health' },
        thresholds: THRESHOLDS,
        unit: 'ms',
        locations: [EU, US],
      }),
    );
  });

  const postSample = async (secondsAgo: number, value: number) => {
    const res = await api.request('POST', '/v1/agent/samples', {
      headers: { authorization: `Bearer ${edge.token}` },
      body: {
        samples: [
          { metric_id: agentMetric.id, sampled_at: new Date(Date.now() - secondsAgo * 1000).toISOString(), value },
        ],
      },
    });
    expect([res.status, res.body.accepted]).toEqual([200, 1]);
  };

  it("shows each location's latest answer, the pending confirmation, the settings, and each flip with when it began, when it was confirmed and the locations that confirmed it", async () => {
    await postSample(120, 1500);
    const pending = await viewer.get(`/console/metrics/${agentMetric.id}`);
    expect(pending.status).toBe(200);
    expect(pending.text).toContain('<strong id="confirmation-pending">failing 1 of 2</strong>');
    const reading = rowWith(pending.text, `agent:${edge.id}`);
    expect(reading).toContain('edge-2');
    expect(reading).toContain('1500 ms');
    expect(reading).toContain('<span class="badge unhealthy">unhealthy</span>');
    expect(pending.text).toContain('The default: its agent');
    expect(pending.text).toMatch(/<dt>A round fails when<\/dt><dd>a majority of the voting locations<\/dd>/);
    expect(pending.text).toMatch(/<dt>Flips after<\/dt><dd>2 consecutive failing rounds<\/dd>/);
    expect(pending.text).toMatch(/<dt>Returns after<\/dt><dd>2 consecutive good rounds<\/dd>/);
    expect(pending.text).toMatch(/<dt>Recheck<\/dt><dd>off<\/dd>/);
    expect(pending.text).toContain('No status change yet.');
    // A viewer reads, the form is for write:metrics.
    expect(pending.text).not.toContain('/measurement"');

    await postSample(60, 1600);
    const flipped = await viewer.get(`/console/metrics/${agentMetric.id}`);
    expect(flipped.text).toContain('Nothing pending: the status shown is confirmed.');
    const [flip] = (await org.call('GET', `/v1/metrics/${agentMetric.id}/flips`)).body.items;
    expect(flip).toMatchObject({ to_status: 'unhealthy', confirmations: 2 });
    const row = rowWith(flipped.text, '2 rounds');
    expect(row).toContain(
      '<span class="badge neutral">no data</span> → <span class="badge unhealthy">unhealthy</span>',
    );
    expect(row).toContain(`<time datetime="${flip.at}">`);
    expect(row).toContain(`<time datetime="${flip.confirmed_at}">`);
    expect(Date.parse(flip.at)).toBeLessThan(Date.parse(flip.confirmed_at));
    expect(row).toContain('1 of 1 location <span class="muted">(edge-2)</span>');
  });

  it("shows a cloud metric's locations (one offline), and counts the confirming round's votes of a flip", async () => {
    // What three locations said in the round that confirmed a flip: two failing (one of them a target reason), one passing.
    const at = new Date(Date.now() - 600_000).toISOString();
    const confirmed = new Date(Date.now() - 540_000).toISOString();
    const vote = (location: string, value: number | null, status: string, reason: string | null) => ({
      location,
      value,
      status,
      reason,
      at,
    });
    const rounds = [
      {
        at,
        votes: [
          vote(EU, 1500, 'unhealthy', null),
          vote(US, null, 'no_data', 'ETIMEDOUT'),
          vote('agent:' + edge.id, 80, 'healthy', null),
        ],
      },
      {
        at: confirmed,
        votes: [
          vote(EU, 1700, 'unhealthy', null),
          vote(US, null, 'no_data', 'ETIMEDOUT'),
          vote('agent:' + edge.id, 90, 'healthy', null),
        ],
      },
    ];
    await sql(
      `insert into metric_status_flips (id, organization_id, metric_id, from_status, to_status, value, reason, at, votes, confirmations, confirmed_at) values (gen_random_uuid(), ?, ?, 'healthy', 'unhealthy', 1700, null, ?, ?::jsonb, 2, ?)`,
      [org.id, cloudMetric.id, at, JSON.stringify(rounds), confirmed],
    );
    await sql(`update metrics set location_readings = ?::jsonb where id = ?`, [
      JSON.stringify({ [EU]: { value: 1700, status: 'unhealthy', reason: null, at: new Date().toISOString() } }),
      cloudMetric.id,
    ]);
    const page = await viewer.get(`/console/metrics/${cloudMetric.id}`);
    expect(page.status).toBe(200);
    const eu = rowWith(page.text, `<code class="muted">${EU}</code>`);
    expect(eu).toContain('Frankfurt');
    expect(eu).toContain('1700 ms');
    // Virginia has not answered: "location offline", which is no vote (never a failure).
    const us = rowWith(page.text, `<code class="muted">${US}</code>`);
    expect(us).toContain('<span class="badge neutral">location offline</span>');
    expect(us).toContain('absent: it does not vote');
    expect(page.text).toMatch(/<dt>Measured by<\/dt><dd>Frankfurt <code class="muted">[^<]+<\/code>, Virginia/);
    const flip = rowWith(page.text, '2 rounds');
    expect(flip).toContain('2 of 3 locations <span class="muted">(Frankfurt, Virginia)</span>');
    expect(flip).toContain(`<time datetime="${at}">`);
    expect(flip).toContain(`<time datetime="${confirmed}">`);
    // A pushed metric has neither locations nor a confirmation, and no form.
    const manual = await operator.get(`/console/metrics/${manualId}`);
    expect(manual.text).toContain('Pushed to Vigil: no location measures it');
    expect(manual.text).not.toContain('/measurement"');
  });

  it('changes locations and confirmation through the form, as PATCH /v1/metrics/{id} does, and shows its problems readably', async () => {
    const page = await operator.get(`/console/metrics/${cloudMetric.id}`);
    expect(page.text).toContain(
      `<form class="stack" method="post" action="/console/metrics/${cloudMetric.id}/measurement">`,
    );
    // Offered: the installation's cloud locations and the organization's agents, the configured ones ticked.
    expect(page.text).toContain(`<input type="checkbox" name="locations" value="${EU}" checked> Frankfurt`);
    expect(page.text).toContain(`<input type="checkbox" name="locations" value="${US}" checked> Virginia`);
    expect(page.text).toMatch(
      new RegExp(
        `value="agent:${edge.id}"> edge-2 <code class="muted">agent:${edge.id}</code> <span class="muted">· agent, online</span>`,
      ),
    );
    expect(page.text).toContain('<option value="majority" selected>');

    const saved = await operator.submit(
      `/console/metrics/${cloudMetric.id}`,
      `/console/metrics/${cloudMetric.id}/measurement`,
      {
        locations: [EU, `agent:${edge.id}`],
        'confirmation.quorum': '2',
        'confirmation.failures': '3',
        'confirmation.recoveries': '1',
        'confirmation.recheck': 'true',
      },
    );
    expect(saved.status).toBe(303);
    expect(saved.headers.get('location')).toBe(`/console/metrics/${cloudMetric.id}`);
    expect((await org.call('GET', `/v1/metrics/${cloudMetric.id}`)).body).toMatchObject({
      locations: [EU, `agent:${edge.id}`],
      confirmation: { quorum: 2, failures: 3, recoveries: 1, recheck: true },
    });
    const after = await operator.get(`/console/metrics/${cloudMetric.id}`);
    expect(after.text).toContain('Locations and confirmation saved.');
    expect(after.text).toMatch(/<dt>A round fails when<\/dt><dd>at least 2 locations<\/dd>/);
    expect(after.text).toMatch(/<dt>Recheck<\/dt><dd>on: /);
    expect(after.text).toContain(`<input type="checkbox" name="locations" value="${US}"> Virginia`);
    expect(after.text).toContain('<option value="2" selected>');
    expect(after.text).toContain(
      'name="confirmation.failures" required aria-describedby="f-confirmation-failures-hint" value="3"',
    );

    // Nothing ticked is the default again; a bad number is shown next to its field.
    const bad = await operator.submit(
      `/console/metrics/${cloudMetric.id}`,
      `/console/metrics/${cloudMetric.id}/measurement`,
      { 'confirmation.quorum': 'majority', 'confirmation.failures': 'many', 'confirmation.recoveries': '0' },
    );
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('<code>validation_failed</code>');
    expect(bad.text).toContain(
      '<p class="field-error" id="f-confirmation-failures-error">Failing rounds before it flips must be a whole number of rounds from 1 to 10</p>',
    );
    expect(bad.text).toMatch(/<p class="field-error" id="f-confirmation-recoveries-error">[^<]+<\/p>/);
    expect(bad.text).toContain('value="many"');

    // What only the API's checks know: a location that never registered (named by what was sent) and a quorum above the locations.
    const refused = await operator.submit(
      `/console/metrics/${cloudMetric.id}`,
      `/console/metrics/${cloudMetric.id}/measurement`,
      {
        locations: [EU, 'nowhere-x'],
        'confirmation.quorum': '3',
        'confirmation.failures': '2',
        'confirmation.recoveries': '2',
      },
    );
    expect(refused.status).toBe(400);
    expect(refused.text).toContain(
      '<p class="field-error" id="f-locations-error">nowhere-x: No location nowhere-x has registered (GET /v1/locations lists them)</p>',
    );
    expect(refused.text).toContain(
      '<p class="field-error" id="f-confirmation-quorum-error">quorum 3 is more than the 2 locations that measure the metric</p>',
    );
    expect(refused.text).toContain(
      `<input type="checkbox" name="locations" value="nowhere-x" checked aria-invalid="true">`,
    );
    expect((await org.call('GET', `/v1/metrics/${cloudMetric.id}`)).body).toMatchObject({
      locations: [EU, `agent:${edge.id}`],
      confirmation: { quorum: 2, failures: 3 },
    });

    const reset = await operator.submit(
      `/console/metrics/${cloudMetric.id}`,
      `/console/metrics/${cloudMetric.id}/measurement`,
      { 'confirmation.quorum': 'majority', 'confirmation.failures': '2', 'confirmation.recoveries': '2' },
    );
    expect(reset.status).toBe(303);
    expect((await org.call('GET', `/v1/metrics/${cloudMetric.id}`)).body).toMatchObject({
      locations: null,
      confirmation: { quorum: 'majority', failures: 2, recoveries: 2, recheck: false },
    });

    // An agent metric keeps its agent: the form changes only its confirmation.
    const agentPage = await operator.get(`/console/metrics/${agentMetric.id}`);
    expect(agentPage.text).toContain('Measured by its agent');
    expect(agentPage.text).not.toContain('name="locations"');
    const agentSaved = await operator.submit(
      `/console/metrics/${agentMetric.id}`,
      `/console/metrics/${agentMetric.id}/measurement`,
      { 'confirmation.quorum': 'any', 'confirmation.failures': '1', 'confirmation.recoveries': '1' },
    );
    expect(agentSaved.status).toBe(303);
    expect((await org.call('GET', `/v1/metrics/${agentMetric.id}`)).body).toMatchObject({
      agent_id: edge.id,
      locations: null,
      confirmation: { quorum: 'any', failures: 1, recoveries: 1, recheck: false },
    });
  });

  it("refuses the form to a viewer and without the CSRF token (403), for a pushed metric (400) and for another organization's metric (404)", async () => {
    const csrf = csrfOf((await viewer.get(`/console/metrics/${cloudMetric.id}`)).text);
    const asViewer = await viewer.post(`/console/metrics/${cloudMetric.id}/measurement`, {
      _csrf: csrf,
      'confirmation.quorum': 'any',
      'confirmation.failures': '1',
      'confirmation.recoveries': '1',
    });
    expect([asViewer.status, asViewer.text]).toEqual([403, expect.stringContaining('needs write:metrics')]);
    expect(
      (
        await operator.post(`/console/metrics/${cloudMetric.id}/measurement`, {
          'confirmation.quorum': 'any',
          'confirmation.failures': '1',
          'confirmation.recoveries': '1',
        })
      ).status,
    ).toBe(403);
    const pushed = await operator.submit(`/console/metrics/${manualId}`, `/console/metrics/${manualId}/measurement`, {
      'confirmation.quorum': 'any',
      'confirmation.failures': '1',
      'confirmation.recoveries': '1',
    });
    expect([pushed.status, pushed.text]).toEqual([400, expect.stringContaining('pushed to Vigil')]);
    expect((await org.call('GET', `/v1/metrics/${manualId}`)).body.confirmation).toBeNull();
    const theirs = await created(
      await other.call('POST', '/v1/metrics', {
        service_id: other.services.Elsewhere,
        name: 'Theirs too',
        source_type: 'http',
        source_config: { url: 'https://theirs.example.com' },
        thresholds: THRESHOLDS,
      }),
    );
    expect(
      (
        await operator.submit(`/console/metrics/${manualId}`, `/console/metrics/${theirs.id}/measurement`, {
          'confirmation.quorum': 'any',
          'confirmation.failures': '1',
          'confirmation.recoveries': '1',
        })
      ).status,
    ).toBe(404);
    expect((await other.call('GET', `/v1/metrics/${theirs.id}`)).body.confirmation).toMatchObject({
      quorum: 'majority',
      failures: 2,
    });
    expect((await viewer.get(`/console/metrics/${cloudMetric.id}`)).status).toBe(200);
  });
});
