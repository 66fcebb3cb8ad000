import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { NativeConnection, Worker } from '@temporalio/worker';
import { createActivities } from '../../src/activities';
import { createOrm, type Orm } from '../../src/db/orm';
import { tzDataVersion } from '../../src/domain/sla/period';
import { type TemporalHandle, connectTemporal } from '../../src/temporal/connection';
import { installTemporalRuntime } from '../../src/temporal/runtime';
import { temporalSlaWorkflows } from '../../src/temporal/sla-workflows';
import { slaStatementWorkflowId } from '../../src/workflows/search-attribute-keys';
import { type ApiHarness, startApi } from '../support/api-harness';
import { testDatabaseUrl, testSecretBox, testTemporalAddress, testWorkflowBundle } from '../support/env';
import { eventually } from '../support/eventually';
import { type OrgFixture, orgWithKeys } from '../support/org-fixture';

/**
 * The draft activity writes the statement's row before its result reaches the workflow, so the
 * row (and the API's 201) can come before the workflow knows the statement. An action sent in that
 * window used to be refused (409 statement_busy, a red CI run on a loaded machine); it now waits
 * for the draft. The window is held open on purpose: workflow tasks and activity tasks run on
 * separate workers, and the workflow worker is away while the draft activity completes.
 */
const taskQueue = `test-sla-race-${randomUUID()}`;
let orm: Orm;
let temporal: TemporalHandle;
let connection: NativeConnection;
let api: ApiHarness;
let org: OrgFixture<'preparer', 'api'>;

const links = {
  jwksUrl: 'http://vigil.test/.well-known/jwks.json',
  verifyDocsUrl: 'http://vigil.test/docs/sla-verification',
};

/** The suite's prebuilt workflow bundle, or the sources bundled at start (as startWorker does). */
function workflowCode(): { workflowBundle: { codePath: string } } | { workflowsPath: string } {
  const codePath = testWorkflowBundle();
  return codePath ? { workflowBundle: { codePath } } : { workflowsPath: require.resolve('../../src/workflows') };
}

/** A worker polling only workflow tasks (no cache: every task replays, so none waits on a sticky queue of a stopped worker), or only activity tasks. */
async function runWorker(kind: 'workflows' | 'activities'): Promise<{ stop(): Promise<void> }> {
  const worker = await Worker.create({
    connection,
    namespace: 'default',
    taskQueue,
    ...(kind === 'workflows'
      ? { ...workflowCode(), maxCachedWorkflows: 0 }
      : {
          activities: createActivities({
            orm,
            sla: {
              workflows: temporalSlaWorkflows(temporal),
              signer: { box: testSecretBox(), tzDataVersion: tzDataVersion(process.versions.tz) },
            },
          }),
        }),
  });
  const running = worker.run();
  return {
    async stop() {
      worker.shutdown();
      await running;
    },
  };
}

beforeAll(async () => {
  installTemporalRuntime('WARN');
  orm = await createOrm({ url: testDatabaseUrl(), poolMax: 4 });
  temporal = await connectTemporal({ address: testTemporalAddress(), namespace: 'default', taskQueue });
  connection = await NativeConnection.connect({ address: testTemporalAddress() });
  api = await startApi({
    sla: { workflows: temporalSlaWorkflows(temporal, {}, { updateWaitMs: 30_000 }), printer: null, links },
  });
  org = await orgWithKeys(api, { keys: { preparer: ['read:sla', 'write:sla'] }, services: ['api'] });
}, 60_000);
afterAll(async () => {
  await api?.close();
  await connection?.close();
  await temporal?.close();
  await orm?.close();
});

describe('an action sent while its SLA statement is still being drafted', () => {
  it('waits for the draft and is taken, never refused as busy', async () => {
    const customer = (await org.call('POST', '/v1/customers', { name: 'Race Corp' })).body.id;
    const contract = (
      await org.call('POST', '/v1/contracts', {
        customer_id: customer,
        name: 'Race SLA',
        service_ids: [org.services.api],
        sla_target_pct: '99.9',
        timezone: 'UTC',
        currency: 'EUR',
        monthly_fee_minor: 100_000,
        effective_from: '2026-01-01',
        credit_terms: { type: 'tiered', steps: [{ below_pct: '99.9', credit_pct: '5' }], maintenance_notice_hours: 24 },
      })
    ).body;
    const handle = temporal.client.workflow.getHandle(slaStatementWorkflowId(contract.id, '2026-10'));

    // The workflow's first task schedules the draft; no activity worker runs yet.
    const workflows = await runWorker('workflows');
    const drafting = org.keys.preparer.call('POST', `/v1/contracts/${contract.id}/statements`, { period: '2026-10' });
    await eventually(async () => {
      const events = (await handle.fetchHistory()).events ?? [];
      expect(events.some((e) => e.activityTaskScheduledEventAttributes)).toBe(true);
    }, 20_000);
    await workflows.stop();

    // The draft runs and writes the row; its result waits for a workflow worker.
    const activities = await runWorker('activities');
    try {
      const drafted = await drafting;
      expect([drafted.status, drafted.body.state]).toEqual([201, 'draft']);
      await eventually(async () => {
        const events = (await handle.fetchHistory()).events ?? [];
        expect(events.some((e) => e.activityTaskCompletedEventAttributes)).toBe(true);
      }, 20_000);

      // The action reaches the workflow together with the draft's result.
      const submitting = org.keys.preparer.call('POST', `/v1/sla/statements/${drafted.body.id}/submit`, {
        acknowledge_gaps: true,
      });
      await new Promise((r) => setTimeout(r, 1_000));
      const again = await runWorker('workflows');
      try {
        const submitted = await submitting;
        expect([submitted.status, submitted.body.state ?? submitted.body.title]).toEqual([200, 'in_review']);
        expect((await handle.query<{ state: string } | null>('statement'))?.state).toBe('in_review');
        // VIGIL_RECORD_HISTORIES=1 rewrites the replay test's history of an update accepted before the draft's result.
        if (process.env.VIGIL_RECORD_HISTORIES)
          writeFileSync(
            path.join(__dirname, '..', 'replay-histories', 'sla-statement-v3.json'),
            historyToJSON(await handle.fetchHistory()),
          );
      } finally {
        await handle.terminate('test done').catch(() => undefined);
        await again.stop();
      }
    } finally {
      await activities.stop();
    }
  }, 90_000);
});
