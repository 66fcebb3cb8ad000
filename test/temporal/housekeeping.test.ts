import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { DefaultLogger, bundleWorkflowCode } from '@temporalio/worker';
import path from 'node:path';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { IdempotencyRecordSchema, OrganizationSchema, OutboxEventSchema, ProbeTestJobSchema, StatusPageSchema, SubscriberSchema } from '../../src/db/entities';
import { HOUSEKEEPING_SCHEDULE_ID, ensureHousekeepingSchedule } from '../../src/temporal/schedules';
import { housekeepingWorkflow } from '../../src/workflows';
import { startWorker } from '../../src/composition/worker';
import { PLANS } from '../../src/domain/plans';
import { maintenanceWorkflowId } from '../../src/temporal/maintenance-scheduler';
import { createMaintenance } from '../../src/usecases/maintenances/maintenances';
import { testTemporalAddress } from '../support/env';
import { type TemporalHarness, startTemporalHarness } from '../support/temporal-harness';

let h: TemporalHarness;
beforeAll(async () => {
  h = await startTemporalHarness();
});
afterAll(async () => h.close());

async function seed(now: Date) {
  const em = h.orm.em.fork();
  const orgId = randomUUID();
  em.create(OrganizationSchema, { id: orgId, name: 'hk', plan: 'team', rateLimitPerMinute: null, rateLimitPerDay: null, createdAt: now, updatedAt: now });
  await em.flush();
  const conn = em.getConnection();
  const insert = `insert into rate_limit_counters (organization_id, window_kind, window_start, count) values (?, ?, ?::timestamptz, 1)`;
  await conn.execute(insert, [orgId, 'minute', new Date(now.getTime() - 3 * 60_000)]);
  await conn.execute(insert, [orgId, 'minute', new Date(now.getTime() - (now.getTime() % 60_000))]);
  await conn.execute(insert, [orgId, 'day', new Date(now.getTime() - 3 * 86_400_000)]);
  for (const [key, age] of [['old', 25 * 3600_000], ['fresh', 60_000]] as const) {
    em.create(IdempotencyRecordSchema, {
      id: randomUUID(), organization: orgId, key, operation: 'createService', requestHash: 'x'.repeat(64), statusCode: 201, responseBody: {}, createdAt: new Date(now.getTime() - age),
    });
  }
  // Events: old and dispatched (pruned), old but never dispatched (kept), recent (kept); jobs: old (pruned), recent (kept).
  for (const [type, age, dispatched] of [['old.dispatched', 40, true], ['old.undispatched', 40, false], ['recent', 1, true]] as const) {
    const at = new Date(now.getTime() - age * 86_400_000);
    em.create(OutboxEventSchema, { id: randomUUID(), organization: orgId, type, resourceKind: 'test', resourceId: randomUUID(), payload: {}, createdAt: at, dispatchedAt: dispatched ? at : null });
  }
  for (const age of [8, 1]) {
    const at = new Date(now.getTime() - age * 86_400_000);
    em.create(ProbeTestJobSchema, { id: randomUUID(), organization: orgId, agent: null, mode: 'cloud', sourceType: `age-${age}`, sourceConfig: {}, thresholds: null, state: 'completed', outcome: null, failureReason: null, createdAt: at, claimedAt: null, completedAt: at, expiresAt: at });
  }
  // Subscribers: pending for 31 days (erased), pending for a day and confirmed long ago (kept).
  const pageId = randomUUID();
  em.create(StatusPageSchema, { id: pageId, organization: orgId, subdomain: `hk-${orgId.slice(0, 8)}`, title: 'hk', description: null, timeZone: 'UTC', branding: { logo_url: null, accent_color: null, header_color: null }, links: [], layout: { groups: [] }, sealedViewerSecret: 'x', viewerPublicKey: null, createdAt: now, updatedAt: now, deletedAt: null });
  for (const [email, state, age] of [['stale@example.com', 'pending', 31], ['new@example.com', 'pending', 1], ['kept@example.com', 'confirmed', 90]] as const) {
    const at = new Date(now.getTime() - age * 86_400_000);
    em.create(SubscriberSchema, { id: randomUUID(), organization: orgId, page: pageId, email, components: [], customer: null, state, source: 'form', confirmationSentAt: at, confirmedAt: state === 'confirmed' ? at : null, unsubscribedAt: null, createdAt: at, updatedAt: at });
  }
  await em.flush();
  return orgId;
}

describe('housekeeping workflow (real Temporal worker)', () => {
  it('prunes ended rate-limit windows, idempotency records past 24 hours, dispatched events past 30 days and probe-test jobs past 7, keeping the live ones', async () => {
    const orgId = await seed(new Date());
    const handle = await h.temporal.client.workflow.start(housekeepingWorkflow, { taskQueue: h.taskQueue, workflowId: `housekeeping-test-${randomUUID()}` });
    const report = await handle.result();
    expect(report.rateLimitCounters).toBeGreaterThanOrEqual(2);
    expect(report.idempotencyRecords).toBeGreaterThanOrEqual(1);
    const rows = await h.orm.em.fork().getConnection().execute('select window_kind from rate_limit_counters where organization_id = ?', [orgId]);
    expect(rows).toEqual([{ window_kind: 'minute' }]);
    const keys = (await h.orm.em.fork().find(IdempotencyRecordSchema, { organization: orgId })).map((r) => r.key);
    expect(keys).toEqual(['fresh']);
    expect(report.outboxEvents).toBeGreaterThanOrEqual(1);
    const events = (await h.orm.em.fork().find(OutboxEventSchema, { organization: orgId }, { orderBy: { type: 'asc' } })).map((e) => e.type);
    expect(events).toEqual(['old.undispatched', 'recent']);
    const jobs = (await h.orm.em.fork().find(ProbeTestJobSchema, { organization: orgId })).map((j) => j.sourceType);
    expect(jobs).toEqual(['age-1']);
    expect(report.pendingSubscribers).toBeGreaterThanOrEqual(1);
    const subscribers = (await h.orm.em.fork().find(SubscriberSchema, { organization: orgId }, { orderBy: { email: 'asc' } })).map((x) => x.email);
    expect(subscribers).toEqual(['kept@example.com', 'new@example.com']);

    const history = await handle.fetchHistory();
    const types = history.events?.map((e) => e.activityTaskScheduledEventAttributes?.activityType?.name).filter(Boolean);
    expect(types).toEqual(['pruneRateLimitCounters', 'pruneIdempotencyRecords', 'ensureMaintenanceWorkflows', 'pruneDeliveredRecords']);
    if (process.env.VIGIL_RECORD_HISTORIES) {
      writeFileSync(path.join(__dirname, '..', 'replay-histories', 'housekeeping-v3.json'), historyToJSON(history));
    }
  });

  it('starts the workflow of an unfinished maintenance that has none', async () => {
    const orgId = await seed(new Date());
    // Created two minutes ago by an API that never reached Temporal.
    const ctx = { em: h.orm.em.fork() as never, org: { id: orgId, plan: PLANS.team }, now: new Date(Date.now() - 120_000), pricingUrl: 'x' };
    const m = await createMaintenance(ctx, { scheduler: { changed: async () => {} } }, { title: 'Orphan', scheduled_start_at: new Date(Date.now() + 7_200_000), scheduled_end_at: new Date(Date.now() + 10_800_000) });
    const report = await h.temporal.client.workflow.execute(housekeepingWorkflow, { taskQueue: h.taskQueue, workflowId: `housekeeping-test-${randomUUID()}` });
    expect(report.maintenanceWorkflows).toBeGreaterThanOrEqual(1);
    const described = await h.temporal.client.workflow.getHandle(maintenanceWorkflowId(m.id)).describe();
    expect(described.status.name).toBe('RUNNING');
    await h.temporal.client.workflow.getHandle(maintenanceWorkflowId(m.id)).terminate('test done');
  });

  it('creates the housekeeping schedule once and updates it on every later start', async () => {
    await ensureHousekeepingSchedule(h.temporal.client, h.taskQueue);
    await ensureHousekeepingSchedule(h.temporal.client, h.taskQueue);
    const described = await h.temporal.client.schedule.getHandle(HOUSEKEEPING_SCHEDULE_ID).describe();
    expect(described.action).toMatchObject({ type: 'startWorkflow', workflowType: 'housekeepingWorkflow', taskQueue: h.taskQueue });
    expect(described.spec.intervals?.[0]?.every).toBe(600_000);
  });

  it('runs from a prebuilt workflow bundle, as production workers do (VIGIL_WORKFLOW_BUNDLE)', async () => {
    const { code } = await bundleWorkflowCode({ workflowsPath: require.resolve('../../src/workflows'), logger: new DefaultLogger('WARN') });
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'vigil-bundle-')), 'workflow-bundle.js');
    writeFileSync(file, code);
    const taskQueue = `bundle-${randomUUID()}`;
    const worker = await startWorker({ address: testTemporalAddress(), namespace: 'default', taskQueue, deps: { orm: h.orm }, workflowBundlePath: file });
    try {
      const report = await h.temporal.client.workflow.execute(housekeepingWorkflow, { taskQueue, workflowId: `bundle-${randomUUID()}` });
      expect(report).toEqual({ rateLimitCounters: expect.any(Number), idempotencyRecords: expect.any(Number), maintenanceWorkflows: 0, outboxEvents: expect.any(Number), probeTestJobs: expect.any(Number), pendingSubscribers: expect.any(Number) });
    } finally {
      await worker.shutdown();
    }
  });
});
