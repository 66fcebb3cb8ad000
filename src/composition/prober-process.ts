import { NativeConnection } from '@temporalio/worker';
import type { Logger } from 'pino';
import type { Config } from '../config';
import { PROBES } from '../probes/registry';
import { installTemporalRuntime, temporalLogLevel } from '../temporal/runtime';
import { type LocationHandle, startLocation } from './location';

export interface ProberHandle {
  location: LocationHandle;
  /** Resolves when the location's worker stopped; rejects when it failed. */
  running: Promise<void>;
  shutdown(): Promise<void>;
}

/**
 * `vigil-prober`: one probe location (VIGIL_LOCATION) polling `probe:<location>` on the Temporal
 * cluster at TEMPORAL_ADDRESS, heartbeating to the installation's task queue
 * (TEMPORAL_TASK_QUEUE). It answers through Temporal only: no database, no API, so it can run
 * in any region or cloud. Resolves once its first heartbeat was accepted.
 */
export async function runProber(config: Config, log: Logger): Promise<ProberHandle> {
  if (!config.TEMPORAL_ADDRESS)
    throw new Error('TEMPORAL_ADDRESS is required for the prober (host:port of the Temporal frontend)');
  installTemporalRuntime(temporalLogLevel(config.LOG_LEVEL));
  const connection = await NativeConnection.connect({ address: config.TEMPORAL_ADDRESS });
  let location: LocationHandle;
  try {
    location = await startLocation({
      connection,
      namespace: config.TEMPORAL_NAMESPACE,
      mainTaskQueue: config.TEMPORAL_TASK_QUEUE,
      location: {
        id: config.VIGIL_LOCATION,
        label: config.VIGIL_LOCATION_LABEL ?? config.VIGIL_LOCATION,
        heartbeatSeconds: config.LOCATION_HEARTBEAT_SECONDS,
        sourceAddress: config.VIGIL_PROBE_SOURCE_ADDRESS,
      },
      prober: {
        registry: PROBES,
        allowCidrs: config.CLOUD_PROBE_ALLOW_CIDRS,
        resolver: config.CLOUD_PROBE_RESOLVER,
        defaultTimeoutMs: config.CLOUD_PROBE_TIMEOUT_MS,
      },
      onHeartbeatError: (err) => log.warn({ err }, 'heartbeat failed; the next one follows'),
    });
  } catch (err) {
    await connection.close();
    throw err;
  }
  const running = location.running.finally(() => connection.close());
  log.info(
    {
      location: location.id,
      label: config.VIGIL_LOCATION_LABEL ?? config.VIGIL_LOCATION,
      taskQueue: location.taskQueue,
      installation: config.TEMPORAL_TASK_QUEUE,
      sourceAddress: config.VIGIL_PROBE_SOURCE_ADDRESS || null,
      heartbeatSeconds: config.LOCATION_HEARTBEAT_SECONDS,
    },
    'prober running',
  );
  return {
    location,
    running,
    async shutdown() {
      await location.shutdown();
      await running;
    },
  };
}
