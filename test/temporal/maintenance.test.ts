import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { OutboxEventSchema } from '../../src/db/entities';
import { maintenanceWorkflowId, temporalMaintenanceScheduler } from '../../src/temporal/maintenance-scheduler';
import { type ApiHarness, startApi } from '../support/api-harness';
import { type Call, type OrgFixture, orgWithKeys } from '../support/org-fixture';
import { eventually } from '../support/eventually';
import { type TemporalHarness, startTemporalHarness } from '../support/temporal-harness';

let h: TemporalHarness;
let api: ApiHarness;
let org: OrgFixture;
beforeAll(async () => {
  h = await startTemporalHarness();
  api = await startApi({ maintenanceScheduler: temporalMaintenanceScheduler(h.temporal) });
  org = await orgWithKeys(api);
});
afterAll(async () => {
  await api.close();
  await h.close();
});

const at = (msFromNow: number) => new Date(Date.now() + msFromNow).toISOString();
const call: Call = (...args) => org.call(...args);
const events = async (id: string) =>
  (await api.orm.em.fork().find(OutboxEventSchema, { resourceId: id }, { orderBy: { createdAt: 'asc' } })).map(
    (e) => e.type,
  );

describe('maintenance windows driven by a Temporal workflow', () => {
  it('announces, starts and completes on its own at the scheduled times, with system messages and events', async () => {
    const created = await call('POST', '/v1/maintenances', {
      title: 'DB upgrade',
      scheduled_start_at: at(3000),
      scheduled_end_at: at(6000),
    });
    expect(created.status).toBe(201);
    expect(created.body.state).toBe('scheduled');
    const id = created.body.id;
    const handle = h.temporal.client.workflow.getHandle(maintenanceWorkflowId(id));
    expect(await handle.result()).toBe('completed');
    const done = await call('GET', `/v1/maintenances/${id}`);
    expect(done.body.state).toBe('completed');
    expect(done.body.messages.map((m: { type: string; body: string }) => `${m.type}: ${m.body}`)).toEqual([
      'Information: Maintenance started.',
      'Resolved: Maintenance completed.',
    ]);
    expect(Date.parse(done.body.actual_start_at)).toBeGreaterThanOrEqual(Date.parse(created.body.scheduled_start_at));
    expect(Date.parse(done.body.actual_end_at)).toBeGreaterThanOrEqual(Date.parse(created.body.scheduled_end_at));
    expect(await events(id)).toEqual([
      'maintenance.scheduled',
      'maintenance.starting_soon',
      'maintenance.started',
      'maintenance.completed',
    ]);

    const described = await handle.describe();
    expect(described.memo).toEqual({ title: 'DB upgrade' });
    expect(described.typedSearchAttributes.getAll().map((p) => [p.key.name, p.value])).toEqual(
      expect.arrayContaining([
        ['VigilOrganizationId', org.id],
        ['VigilResourceKind', 'maintenance'],
        ['VigilResourceId', id],
      ]),
    );
    if (process.env.VIGIL_RECORD_HISTORIES) {
      writeFileSync(
        path.join(__dirname, '..', 'replay-histories', 'maintenance-v2.json'),
        historyToJSON(await handle.fetchHistory()),
      );
    }
  }, 30_000);

  it('lets the API start and complete it early; a repeated transition answers 409; the workflow ends', async () => {
    const { body } = await call('POST', '/v1/maintenances', {
      title: 'Early',
      scheduled_start_at: at(3_600_000 * 5),
      scheduled_end_at: at(3_600_000 * 6),
    });
    const started = await call('POST', `/v1/maintenances/${body.id}/start`);
    expect(started.body.state).toBe('in_progress');
    expect((await call('POST', `/v1/maintenances/${body.id}/start`)).body.title).toBe('already_started');
    expect((await call('POST', `/v1/maintenances/${body.id}/complete`)).body.state).toBe('completed');
    expect((await call('POST', `/v1/maintenances/${body.id}/complete`)).body.title).toBe('already_completed');
    expect((await call('POST', `/v1/maintenances/${body.id}/start`)).body.title).toBe('already_completed');
    expect(await h.temporal.client.workflow.getHandle(maintenanceWorkflowId(body.id)).result()).toBe('completed');
    expect(await events(body.id)).toEqual(['maintenance.scheduled', 'maintenance.started', 'maintenance.completed']);
  }, 30_000);

  it('cancels a completed maintenance (spec §3.1: from any state but canceled); a second cancel answers 409 already_canceled', async () => {
    const { body } = await call('POST', '/v1/maintenances', {
      title: 'Done then canceled',
      scheduled_start_at: at(3_600_000 * 5),
      scheduled_end_at: at(3_600_000 * 6),
    });
    await call('POST', `/v1/maintenances/${body.id}/start`);
    expect((await call('POST', `/v1/maintenances/${body.id}/complete`)).body.state).toBe('completed');
    expect(await h.temporal.client.workflow.getHandle(maintenanceWorkflowId(body.id)).result()).toBe('completed');

    const canceled = await call('POST', `/v1/maintenances/${body.id}/cancel`);
    expect(canceled.status).toBe(200);
    expect(canceled.body.state).toBe('canceled');
    expect(canceled.body.canceled_at).not.toBeNull();
    expect(canceled.body.actual_end_at).not.toBeNull();
    expect(canceled.body.messages.map((m: { type: string; body: string }) => `${m.type}: ${m.body}`)).toEqual([
      'Information: Maintenance started.',
      'Resolved: Maintenance completed.',
      'Information: Maintenance canceled.',
    ]);
    const again = await call('POST', `/v1/maintenances/${body.id}/cancel`);
    expect([again.status, again.body.title]).toEqual([409, 'already_canceled']);
    expect((await call('POST', `/v1/maintenances/${body.id}/start`)).body.title).toBe('already_canceled');
    expect((await call('POST', `/v1/maintenances/${body.id}/complete`)).body.title).toBe('already_canceled');
    // The workflow, told of the cancel after it had finished, just reads the row and ends.
    expect(await h.temporal.client.workflow.getHandle(maintenanceWorkflowId(body.id)).result()).toBe('canceled');
    expect((await call('GET', `/v1/maintenances/${body.id}`)).body.state).toBe('canceled');
    expect(await events(body.id)).toEqual([
      'maintenance.scheduled',
      'maintenance.started',
      'maintenance.completed',
      'maintenance.canceled',
    ]);
  }, 30_000);

  it('cancels before the start: system message, event, and the timers never fire', async () => {
    const { body } = await call('POST', '/v1/maintenances', {
      title: 'Canceled',
      scheduled_start_at: at(4000),
      scheduled_end_at: at(8000),
    });
    const canceled = await call('POST', `/v1/maintenances/${body.id}/cancel`);
    expect(canceled.body).toMatchObject({
      state: 'canceled',
      messages: [{ type: 'Information', body: 'Maintenance canceled.' }],
    });
    expect((await call('POST', `/v1/maintenances/${body.id}/cancel`)).body.title).toBe('already_canceled');
    expect((await call('POST', `/v1/maintenances/${body.id}/complete`)).body.title).toBe('already_canceled');
    expect(await h.temporal.client.workflow.getHandle(maintenanceWorkflowId(body.id)).result()).toBe('canceled');
    expect(await events(body.id)).not.toContain('maintenance.started');
  }, 30_000);

  it('re-plans its timers when PATCH moves the window', async () => {
    const { body } = await call('POST', '/v1/maintenances', {
      title: 'Moved',
      scheduled_start_at: at(3_600_000 * 3),
      scheduled_end_at: at(3_600_000 * 4),
    });
    // A fixed wait that proves a negative: three hours ahead, nothing starts it.
    await new Promise((r) => setTimeout(r, 500));
    expect((await call('GET', `/v1/maintenances/${body.id}`)).body.state).toBe('scheduled');
    const moved = await call('PATCH', `/v1/maintenances/${body.id}`, {
      scheduled_start_at: at(2000),
      scheduled_end_at: at(4000),
    });
    expect(moved.status).toBe(200);
    await eventually(
      async () => expect((await call('GET', `/v1/maintenances/${body.id}`)).body.state).toBe('completed'),
      15_000,
    );
    expect((await events(body.id)).filter((e) => e === 'maintenance.starting_soon')).toHaveLength(1);
  }, 30_000);

  it('announces starting soon once, even when a PATCH moves the start within the hour', async () => {
    const { body } = await call('POST', '/v1/maintenances', {
      title: 'Soon',
      scheduled_start_at: at(1_800_000),
      scheduled_end_at: at(3_600_000),
    });
    await eventually(async () => expect(await events(body.id)).toContain('maintenance.starting_soon'), 10_000);
    await call('PATCH', `/v1/maintenances/${body.id}`, { scheduled_start_at: at(2_400_000) });
    await call('PATCH', `/v1/maintenances/${body.id}`, { scheduled_start_at: at(1_200_000) });
    // A fixed wait that proves a negative: neither PATCH announces starting soon again.
    await new Promise((r) => setTimeout(r, 1_000));
    expect(await events(body.id)).toEqual(['maintenance.scheduled', 'maintenance.starting_soon']);
    expect((await call('POST', `/v1/maintenances/${body.id}/cancel`)).body.state).toBe('canceled');
  }, 30_000);

  it('cancels in progress: system message, event, and the end timer never completes it', async () => {
    const { body } = await call('POST', '/v1/maintenances', {
      title: 'Abort',
      scheduled_start_at: at(3_600_000 * 2),
      scheduled_end_at: at(3_600_000 * 3),
    });
    await call('POST', `/v1/maintenances/${body.id}/start`);
    const canceled = await call('POST', `/v1/maintenances/${body.id}/cancel`);
    expect(canceled.body).toMatchObject({
      state: 'canceled',
      messages: [{ body: 'Maintenance started.' }, { type: 'Information', body: 'Maintenance canceled.' }],
    });
    expect((await call('POST', `/v1/maintenances/${body.id}/complete`)).body.title).toBe('already_canceled');
    expect((await call('POST', `/v1/maintenances/${body.id}/start`)).body.title).toBe('already_canceled');
    expect(await h.temporal.client.workflow.getHandle(maintenanceWorkflowId(body.id)).result()).toBe('canceled');
    expect(await events(body.id)).toEqual(['maintenance.scheduled', 'maintenance.started', 'maintenance.canceled']);
  }, 30_000);

  it('refuses an end before the start, and unknown services', async () => {
    const bad = await call('POST', '/v1/maintenances', {
      title: 'x',
      scheduled_start_at: at(5000),
      scheduled_end_at: at(1000),
    });
    expect([bad.status, bad.body.errors[0].path]).toEqual([400, 'scheduled_end_at']);
    const svc = await call('POST', '/v1/maintenances', {
      title: 'x',
      scheduled_start_at: at(5000),
      scheduled_end_at: at(9000),
      affected_services: ['00000000-0000-4000-8000-000000000009'],
    });
    expect(svc.body.title).toBe('unknown_services');
  });
});
