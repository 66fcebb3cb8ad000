import type { AlertDeps } from '../../src/activities/alerts';
import { randomBytes, randomUUID } from 'node:crypto';
import { createOrm, type Orm } from '../../src/db/orm';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from '../../src/domain/webhook-retry';
import { type TemporalHandle, connectTemporal } from '../../src/temporal/connection';
import { installTemporalRuntime } from '../../src/temporal/runtime';
import { temporalMaintenanceScheduler } from '../../src/temporal/maintenance-scheduler';
import { temporalOutboxWorkflowStarter } from '../../src/temporal/outbox-workflow-starter';
import type { OutboxWorkflowStarter } from '../../src/usecases/events/ports';
import { OutboxRelay } from '../../src/usecases/events/outbox-relay';
import { PROBES } from '../../src/probes/registry';
import { type WorkerHandle, startWorker } from '../../src/composition/worker';
import type { LocationSettings } from '../../src/composition/location';
import type { EmailDeps } from '../../src/usecases/status-pages/notifications';
import type { SlaDeps } from '../../src/activities/sla';
import { temporalSlaWorkflows } from '../../src/temporal/sla-workflows';
import { testDatabaseUrl, testSecretBox, testTemporalAddress, testWorkflowBundle } from './env';
import { inOwnDatabase, useOwnDatabase } from './own-database';
import { publicOnlyPoster } from '../../src/infra/webhook-http';

export interface TemporalHarness {
  orm: Orm;
  temporal: TemporalHandle;
  worker: WorkerHandle;
  taskQueue: string;
  /** The worker's built-in probe location (`local-<8 hex>`), or null when started with `location: false`. */
  location: string | null;
  webhookStarter: OutboxWorkflowStarter;
  /** Present when started with `relay: true`. */
  relay: OutboxRelay | null;
  close(): Promise<void>;
}

/** A real worker on the suite's Temporal dev server, on a task queue of its own so suites never steal each other's tasks. */
export async function startTemporalHarness(
  opts: {
    relay?: boolean;
    webhookPolicy?: RetryPolicy;
    webhookTimeoutMs?: number;
    cloudAllowCidrs?: string;
    cloudResolver?: string;
    webhookAllowCidrs?: string;
    /** Subscriber email: only a harness given these sends it (every relay creates email runs, but only its relay starts them). */
    email?: EmailDeps;
    /** SLA statement signing and mail (the worker's activities); the Schedule sweep reaches this server unless `workflows` is given. */
    sla?: SlaDeps;
    /**
     * The worker's built-in probe location. Suites share one Temporal server and one
     * database, so each harness gets an id of its own (`local-<8 hex>`); `false`: none.
     */
    location?: false | Partial<LocationSettings>;
    /** Alert notifications: only a harness given these signals alert workflows from its relay (suites share the database). */
    alerts?: AlertDeps;
  } = {},
): Promise<TemporalHarness> {
  installTemporalRuntime('WARN');
  // A relay drains the whole outbox of its database: a suite with one works in a database of its own
  // (made before anything of the file connects, so its API must start after the harness), so it
  // neither takes other suites' events nor waits for their turn.
  const testDatabaseUrlBefore = testDatabaseUrl();
  const own = opts.relay && !inOwnDatabase() ? await useOwnDatabase() : null;
  const taskQueue = `test-${randomUUID()}`;
  const address = testTemporalAddress();
  const orm = await createOrm({ url: testDatabaseUrl(), poolMax: 4 });
  const temporal = await connectTemporal({ address, namespace: 'default', taskQueue });
  const webhookStarter = temporalOutboxWorkflowStarter(temporal, opts.webhookPolicy ?? DEFAULT_RETRY_POLICY);
  const worker = await startWorker({
    address,
    namespace: 'default',
    taskQueue,
    workflowBundlePath: testWorkflowBundle(),
    deps: {
      orm,
      maintenanceScheduler: temporalMaintenanceScheduler(temporal),
      webhooks: {
        box: testSecretBox(),
        starter: webhookStarter,
        timeoutMs: opts.webhookTimeoutMs ?? 5_000,
        poster: publicOnlyPoster(opts.webhookAllowCidrs ?? '127.0.0.0/8,::1/128'),
      },
      // Tests probe targets on loopback: the documented allow-list, never on by default.
      prober: {
        registry: PROBES,
        allowCidrs: opts.cloudAllowCidrs ?? '127.0.0.0/8,::1/128',
        resolver: opts.cloudResolver,
        defaultTimeoutMs: 5_000,
      },
      email: opts.email,
      sla: opts.sla ? { workflows: temporalSlaWorkflows(temporal), ...opts.sla } : undefined,
      alerts: opts.alerts,
    },
    location:
      opts.location === false
        ? undefined
        : {
            id: `local-${randomBytes(4).toString('hex')}`,
            label: 'Test harness',
            heartbeatSeconds: 10,
            ...opts.location,
          },
  });
  // As in the worker process: the relay starts deliveries eagerly on this worker.
  const eagerStarter = temporalOutboxWorkflowStarter(
    { client: worker.eagerClient, taskQueue },
    opts.webhookPolicy ?? DEFAULT_RETRY_POLICY,
    { eager: true },
  );
  const eager: OutboxWorkflowStarter = {
    start: (d) => eagerStarter.start(d),
    ...(opts.email ? { startEmailRuns: (r) => eagerStarter.startEmailRuns!(r) } : {}),
    ...(opts.alerts ? { signalAlerts: (s) => eagerStarter.signalAlerts!(s) } : {}),
  };
  const relay = opts.relay ? new OutboxRelay({ orm, databaseUrl: testDatabaseUrl(), starter: eager }) : null;
  await relay?.start();
  return {
    orm,
    temporal,
    worker,
    taskQueue,
    location: worker.location?.id ?? null,
    webhookStarter,
    relay,
    async close() {
      await relay?.close();
      await worker.shutdown();
      await temporal.close();
      await orm.close();
      // The database is dropped by the global teardown: the file's API may still be connected.
      if (own) process.env.VIGIL_TEST_DATABASE_URL = testDatabaseUrlBefore;
    },
  };
}
