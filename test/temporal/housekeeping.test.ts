import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import {
  IdempotencyRecordSchema,
  OrganizationSchema,
  OutboxEventSchema,
  ProbeTestJobSchema,
  StatusPageSchema,
  SubscriberSchema,
} from '../../src/db/entities';
import { HOUSEKEEPING_SCHEDULE_ID, ensureHousekeepingSchedule } from '../../src/temporal/schedules';
import { housekeepingWorkflow } from '../../src/workflows';
import { startWorker } from '../../src/composition/worker';
import { writeWorkflowBundle } from '../../src/composition/workflow-bundle';
import { PLANS } from '../../src/domain/plans';
import { maintenanceWorkflowId } from '../../src/temporal/maintenance-scheduler';
import { createMaintenance } from '../../src/usecases/maintenances/maintenances';
import { testSecretBox, testTemporalAddress } from '../support/env';
import { contractScheduleId } from '../../src/temporal/sla-workflows';
import { createContract } from '../../src/usecases/sla/contracts';
import { type TemporalHarness, startTemporalHarness } from '../support/temporal-harness';

let h: TemporalHarness;
beforeAll(async () => {
  h = await startTemporalHarness({
    sla: { signer: { box: testSecretBox(), tzDataVersion: process.versions.tz ?? '2025b' } },
  });
});
afterAll(async () => h.close());

async function seed(now: Date) {
  const em = h.orm.em.fork();
  const orgId = randomUUID();
  em.create(OrganizationSchema, {
    id: orgId,
    name: 'hk',
    plan: 'team',
    rateLimitPerMinute: null,
    rateLimitPerDay: null,
    createdAt: now,
    updatedAt: now,
  });
  await em.flush();
  const conn = em.getConnection();
  const insert = `insert into rate_limit_counters (organization_id, window_kind, window_start, count) values (?, ?, ?::timestamptz, 1)`;
  await conn.execute(insert, [orgId, 'minute', new Date(now.getTime() - 3 * 60_000)]);
  await conn.execute(insert, [orgId, 'minute', new Date(now.getTime() - (now.getTime() % 60_000))]);
  await conn.execute(insert, [orgId, 'day', new Date(now.getTime() - 3 * 86_400_000)]);
  for (const [key, age] of [
    ['old', 25 * 3600_000],
    ['fresh', 60_000],
  ] as const) {
    em.create(IdempotencyRecordSchema, {
      id: randomUUID(),
      organization: orgId,
      key,
      operation: 'createService',
      requestHash: 'x'.repeat(64),
      statusCode: 201,
      responseBody: {},
      createdAt: new Date(now.getTime() - age),
    });
  }
  // Events: old and dispatched (pruned), old but never dispatched (kept), recent (kept); jobs: old (pruned), recent (kept).
  for (const [type, age, dispatched] of [
    ['old.dispatched', 40, true],
    ['old.undispatched', 40, false],
    ['recent', 1, true],
  ] as const) {
    const at = new Date(now.getTime() - age * 86_400_000);
    em.create(OutboxEventSchema, {
      id: randomUUID(),
      organization: orgId,
      type,
      resourceKind: 'test',
      resourceId: randomUUID(),
      payload: {},
      createdAt: at,
      dispatchedAt: dispatched ? at : null,
    });
  }
  for (const age of [8, 1]) {
    const at = new Date(now.getTime() - age * 86_400_000);
    em.create(ProbeTestJobSchema, {
      id: randomUUID(),
      organization: orgId,
      agent: null,
      mode: 'cloud',
      sourceType: `age-${age}`,
      sourceConfig: {},
      thresholds: null,
      state: 'completed',
      outcome: null,
      failureReason: null,
      createdAt: at,
      claimedAt: null,
      completedAt: at,
      expiresAt: at,
    });
  }
  // Subscribers: pending for 31 days (erased), pending for a day and confirmed long ago (kept).
  const pageId = randomUUID();
  em.create(StatusPageSchema, {
    id: pageId,
    organization: orgId,
    subdomain: `hk-${orgId.slice(0, 8)}`,
    title: 'hk',
    description: null,
    timeZone: 'UTC',
    branding: { logo_url: null, accent_color: null, header_color: null },
    links: [],
    layout: { groups: [] },
    sealedViewerSecret: 'x',
    viewerPublicKey: null,
    createdAt: now,
    updatedAt: now,
    deletedAt: null,
  });
  for (const [email, state, age] of [
    ['stale@example.com', 'pending', 31],
    ['new@example.com', 'pending', 1],
    ['kept@example.com', 'confirmed', 90],
  ] as const) {
    const at = new Date(now.getTime() - age * 86_400_000);
    em.create(SubscriberSchema, {
      id: randomUUID(),
      organization: orgId,
      page: pageId,
      email,
      components: [],
      customer: null,
      state,
      source: 'form',
      confirmationSentAt: at,
      confirmedAt: state === 'confirmed' ? at : null,
      unsubscribedAt: null,
      createdAt: at,
      updatedAt: at,
    });
  }
  await em.flush();
  return orgId;
}

describe('housekeeping workflow (real Temporal worker)', () => {
  it('prunes ended rate-limit windows, idempotency records past 24 hours, dispatched events past 30 days and probe-test jobs past 7, keeping the live ones', async () => {
    const orgId = await seed(new Date());
    const handle = await h.temporal.client.workflow.start(housekeepingWorkflow, {
      taskQueue: h.taskQueue,
      workflowId: `housekeeping-test-${randomUUID()}`,
    });
    const report = await handle.result();
    expect(report.rateLimitCounters).toBeGreaterThanOrEqual(2);
    expect(report.idempotencyRecords).toBeGreaterThanOrEqual(1);
    const rows = await h.orm.em
      .fork()
      .getConnection()
      .execute('select window_kind from rate_limit_counters where organization_id = ?', [orgId]);
    expect(rows).toEqual([{ window_kind: 'minute' }]);
    const keys = (await h.orm.em.fork().find(IdempotencyRecordSchema, { organization: orgId })).map((r) => r.key);
    expect(keys).toEqual(['fresh']);
    expect(report.outboxEvents).toBeGreaterThanOrEqual(1);
    const events = (
      await h.orm.em.fork().find(OutboxEventSchema, { organization: orgId }, { orderBy: { type: 'asc' } })
    ).map((e) => e.type);
    expect(events).toEqual(['old.undispatched', 'recent']);
    const jobs = (await h.orm.em.fork().find(ProbeTestJobSchema, { organization: orgId })).map((j) => j.sourceType);
    expect(jobs).toEqual(['age-1']);
    expect(report.pendingSubscribers).toBeGreaterThanOrEqual(1);
    const subscribers = (
      await h.orm.em.fork().find(SubscriberSchema, { organization: orgId }, { orderBy: { email: 'asc' } })
    ).map((x) => x.email);
    expect(subscribers).toEqual(['kept@example.com', 'new@example.com']);

    const history = await handle.fetchHistory();
    const types = history.events
      ?.map((e) => e.activityTaskScheduledEventAttributes?.activityType?.name)
      .filter(Boolean);
    expect(types).toEqual([
      'pruneRateLimitCounters',
      'pruneIdempotencyRecords',
      'ensureMaintenanceWorkflows',
      'pruneDeliveredRecords',
      'ensureContractSchedules',
    ]);
    if (process.env.VIGIL_RECORD_HISTORIES) {
      writeFileSync(path.join(__dirname, '..', 'replay-histories', 'housekeeping-v4.json'), historyToJSON(history));
    }
  });

  it('starts the workflow of an unfinished maintenance that has none', async () => {
    const orgId = await seed(new Date());
    // Created two minutes ago by an API that never reached Temporal.
    const ctx = {
      em: h.orm.em.fork() as never,
      org: { id: orgId, plan: PLANS.team },
      now: new Date(Date.now() - 120_000),
      pricingUrl: 'x',
    };
    const m = await createMaintenance(
      ctx,
      { scheduler: { changed: async () => {} } },
      {
        title: 'Orphan',
        scheduled_start_at: new Date(Date.now() + 7_200_000),
        scheduled_end_at: new Date(Date.now() + 10_800_000),
      },
    );
    const report = await h.temporal.client.workflow.execute(housekeepingWorkflow, {
      taskQueue: h.taskQueue,
      workflowId: `housekeeping-test-${randomUUID()}`,
    });
    expect(report.maintenanceWorkflows).toBeGreaterThanOrEqual(1);
    const described = await h.temporal.client.workflow.getHandle(maintenanceWorkflowId(m.id)).describe();
    expect(described.status.name).toBe('RUNNING');
    await h.temporal.client.workflow.getHandle(maintenanceWorkflowId(m.id)).terminate('test done');
  });

  it('creates the Schedule of a contract whose API never reached Temporal, and leaves synced ones alone', async () => {
    const orgId = await seed(new Date());
    const em = h.orm.em.fork();
    await em.getConnection().execute(`update organizations set plan = 'business' where id = ?`, [orgId]);
    const [customer] = await em
      .getConnection()
      .execute(
        `insert into customers (id, organization_id, name, created_at, updated_at) values (gen_random_uuid(), ?, 'C', now(), now()) returning id`,
        [orgId],
      );
    const [service] = await em
      .getConnection()
      .execute(
        `insert into services (id, organization_id, name, created_at, updated_at) values (gen_random_uuid(), ?, 'S', now(), now()) returning id`,
        [orgId],
      );
    const unreachable = {
      contractChanged: async () => {
        throw new Error('Temporal is down');
      },
      startStatement: async () => {
        throw new Error('down');
      },
      runAction: async () => {
        throw new Error('down');
      },
    };
    const ctx = {
      em: em as never,
      org: { id: orgId, plan: PLANS.business },
      now: new Date(Date.now() - 120_000),
      pricingUrl: 'x',
    };
    const contract = await createContract(
      ctx,
      {
        customer_id: customer!.id,
        name: 'Orphan contract',
        service_ids: [service!.id],
        sla_target_pct: '99.9',
        timezone: 'Asia/Kolkata',
        currency: 'INR',
        monthly_fee_minor: 1_000_00,
        effective_from: '2026-01-01',
        credit_terms: {
          type: 'tiered',
          steps: [{ below_pct: '99.9', credit_pct: '10' }],
          maintenance_notice_hours: 24,
          cap_pct: '100',
          minimum_credit_minor: 0,
          rounding: 'half_up',
          count_degraded_as_down: false,
        },
        grace_hours: 30,
      },
      unreachable,
    );
    await expect(h.temporal.client.schedule.getHandle(contractScheduleId(contract.id)).describe()).rejects.toThrow();
    const report = await h.temporal.client.workflow.execute(housekeepingWorkflow, {
      taskQueue: h.taskQueue,
      workflowId: `housekeeping-test-${randomUUID()}`,
    });
    expect(report.contractSchedules).toBeGreaterThanOrEqual(1);
    const described = await h.temporal.client.schedule.getHandle(contractScheduleId(contract.id)).describe();
    expect(described.spec.timezone).toBe('Asia/Kolkata');
    expect(described.spec.calendars?.[0]).toMatchObject({
      dayOfMonth: [{ start: 2, end: 2, step: 1 }],
      hour: [{ start: 6, end: 6, step: 1 }],
    });
    const again = await h.temporal.client.workflow.execute(housekeepingWorkflow, {
      taskQueue: h.taskQueue,
      workflowId: `housekeeping-test-${randomUUID()}`,
    });
    expect(again.contractSchedules).toBe(0);
    await h.temporal.client.schedule.getHandle(contractScheduleId(contract.id)).delete();
  });

  it('creates the housekeeping schedule once and updates it on every later start', async () => {
    await ensureHousekeepingSchedule(h.temporal.client, h.taskQueue);
    await ensureHousekeepingSchedule(h.temporal.client, h.taskQueue);
    const described = await h.temporal.client.schedule.getHandle(HOUSEKEEPING_SCHEDULE_ID).describe();
    expect(described.action).toMatchObject({
      type: 'startWorkflow',
      workflowType: 'housekeepingWorkflow',
      taskQueue: h.taskQueue,
    });
    expect(described.spec.intervals?.[0]?.every).toBe(600_000);
  });

  it('runs from a prebuilt workflow bundle, as production workers do (VIGIL_WORKFLOW_BUNDLE)', async () => {
    // Made as `npm run build:workflows` makes it for production images.
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'vigil-bundle-')), 'workflow-bundle.js');
    await writeWorkflowBundle(file, { quiet: true });
    const taskQueue = `bundle-${randomUUID()}`;
    const worker = await startWorker({
      address: testTemporalAddress(),
      namespace: 'default',
      taskQueue,
      deps: { orm: h.orm },
      workflowBundlePath: file,
    });
    try {
      const report = await h.temporal.client.workflow.execute(housekeepingWorkflow, {
        taskQueue,
        workflowId: `bundle-${randomUUID()}`,
      });
      expect(report).toEqual({
        rateLimitCounters: expect.any(Number),
        idempotencyRecords: expect.any(Number),
        maintenanceWorkflows: 0,
        outboxEvents: expect.any(Number),
        probeTestJobs: expect.any(Number),
        pendingSubscribers: expect.any(Number),
        contractSchedules: 0,
      });
    } finally {
      await worker.shutdown();
    }
  });
});
