import { Client } from '@temporalio/client';
import { type NativeConnection, Worker } from '@temporalio/worker';
import { createProbeLocationActivities } from '../activities/probe-location';
import { locationTaskQueue } from '../domain/confirmation';
import {
  LOCATION_HEARTBEAT_SIGNAL,
  type LocationHeartbeat,
  PROBER_VERSION,
  isLocationId,
  locationWorkflowId,
} from '../domain/locations';
import type { ProberDeps } from '../probes/cloud-run';

export interface LocationSettings {
  /** VIGIL_LOCATION. */
  id: string;
  /** VIGIL_LOCATION_LABEL. */
  label: string;
  /** LOCATION_HEARTBEAT_SECONDS. */
  heartbeatSeconds: number;
  /** VIGIL_PROBE_SOURCE_ADDRESS; empty or unset: the system chooses. */
  sourceAddress?: string;
}

export interface LocationHandle {
  id: string;
  /** `probe:<id>`, the task queue its worker polls. */
  taskQueue: string;
  worker: Worker;
  /** Resolves when its worker has stopped. */
  running: Promise<void>;
  /** Stops heartbeating (a last `stopping` heartbeat, so it is offline at once) and its worker. */
  shutdown(): Promise<void>;
}

/** A heartbeat takes at most this long; a slower one is abandoned (the next one follows on schedule). */
const HEARTBEAT_TIMEOUT_MS = 5_000;
/**
 * The stopping heartbeat may take longer: nothing follows it, and without it the location reads
 * online until three heartbeats are missed (a starved Temporal frontend has taken over 5 s).
 */
const STOPPING_HEARTBEAT_TIMEOUT_MS = 20_000;

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`heartbeat took longer than ${ms} ms`)), ms)),
  );
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}

/**
 * A probe location on `connection`: a Temporal worker on `probe:<id>` that runs `probeChecks`, and
 * a heartbeat every `heartbeatSeconds` — signalWithStart of `locationWorkflow` on the installation's
 * main task queue, whose worker records it. Resolves once the first heartbeat was accepted, so a
 * process that reports ready is registered. Needs Temporal only, never the database.
 */
export async function startLocation(opts: {
  connection: NativeConnection;
  namespace: string;
  /** The installation's task queue (TEMPORAL_TASK_QUEUE): where the location workflow runs. */
  mainTaskQueue: string;
  location: LocationSettings;
  prober: ProberDeps;
  onHeartbeatError?: (err: unknown) => void;
}): Promise<LocationHandle> {
  const { id, label, heartbeatSeconds } = opts.location;
  if (!isLocationId(id))
    throw new Error(
      `Not a location id: ${JSON.stringify(id)} (lower-case letters, digits and dashes, starting with a letter, at most 40)`,
    );
  const taskQueue = locationTaskQueue(id);
  const localAddress = opts.location.sourceAddress || undefined;
  const worker = await Worker.create({
    connection: opts.connection,
    namespace: opts.namespace,
    taskQueue,
    activities: createProbeLocationActivities({ location: id, prober: { ...opts.prober, localAddress } }),
    maxConcurrentActivityTaskExecutions: 100,
  });
  const running = worker.run();
  const client = new Client({ connection: opts.connection, namespace: opts.namespace });
  const startedAt = new Date().toISOString();
  const beat = async (stopping = false) => {
    const heartbeat: LocationHeartbeat = {
      id,
      label,
      version: PROBER_VERSION,
      heartbeatSeconds,
      at: new Date().toISOString(),
      startedAt,
      ...(stopping ? { stopping } : {}),
    };
    await withTimeout(
      client.workflow.signalWithStart('locationWorkflow', {
        workflowId: locationWorkflowId(opts.mainTaskQueue, id),
        taskQueue: opts.mainTaskQueue,
        signal: LOCATION_HEARTBEAT_SIGNAL,
        signalArgs: [heartbeat],
      }),
      stopping ? STOPPING_HEARTBEAT_TIMEOUT_MS : HEARTBEAT_TIMEOUT_MS,
    );
  };
  try {
    await beat();
  } catch (err) {
    worker.shutdown();
    await running.catch(() => undefined);
    throw err;
  }

  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<void> = Promise.resolve();
  const schedule = () => {
    timer = setTimeout(() => {
      inFlight = beat()
        .catch((err) => opts.onHeartbeatError?.(err))
        .finally(() => {
          if (!stopped) schedule();
        });
    }, heartbeatSeconds * 1000);
  };
  schedule();

  return {
    id,
    taskQueue,
    worker,
    running,
    async shutdown() {
      if (stopped) return running;
      stopped = true;
      clearTimeout(timer);
      await inFlight;
      await beat(true).catch((err) => opts.onHeartbeatError?.(err));
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await running;
    },
  };
}
