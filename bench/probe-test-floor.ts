import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { bundleWorkflowCode, NativeConnection, Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { installTemporalRuntime } from '../src/temporal/runtime';
import { type Stats, stats } from './support/measure';
import type { FloorActivities } from './probe-test-floor-workflows';

/**
 * The floor under bench/probe-test's overheads: the Temporal round trips of a probe test measured
 * alone against one Temporal server, with a worker in this process (the SDK's default Worker),
 * sequentially, after `warmup` of each:
 *   - eagerActivity: StartWorkflowExecution with request_eager_execution from a client on the
 *     worker's connection until its first workflow task has run a local activity (and the start
 *     has answered): what a cloud test needs from Temporal before its probe runs.
 *   - eagerResult: the same, until the workflow's result is read (task completed, result polled).
 *   - start: a plain StartWorkflowExecution on a separate client connection (as the API starts an
 *     agent test's workflow).
 *   - signalWithStart: SignalWithStartWorkflowExecution on that running workflow (as the API tells
 *     it the agent's result).
 */
export interface TemporalFloors {
  n: number;
  eagerActivity: Stats;
  eagerResult: Stats;
  start: Stats;
  signalWithStart: Stats;
}

let bundle: Promise<WorkflowBundleWithSourceMap> | undefined;

export async function measureTemporalFloors(
  address: string,
  namespace: string,
  n: number,
  warmup: number,
): Promise<TemporalFloors> {
  installTemporalRuntime('WARN');
  const quiet = { trace() {}, debug() {}, info() {}, warn() {}, error: (m: string) => console.error(m), log() {} };
  bundle ??= bundleWorkflowCode({ workflowsPath: require.resolve('./probe-test-floor-workflows'), logger: quiet });
  const taskQueue = `bench-probe-test-floor-${randomUUID()}`;
  const touched = new Map<string, () => void>();
  const activities: FloorActivities = {
    async floorTouch(id) {
      touched.get(id)?.();
    },
  };
  const native = await NativeConnection.connect({ address });
  const worker = await Worker.create({
    connection: native,
    namespace,
    taskQueue,
    workflowBundle: await bundle,
    activities,
  });
  const running = worker.run();
  const eager = new Client({ connection: native, namespace });
  const plainConnection = await Connection.connect({ address });
  const plain = new Client({ connection: plainConnection, namespace });
  const xs = {
    eagerActivity: [] as number[],
    eagerResult: [] as number[],
    start: [] as number[],
    signalWithStart: [] as number[],
  };
  try {
    for (let i = 0; i < warmup + n; i++) {
      const keep = i >= warmup;
      {
        const id = `bench-floor-eager-${randomUUID()}`;
        const ran = new Promise<void>((resolve, reject) => {
          touched.set(id, resolve);
          setTimeout(() => reject(new Error(`the local activity of ${id} did not run within 30 s`)), 30_000).unref();
        });
        const t0 = performance.now();
        const handle = await eager.workflow.start('benchFloorWorkflow', {
          workflowId: id,
          taskQueue,
          args: [id],
          requestEagerStart: true,
        });
        await ran;
        const t1 = performance.now();
        await handle.result();
        const t2 = performance.now();
        touched.delete(id);
        if (keep) {
          xs.eagerActivity.push(t1 - t0);
          xs.eagerResult.push(t2 - t0);
        }
      }
      {
        const id = `bench-floor-signal-${randomUUID()}`;
        const t0 = performance.now();
        const handle = await plain.workflow.start('benchFloorSignalWorkflow', { workflowId: id, taskQueue });
        const t1 = performance.now();
        await plain.workflow.signalWithStart('benchFloorSignalWorkflow', {
          workflowId: id,
          taskQueue,
          signal: 'benchFloorDone',
          signalArgs: [],
        });
        const t2 = performance.now();
        await handle.result();
        if (keep) {
          xs.start.push(t1 - t0);
          xs.signalWithStart.push(t2 - t1);
        }
      }
    }
  } finally {
    worker.shutdown();
    await running.catch(() => undefined);
    await plainConnection.close();
    await native.close();
  }
  return {
    n,
    eagerActivity: stats(xs.eagerActivity),
    eagerResult: stats(xs.eagerResult),
    start: stats(xs.start),
    signalWithStart: stats(xs.signalWithStart),
  };
}
