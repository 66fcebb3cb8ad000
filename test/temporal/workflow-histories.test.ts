import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { WorkflowHandle } from '@temporalio/client';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import type { AlertDeps } from '../../src/activities/alerts';
import { PLANS } from '../../src/domain/plans';
import { tzDataVersion } from '../../src/domain/sla/period';
import { temporalAlertControl, temporalChannelTester } from '../../src/temporal/alert-control';
import { createContract } from '../../src/usecases/sla/contracts';
import { alertSweepWorkflow, outboxSweepWorkflow, slaPeriodWorkflow } from '../../src/workflows';
import { slaStatementWorkflowId } from '../../src/workflows/search-attribute-keys';
import { testAlertDeps } from '../support/alert-deps';
import { type ApiHarness, startApi } from '../support/api-harness';
import { testSecretBox } from '../support/env';
import { eventually } from '../support/eventually';
import { type OrgFixture, orgWithKeys } from '../support/org-fixture';
import { useOwnDatabase } from '../support/own-database';
import { type TemporalHarness, startTemporalHarness } from '../support/temporal-harness';
import { type Receiver, startReceiver } from '../support/webhook-receiver';
import { testSlackReplies } from '../support/app-deps';

/**
 * One real run of each workflow type no other suite records (the sweeps, the channel test, the SLA
 * period), on a real worker. The sweeps read every organization's rows, so the file has a
 * database of its own: they must not dispatch or raise what other suites left. With
 * VIGIL_RECORD_HISTORIES=1 each run's history is written to test/replay-histories/ for
 * test/temporal/replay.test.ts.
 */

const LINK_KEY = Buffer.alloc(32, 7);

let db: Awaited<ReturnType<typeof useOwnDatabase>>;
let h: TemporalHarness;
let api: ApiHarness;
let org: OrgFixture<never, 'api'>;
let rx: Receiver;

beforeAll(async () => {
  db = await useOwnDatabase();
  rx = await startReceiver();
  const alerts: AlertDeps = testAlertDeps({ mailer: null, linkKey: LINK_KEY });
  h = await startTemporalHarness({
    location: false,
    alerts,
    sla: { signer: { box: testSecretBox(), tzDataVersion: tzDataVersion(process.versions.tz) } },
  });
  alerts.starter = h.webhookStarter;
  api = await startApi({
    alerts: {
      control: temporalAlertControl(h.temporal),
      tester: temporalChannelTester(h.temporal),
      linkKey: LINK_KEY,
      slackReplies: testSlackReplies(),
    },
  });
  org = await orgWithKeys(api, { services: ['api'] });
}, 120_000);

afterAll(async () => {
  await api?.close();
  await h?.close();
  await rx?.close();
  await db?.restore();
});

/** Writes the run's history for the replay test when VIGIL_RECORD_HISTORIES is set; returns it either way. */
async function keep(handle: WorkflowHandle, file: string) {
  const history = await handle.fetchHistory();
  if (process.env.VIGIL_RECORD_HISTORIES)
    writeFileSync(path.join(__dirname, '..', 'replay-histories', file), historyToJSON(history));
  return history;
}

const activities = (history: Awaited<ReturnType<WorkflowHandle['fetchHistory']>>) =>
  history.events?.map((e) => e.activityTaskScheduledEventAttributes?.activityType?.name).filter(Boolean);

describe('workflows recorded for the replay test (real worker, a database of their own)', () => {
  it('outboxSweepWorkflow relays an event no relay took and its delivery arrives', async () => {
    // No relay runs in this file: the incident's event waits in the outbox for the sweep.
    expect((await org.call('POST', '/v1/webhooks', { url: rx.url, event_types: ['incident.created'] })).status).toBe(
      201,
    );
    expect((await org.call('POST', '/v1/incidents', { title: 'Left for the sweep' })).status).toBe(201);
    const handle = await h.temporal.client.workflow.start(outboxSweepWorkflow, {
      taskQueue: h.taskQueue,
      workflowId: `outbox-sweep-test-${randomBytes(4).toString('hex')}`,
    });
    expect(await handle.result()).toEqual({ events: 1, started: 1 });
    await eventually(
      async () => expect(rx.received.map((r) => JSON.parse(r.body).type)).toEqual(['incident.created']),
      15_000,
    );
    expect(activities(await keep(handle, 'outbox-sweep-v1.json'))).toEqual(['sweepWebhookOutbox']);
  });

  it('alertSweepWorkflow runs the sweep activity and reports what it signalled', async () => {
    const handle = await h.temporal.client.workflow.start(alertSweepWorkflow, {
      taskQueue: h.taskQueue,
      workflowId: `alert-sweep-test-${randomBytes(4).toString('hex')}`,
    });
    // Nothing in this database is polled by a rule: nothing to raise or recover.
    expect(await handle.result()).toEqual({ signals: 0, sent: 0 });
    expect(activities(await keep(handle, 'alert-sweep-v1.json'))).toEqual(['sweepAlertRules']);
  });

  it('channelTestWorkflow sends one test message through the channel and reports the answer', async () => {
    const channel = await org.call('POST', '/v1/notification-channels', {
      name: 'signed',
      type: 'webhook',
      url: rx.url,
    });
    expect(channel.status).toBe(201);
    const before = rx.received.length;
    const res = await org.call('POST', `/v1/notification-channels/${channel.body.id}/test`);
    expect(res.body).toMatchObject({ state: 'succeeded', status_code: 200, error: null });
    expect(rx.received.length).toBe(before + 1);
    // Started by the API's tester under an id of its own: found by type on this worker's queue (visibility lags a little).
    const runs = await eventually(async () => {
      const found: string[] = [];
      for await (const w of h.temporal.client.workflow.list({
        query: `WorkflowType = 'channelTestWorkflow' AND TaskQueue = '${h.taskQueue}'`,
      }))
        found.push(w.workflowId);
      expect(found).toHaveLength(1);
      return found;
    }, 10_000);
    expect(activities(await keep(h.temporal.client.workflow.getHandle(runs[0]!), 'channel-test-v1.json'))).toEqual([
      'deliverAlertNotification',
    ]);
  });

  it('slaPeriodWorkflow starts the statement workflow of the period that ended and leaves it running', async () => {
    const em = h.orm.em.fork();
    await em.getConnection().execute(`update organizations set plan = 'business' where id = ?`, [org.id]);
    const [customer] = await em
      .getConnection()
      .execute(
        `insert into customers (id, organization_id, name, created_at, updated_at) values (gen_random_uuid(), ?, 'C', now(), now()) returning id`,
        [org.id],
      );
    // No Schedule: the test starts the period workflow itself, as the contract's Schedule would.
    const noSchedule = {
      contractChanged: async () => undefined,
      startStatement: async () => undefined,
      runAction: async () => {
        throw new Error('unused');
      },
    };
    const ctx = { em: em as never, org: { id: org.id, plan: PLANS.business }, now: new Date(), pricingUrl: 'x' };
    const contract = await createContract(
      ctx,
      {
        customer_id: customer!.id,
        name: 'Recorded contract',
        service_ids: [org.services.api],
        sla_target_pct: '99.9',
        timezone: 'UTC',
        currency: 'EUR',
        monthly_fee_minor: 1_000_00,
        effective_from: '2025-01-01',
        credit_terms: {
          type: 'tiered',
          steps: [{ below_pct: '99.9', credit_pct: '10' }],
          maintenance_notice_hours: 24,
          cap_pct: '100',
          minimum_credit_minor: 0,
          rounding: 'half_up',
          count_degraded_as_down: false,
        },
        grace_hours: 0,
      },
      noSchedule as never,
    );
    const handle = await h.temporal.client.workflow.start(slaPeriodWorkflow, {
      taskQueue: h.taskQueue,
      workflowId: `sla-period-test-${contract.id}`,
      args: [{ organizationId: org.id, contractId: contract.id }],
    });
    const result = await handle.result();
    expect(result).toMatch(/^started:\d{4}-\d{2}$/);
    const child = h.temporal.client.workflow.getHandle(
      slaStatementWorkflowId(contract.id, result.slice('started:'.length)),
    );
    expect((await child.describe()).type).toBe('slaStatementWorkflow');
    const history = await keep(handle, 'sla-period-v1.json');
    expect(activities(history)).toEqual(['slaPeriodDue']);
    expect(history.events?.some((e) => e.childWorkflowExecutionStartedEventAttributes)).toBe(true);
    // The statement would wait for review on a queue nobody polls once this file ends.
    await child.terminate('test done');
  });
});
