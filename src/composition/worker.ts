import { Client } from '@temporalio/client';
import { NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import { createActivities, type ActivityDeps } from '../activities';
import { LocalProbeJobs } from '../usecases/probe-tests/local-jobs';
import { type LocationHandle, type LocationSettings, startLocation } from './location';

export interface WorkerHandle {
  worker: Worker;
  /** The worker's own connection. */
  connection: NativeConnection;
  /** A client on that connection: workflows it starts with `requestEagerStart` run their first task on this worker. */
  eagerClient: Client;
  /** Cloud probe tests an API in this process hands to this worker's activities (with eager starts). */
  localProbeJobs: LocalProbeJobs;
  /** The built-in probe location this worker runs, when started with one. */
  location: LocationHandle | null;
  /** Resolves when the worker has stopped (after shutdown()). */
  running: Promise<void>;
  shutdown(): Promise<void>;
}

/**
 * A Worker whose workflow sandbox runs without Node's per-call execution timeout. The SDK passes
 * `timeout` to every `vm` call into the workflow sandbox (several per activation), and Node
 * starts and joins a watchdog thread for each such call: about 0.1 ms on an idle core, far more
 * on busy ones. Under webhook load that was the workflow thread's largest cost (16 of its 24 busy
 * seconds in a profile). What the timeout buys is detecting workflow code stuck in a synchronous
 * loop ("potential deadlock"); Vigil runs only its own short workflows, so it is off unless
 * WORKFLOW_DEADLOCK_TIMEOUT_MS asks for it (docs/decisions.md).
 */
class UnwatchedWorker extends Worker {
  protected static override async createWorkflowCreator(...args: Parameters<(typeof Worker)['createWorkflowCreator']>) {
    const [bundle, compiled, logger] = args;
    return super.createWorkflowCreator(
      bundle,
      { ...compiled, isolateExecutionTimeoutMs: undefined as unknown as number },
      logger,
    );
  }
}

/** Workflow code: the prebuilt bundle when given (production), otherwise bundled from source at start. */
function workflowSource(bundlePath?: string): Pick<WorkerOptions, 'workflowsPath' | 'workflowBundle'> {
  return bundlePath ? { workflowBundle: { codePath: bundlePath } } : { workflowsPath: require.resolve('../workflows') };
}

export async function startWorker(opts: {
  address: string;
  namespace: string;
  taskQueue: string;
  deps: ActivityDeps;
  workflowBundlePath?: string;
  /** WORKFLOW_DEADLOCK_TIMEOUT_MS: fail a workflow task whose code runs longer than this at once; 0 or unset: no such check. */
  deadlockTimeoutMs?: number;
  /**
   * A probe location in this process (VIGIL_LOCATION…): a second worker on `probe:<id>` running
   * the checks with deps.prober, heartbeating to this worker's task queue. Unset: none.
   */
  location?: LocationSettings;
  onLocationHeartbeatError?: (err: unknown) => void;
}): Promise<WorkerHandle> {
  const connection = await NativeConnection.connect({ address: opts.address });
  const watched = (opts.deadlockTimeoutMs ?? 0) > 0;
  const localProbeJobs = new LocalProbeJobs();
  const worker = await (watched ? Worker : UnwatchedWorker).create({
    connection,
    namespace: opts.namespace,
    taskQueue: opts.taskQueue,
    activities: createActivities({ ...opts.deps, localProbeJobs }),
    // Hundreds of maintenance transitions can be due at the same second, each an activity waiting
    // in the worker for its moment; deliveries are short I/O-bound activities. Both are cheap to run wide.
    maxConcurrentLocalActivityExecutions: 200,
    maxConcurrentActivityTaskExecutions: 1_000,
    maxConcurrentWorkflowTaskExecutions: 100,
    ...workflowSource(opts.workflowBundlePath),
    ...(watched ? { isolateExecutionTimeout: opts.deadlockTimeoutMs } : {}),
  });
  let location: LocationHandle | null = null;
  const running = worker.run().finally(async () => {
    await location?.shutdown().catch(() => undefined);
    await connection.close();
  });
  if (opts.location) {
    if (!opts.deps.prober) throw new Error('A worker location needs deps.prober');
    try {
      location = await startLocation({
        connection,
        namespace: opts.namespace,
        mainTaskQueue: opts.taskQueue,
        location: opts.location,
        prober: opts.deps.prober,
        onHeartbeatError: opts.onLocationHeartbeatError,
      });
    } catch (err) {
      worker.shutdown();
      await running.catch(() => undefined);
      throw err;
    }
  }
  return {
    worker,
    connection,
    eagerClient: new Client({ connection, namespace: opts.namespace }),
    localProbeJobs,
    location,
    running,
    async shutdown() {
      // The location first: its last heartbeat goes through this worker's connection.
      await location?.shutdown();
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await running;
    },
  };
}
