import { randomUUID } from 'node:crypto';
import type { AlertDeps } from '../../src/activities/alerts';
import { AgentSchema } from '../../src/db/entities';
import { createMailer } from '../../src/infra/mailer';
import { temporalAlertControl, temporalChannelTester } from '../../src/temporal/alert-control';
import { temporalMaintenanceScheduler } from '../../src/temporal/maintenance-scheduler';
import { ensureAlertSweepSchedule } from '../../src/temporal/schedules';
import { testAlertDeps } from '../support/alert-deps';
import { type ApiHarness, startApi } from '../support/api-harness';
import { eventually } from '../support/eventually';
import { type OrgFixture, orgWithKeys } from '../support/org-fixture';
import { useOwnDatabase } from '../support/own-database';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink';
import { type TemporalHarness, startTemporalHarness } from '../support/temporal-harness';
import { type VendorReceiver, startVendorReceiver } from '../support/vendor-receivers';
import { testSlackReplies } from '../support/app-deps';

/**
 * The minute's alert sweep as the worker process runs it: its own Temporal Schedule
 * (`vigil-alert-sweep`, made by ensureAlertSweepSchedule) starting alertSweepWorkflow on this
 * worker, which signals the alert workflows itself. Nobody calls the sweep by hand here; the
 * Schedule is triggered (its interval is a fixed minute). The sweep reads every organization's
 * polled rules, so the file has a database of its own: it must not raise other suites' alerts.
 */

const SCHEDULE_ID = 'vigil-alert-sweep';
const LINK_KEY = Buffer.alloc(32, 5);

let db: Awaited<ReturnType<typeof useOwnDatabase>>;
let h: TemporalHarness;
let api: ApiHarness;
let sink: SmtpSink;
let slack: VendorReceiver;
let org: OrgFixture;

beforeAll(async () => {
  db = await useOwnDatabase();
  sink = await startSmtpSink();
  slack = await startVendorReceiver('slack');
  const alerts: AlertDeps = testAlertDeps({
    mailer: createMailer({ smtpUrl: sink.url, from: 'Vigil <alerts@vigil.test>', outboxDir: '/nonexistent' }),
    linkKey: LINK_KEY,
  });
  h = await startTemporalHarness({ location: false, alerts });
  // As the worker process wires it: the sweep's activity signals the alert workflows on this worker's queue.
  alerts.starter = h.webhookStarter;
  api = await startApi({
    maintenanceScheduler: temporalMaintenanceScheduler(h.temporal),
    alerts: {
      control: temporalAlertControl(h.temporal),
      tester: temporalChannelTester(h.temporal),
      linkKey: LINK_KEY,
      slackReplies: testSlackReplies(),
    },
  });
  org = await orgWithKeys(api);
}, 240_000);

afterAll(async () => {
  // The Schedule is the Temporal server's, not this worker's: it must not go on starting sweeps on a queue nobody polls.
  await h?.temporal.client.schedule
    .getHandle(SCHEDULE_ID)
    .delete()
    .catch(() => undefined);
  await api?.close();
  await h?.close();
  await Promise.all([sink?.close(), slack?.close()]);
  await db?.restore();
});

/** The sweep workflows the Schedule started, newest first. */
async function sweepRuns(): Promise<{ workflowId: string; status: string }[]> {
  const runs: { workflowId: string; status: string }[] = [];
  for await (const w of h.temporal.client.workflow.list({
    query: `WorkflowType = 'alertSweepWorkflow' AND TaskQueue = '${h.taskQueue}'`,
  }))
    runs.push({ workflowId: w.workflowId, status: w.status.name });
  return runs;
}

describe('the alert sweep on its Temporal Schedule', () => {
  it('is a one-minute Schedule on the worker’s queue; each run raises an agent_offline alert for a silent agent, then resolves it when the agent is back', async () => {
    await ensureAlertSweepSchedule(h.temporal.client, h.taskQueue);
    const schedule = h.temporal.client.schedule.getHandle(SCHEDULE_ID);
    const described = await schedule.describe();
    expect(described.action).toMatchObject({
      type: 'startWorkflow',
      workflowType: 'alertSweepWorkflow',
      taskQueue: h.taskQueue,
    });
    expect(described.spec.intervals?.[0]?.every).toBe(60_000);

    const agent = await org.call('POST', '/v1/agents', { name: `edge-${randomUUID().slice(0, 6)}` });
    expect(agent.status).toBe(201);
    const channel = await org.call('POST', '/v1/notification-channels', {
      name: 'chat',
      type: 'slack',
      url: slack.url,
    });
    const policy = await org.call('POST', '/v1/escalation-policies', {
      name: 'sweep policy',
      levels: [{ delay_minutes: 60, targets: [{ type: 'channel', id: channel.body.id }] }],
      repeat: 0,
    });
    const rule = await org.call('POST', '/v1/alert-rules', {
      name: 'edge offline',
      severity: 'critical',
      kind: 'agent_offline',
      subject_id: agent.body.id,
      escalation_policy_id: policy.body.id,
    });
    expect(rule.status).toBe(201);
    const seen = (at: Date) => api.orm.em.fork().nativeUpdate(AgentSchema, { id: agent.body.id }, { lastSeenAt: at });
    const alerts = async () => (await org.call('GET', `/v1/alerts?rule_id=${rule.body.id}`)).body.items as any[];

    // Silent for two minutes: the next sweep the Schedule runs finds it offline.
    await seen(new Date(Date.now() - 120_000));
    await schedule.trigger();
    const [alert] = await eventually(async () => {
      const items = await alerts();
      expect(items[0]?.state).toBe('triggered');
      return items;
    }, 30_000);
    expect(alert.subject).toMatchObject({ kind: 'agent', id: agent.body.id });
    await slack.waitFor(1, 15_000);
    // Started by the Schedule (its runs are named after it), not by hand; visibility lags a little.
    await eventually(
      async () =>
        expect(
          (await sweepRuns()).some((r) => r.workflowId.startsWith('alert-sweep') && r.status === 'COMPLETED'),
        ).toBe(true),
      10_000,
    );

    // Back: the next run signals the recovery, and the alert resolves by itself.
    await seen(new Date());
    await schedule.trigger();
    await eventually(
      async () =>
        expect((await alerts())[0]).toMatchObject({
          id: alert.id,
          state: 'resolved',
          resolved_by: 'vigil (recovered)',
        }),
      30_000,
    );
    await slack.waitFor(2, 15_000);
    expect((await alerts()).length).toBe(1);
    expect(slack.violations()).toEqual([]);
  }, 120_000);
});
