import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EntityManager } from '@mikro-orm/postgresql';
import { OutboxEventSchema, WebhookDeliverySchema } from '../../src/db/entities';
import { dispatchOutbox } from '../../src/db/repositories/outbox-repository';
import { type Mailer, createMailer } from '../../src/infra/mailer';
import { probeTestWorkflowId, temporalProbeTestRunner } from '../../src/temporal/probe-test-runner';
import { webhookWorkflowId } from '../../src/temporal/outbox-workflow-starter';
import { type ApiHarness, startApi } from '../support/api-harness';
import { type ConsoleClient, signedInClient } from '../support/console-browser';
import { eventually } from '../support/eventually';
import { type OrgFixture, orgWithKeys } from '../support/org-fixture';
import { takeRelayTurn } from '../support/relay-turn';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink';
import { type TemporalHarness, startTemporalHarness } from '../support/temporal-harness';
import { type Receiver, startReceiver, unusedPort } from '../support/webhook-receiver';

/**
 * The console's "Test this probe" and Redeliver end to end: a real Temporal server and worker, the
 * cloud prober measuring an HTTP target on loopback (allowed by the harness's cloud allow-list),
 * an agent spoken by hand over the agent API, and webhook workflows posting to a real receiver.
 */
let h: TemporalHarness;
let api: ApiHarness;
let smtp: SmtpSink;
let mailer: Mailer;
let org: OrgFixture<never, 'Queue'>;
let operator: ConsoleClient;
let target: http.Server;
let targetUrl: string;
let rx: Receiver;
const uiUrl = process.env.VIGIL_TEST_TEMPORAL_UI_URL || 'http://127.0.0.1:8233';

beforeAll(async () => {
  h = await startTemporalHarness();
  smtp = await startSmtpSink();
  mailer = createMailer({ smtpUrl: smtp.url, from: 'Vigil <console@vigil.test>', outboxDir: '/nonexistent' });
  // Wired as `vigil start` wires it: cloud tests start eagerly on the worker in this process.
  api = await startApi({
    probeTestRunner: temporalProbeTestRunner(h.temporal, { eagerClient: h.worker.eagerClient }),
    localProbeJobs: h.worker.localProbeJobs,
    probeTestExpiryMs: 60_000,
    webhookStarter: h.webhookStarter,
    console: { mail: mailer, temporalUiUrl: uiUrl },
  });
  org = await orgWithKeys(api, { name: 'Probe console', services: ['Queue'] });
  operator = await signedInClient(api, smtp, org.id, 'prober@console.test', 'operator');
  target = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ queue_depth: 17 }));
  });
  await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
  targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}/stats`;
  rx = await startReceiver();
}, 120_000);
afterAll(async () => {
  await rx?.close();
  target?.closeAllConnections();
  await new Promise((r) => target?.close(r));
  await api?.close();
  await mailer?.close();
  await smtp?.close();
  await h?.close();
});

async function created(res: { status: number; body: any; text: string }): Promise<any> {
  if (res.status !== 201) throw new Error(`expected 201, got ${res.status}: ${res.text}`);
  return res.body;
}

/** The facts (`<dt>…</dt><dd>…</dd>`) of the test result block. */
function resultBlock(html: string): string {
  const m = /<div role="status" id="probe-test-result">([\s\S]*?)<\/div>/.exec(html);
  if (!m) throw new Error('no probe-test result on the page');
  return m[1]!;
}

const THRESHOLDS = { healthy_operation: 'under', healthy_value: 50, unhealthy_operation: 'over', unhealthy_value: 100 };

describe('console "Test this probe" with a real Temporal server', () => {
  it('runs a cloud HTTP probe of the metric against the target and shows the measured value and its status; stores nothing', async () => {
    const metric = await created(
      await org.call('POST', '/v1/metrics', {
        service_id: org.services.Queue,
        name: 'Queue depth',
        source_type: 'http',
        source_config: { url: targetUrl, json_path: '$.queue_depth', unit: 'jobs' },
        thresholds: THRESHOLDS,
      }),
    );
    const page = await operator.get(`/console/metrics/${metric.id}`);
    expect(page.text).toContain("Runs this metric's probe once from the cloud");
    const res = await operator.submit(`/console/metrics/${metric.id}`, `/console/metrics/${metric.id}/test`, {});
    expect(res.status).toBe(200);
    const block = resultBlock(res.text);
    expect(block).toContain('<dt>Value</dt><dd>17 jobs');
    expect(block).toContain(
      '<dt>Status against the thresholds</dt><dd><span class="badge healthy">healthy</span></dd>',
    );
    expect(block).toMatch(/<dt>Duration<\/dt><dd>\d+ ms<\/dd>/);
    expect(block).toContain('<dt>Ran on</dt><dd>the cloud prober</dd>');
    // Nothing was stored: the metric still has no sample.
    const after = (await org.call('GET', `/v1/metrics/${metric.id}`)).body;
    expect([after.status, after.last_sample_at, after.history]).toEqual(['no_data', null, []]);
  }, 30_000);

  it("shows why a probe measured nothing, with the same reason label and hint as the API's probe test", async () => {
    const closed = `http://127.0.0.1:${await unusedPort()}/stats`;
    const metric = await created(
      await org.call('POST', '/v1/metrics', {
        service_id: org.services.Queue,
        name: 'Nowhere',
        source_type: 'http',
        source_config: { url: closed },
        thresholds: THRESHOLDS,
      }),
    );
    const res = await operator.submit(`/console/metrics/${metric.id}`, `/console/metrics/${metric.id}/test`, {});
    expect(res.status).toBe(200);
    const apiAnswer = (
      await org.call('POST', '/v1/metrics/test', {
        source_type: 'http',
        source_config: { url: closed },
        thresholds: THRESHOLDS,
      })
    ).body;
    expect(apiAnswer.value).toBeNull();
    const block = resultBlock(res.text);
    expect(block).toContain('<dt>Value</dt><dd>no value');
    expect(block).toContain(apiAnswer.reason_label.replace(/'/g, '&#39;'));
    expect(block).toContain(`<code class="muted">${apiAnswer.reason}</code>`);
    expect(block).toContain('<span class="badge neutral">no data</span>');
  }, 30_000);

  it("runs an agent metric's test on its agent: answered within the wait it shows the result; unanswered it shows the pending test and links to its result", async () => {
    const agent = await created(await org.call('POST', '/v1/agents', { name: 'edge' }));
    const as = { authorization: `Bearer ${agent.token}` };
    await api.request('POST', '/v1/agent/heartbeat', { headers: as, body: { version: '2.0.0', hostname: 'edge-1' } });
    const metric = await created(
      await org.call('POST', '/v1/metrics', {
        service_id: org.services.Queue,
        name: 'Broker port',
        source_type: 'tcp',
        source_config: { host: '10.1.2.3', port: 5672 },
        thresholds: THRESHOLDS,
        agent_id: agent.id,
      }),
    );
    const answer = async (value: number) => {
      const polled = await api.request('GET', '/v1/agent/jobs?wait_seconds=20', { headers: as });
      const [job] = polled.body.jobs;
      expect(job).toMatchObject({ source_type: 'tcp', source_config: { host: '10.1.2.3', port: 5672 } });
      const done = await api.request('POST', `/v1/agent/jobs/${job.job_id}/result`, {
        headers: as,
        body: { outcome: { value, unit: 'ms', reason: null, duration_ms: 4 } },
      });
      expect(done.body).toEqual({ accepted: true });
      return job.job_id as string;
    };

    // The agent answers while the page waits.
    const [quick] = await Promise.all([
      operator.submit(`/console/metrics/${metric.id}`, `/console/metrics/${metric.id}/test`, {}),
      answer(72),
    ]);
    expect(quick.status).toBe(200);
    const quickBlock = resultBlock(quick.text);
    expect(quickBlock).toContain('<dt>Value</dt><dd>72 ms');
    expect(quickBlock).toContain('<span class="badge degraded">degraded</span>');
    expect(quickBlock).toContain('<dt>Ran on</dt><dd>the agent</dd>');

    // The agent is slow: the page answers with the pending test, and its link shows the result once the agent answers.
    const slow = await operator.submit(`/console/metrics/${metric.id}`, `/console/metrics/${metric.id}/test`, {});
    expect(slow.status).toBe(200);
    expect(slow.text).toMatch(
      /<strong>Pending:<\/strong> Waiting for the agent to pick the test up\. The agent has until <time datetime="[^"]+">[^<]+ UTC<\/time> to answer\./,
    );
    const poll = /<a href="(\/console\/metrics\/[^"]+\/test\/([0-9a-f-]{36}))">Check the result again<\/a>/.exec(
      slow.text,
    )!;
    expect(poll[1]).toBe(`/console/metrics/${metric.id}/test/${poll[2]}`);
    expect(slow.text).toContain(
      `<a href="${uiUrl}/namespaces/default/workflows/${encodeURIComponent(probeTestWorkflowId(poll[2]!))}" rel="noopener">Open in Temporal UI`,
    );
    expect(await h.temporal.client.workflow.getHandle(probeTestWorkflowId(poll[2]!)).describe()).toMatchObject({
      workflowId: `probe-test:${poll[2]}`,
    });
    expect((await operator.get(poll[1]!)).text).toContain('<strong>Pending:</strong>');
    expect(await answer(400)).toBe(poll[2]);
    const result = await operator.get(poll[1]!);
    expect(result.status).toBe(200);
    const block = resultBlock(result.text);
    expect(block).toContain('<dt>Value</dt><dd>400 ms');
    expect(block).toContain('<span class="badge unhealthy">unhealthy</span>');
    expect(block).toContain('<dt>Duration</dt><dd>4 ms</dd>');
  }, 45_000);
});

describe('console Redeliver with a real Temporal server', () => {
  // Suites with a relay hold the outbox for their whole file (a minute or more on a loaded
  // machine): wait for the turn here, outside the test's own time limit.
  let release: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    release = await takeRelayTurn();
  }, 600_000);
  afterAll(async () => {
    await release?.();
  });

  it("starts the new delivery's workflow at once: the receiver gets the same event again, and the page links to the workflow", async () => {
    const hook = await created(
      await org.call('POST', '/v1/webhooks', { url: rx.url, event_types: ['incident.created'] }),
    );
    const incident = await created(await org.call('POST', '/v1/incidents', { title: 'Redeliver me' }));
    // The original delivery, started as the relay starts it (this suite runs no relay).
    const em = () => api.orm.em.fork() as EntityManager;
    for (
      let i = 0;
      i < 50 &&
      (await em().count(OutboxEventSchema, { organization: org.id, resourceId: incident.id, dispatchedAt: null }));
      i++
    )
      await dispatchOutbox(em(), new Date(), 500);
    const original = await em().findOneOrFail(WebhookDeliverySchema, { subscription: hook.id });
    await h.webhookStarter.start([
      { organizationId: org.id, deliveryId: original.id, eventType: original.eventType, url: rx.url },
    ]);
    await eventually(
      async () => expect((await em().findOneOrFail(WebhookDeliverySchema, original.id)).state).toBe('succeeded'),
      15_000,
    );
    expect(rx.received).toHaveLength(1);

    const page = await operator.get(`/console/webhooks/${hook.id}/deliveries/${original.id}`);
    expect(page.text).toContain(
      `<a href="${uiUrl}/namespaces/default/workflows/${encodeURIComponent(webhookWorkflowId(original.id))}" rel="noopener">Open in Temporal UI`,
    );
    const res = await operator.submit(
      `/console/webhooks/${hook.id}/deliveries/${original.id}`,
      `/console/webhooks/${hook.id}/deliveries/${original.id}/redeliver`,
      {},
    );
    expect(res.status).toBe(303);
    const newId = /\/deliveries\/([0-9a-f-]{36})(?:[?#]|$)/.exec(res.headers.get('location')!)![1]!;
    await eventually(async () => expect(rx.received).toHaveLength(2), 15_000);
    // The same event, with the same webhook-id, so the receiver can recognise it.
    expect(rx.received[1]!.id).toBe(rx.received[0]!.id);
    await eventually(
      async () =>
        expect((await operator.get(`/console/webhooks/${hook.id}/deliveries/${newId}`)).text).toContain(
          '<span class="badge healthy">succeeded</span>',
        ),
      15_000,
    );
    const log = await operator.get(`/console/webhooks/${hook.id}`);
    expect(log.text.match(/<span class="badge healthy">succeeded<\/span>/g)).toHaveLength(2);
  }, 45_000);
});
