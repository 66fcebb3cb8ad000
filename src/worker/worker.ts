import { NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import { createActivities, type ActivityDeps } from '../activities';

export interface WorkerHandle {
  worker: Worker;
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
    ...workflowSource(opts.workflowBundlePath),
  });
  const running = worker.run().finally(() => connection.close());
  return {
    worker,
    running,
    async shutdown() {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await running;
    },
  };
}
