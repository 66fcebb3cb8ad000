import { randomUUID } from 'node:crypto';
import { OutboxEventSchema } from '../../src/db/entities';
import { type TemporalHandle, connectTemporal } from '../../src/temporal/connection';
import { maintenanceWorkflowId, temporalMaintenanceScheduler } from '../../src/temporal/maintenance-scheduler';
import { type ApiHarness, startApi } from '../support/api-harness';
import { type Call, type OrgFixture, orgWithKeys } from '../support/org-fixture';
import { testTemporalAddress } from '../support/env';
import { workerProcesses } from '../support/worker-processes';
import { eventually } from '../support/eventually';

const taskQueue = `test-crash-${randomUUID()}`;
let temporal: TemporalHandle;
let api: ApiHarness;
let org: OrgFixture;
const workers = workerProcesses(taskQueue);

beforeAll(async () => {
  temporal = await connectTemporal({ address: testTemporalAddress(), namespace: 'default', taskQueue });
  api = await startApi({ maintenanceScheduler: temporalMaintenanceScheduler(temporal) });
  org = await orgWithKeys(api);
});
afterAll(async () => {
  await workers.closeAll();
  await api.close();
  await temporal.close();
});

const call: Call = (...args) => org.call(...args);

describe('a worker killed in the middle of a maintenance', () => {
  it('resumes on restart: the end timer fires late, once, with no event sent twice', async () => {
    const first = await workers.spawn();
    const start = new Date(Date.now() + 2_000).toISOString();
    // Time enough between start and end for a loaded machine to see it in progress and kill the worker before it ends.
    const end = new Date(Date.now() + 15_000).toISOString();
    const { body } = await call('POST', '/v1/maintenances', {
      title: 'Crash me',
      scheduled_start_at: start,
      scheduled_end_at: end,
    });
    await eventually(
      async () => expect((await call('GET', `/v1/maintenances/${body.id}`)).body.state).toBe('in_progress'),
      15_000,
    );

    await workers.kill(first);
    await new Promise((r) => setTimeout(r, Date.parse(end) - Date.now() + 1_500));
    // Nobody keeps time while the worker is down: the row still says in progress.
    expect((await call('GET', `/v1/maintenances/${body.id}`)).body.state).toBe('in_progress');

    await workers.spawn();
    expect(await temporal.client.workflow.getHandle(maintenanceWorkflowId(body.id)).result()).toBe('completed');
    const done = (await call('GET', `/v1/maintenances/${body.id}`)).body;
    expect(done.state).toBe('completed');
    expect(done.messages.map((m: { body: string }) => m.body)).toEqual([
      'Maintenance started.',
      'Maintenance completed.',
    ]);
    const events = await api.orm.em
      .fork()
      .find(OutboxEventSchema, { resourceId: body.id }, { orderBy: { createdAt: 'asc' } });
    expect(events.map((e) => e.type)).toEqual([
      'maintenance.scheduled',
      'maintenance.starting_soon',
      'maintenance.started',
      'maintenance.completed',
    ]);
  }, 60_000);
});
