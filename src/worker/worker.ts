import { NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import { createActivities, type ActivityDeps } from '../activities';

export interface WorkerHandle {
  worker: Worker;
  /** The worker's own connection: a client on it can start workflows eagerly on this worker. */
  connection: NativeConnection;
  /** Resolves when the worker has stopped (after shutdown()). */
  running: Promise<void>;
  shutdown(): Promise<void>;
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
}): Promise<WorkerHandle> {
  const connection = await NativeConnection.connect({ address: opts.address });
  const worker = await Worker.create({
    connection,
    namespace: opts.namespace,
    taskQueue: opts.taskQueue,
    activities: createActivities(opts.deps),
    // Hundreds of maintenance transitions can be due at the same second, each an activity waiting
    // in the worker for its moment; deliveries are short I/O-bound activities. Both are cheap to run wide.
    maxConcurrentLocalActivityExecutions: 200,
    maxConcurrentActivityTaskExecutions: 1_000,
    maxConcurrentWorkflowTaskExecutions: 100,
    ...workflowSource(opts.workflowBundlePath),
  });
  const running = worker.run().finally(() => connection.close());
  return {
    worker,
    connection,
    running,
    async shutdown() {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await running;
    },
  };
}
