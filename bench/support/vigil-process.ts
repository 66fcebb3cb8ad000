import { randomBytes } from 'node:crypto';
import type { ChangeFeed } from '../../src/db/change-feed';
import type { Orm } from '../../src/db/orm';
import { SecretBox } from '../../src/crypto/secret-box';
import { installTemporalRuntime } from '../../src/temporal/runtime';
import type { OutboxWorkflowStarter } from '../../src/usecases/events/ports';
import { OutboxRelay } from '../../src/usecases/events/outbox-relay';
import { withoutTemporal } from '../../test/support/app-deps';

/**
 * The wiring every benchmark's Vigil process shares with `vigil start` (src/composition): the API's
 * dependencies without Temporal, a worker whose failure ends the process, and the outbox relay.
 * Each process adds what its benchmark measures on top, so that the figures are of production's
 * wiring and not of a bench's own.
 */

/**
 * The API's dependencies as the API process has them, without request logging and without
 * Temporal (a process that has it replaces the ports it uses).
 */
export function benchAppDeps(orm: Orm, changeFeed: ChangeFeed, secretBox: SecretBox, statusHost?: string) {
  return {
    ...withoutTemporal('http://127.0.0.1'),
    linkKey: randomBytes(32),
    orm,
    config: {
      docsUrl: 'https://docs.vigil.invalid',
      publicBaseUrl: 'http://127.0.0.1',
      BODY_LIMIT_BYTES: 1_048_576,
      ...(statusHost === undefined ? {} : { STATUS_HOST: statusHost }),
    },
    changeFeed,
    secretBox,
  };
}

/** As the worker process: a worker that stops running takes the process down (a bench must not measure a dead worker). */
export function exitWhenWorkerFails(worker: { running: Promise<unknown> }): void {
  worker.running.catch((err) => {
    console.error('[vigil] worker failed:', err);
    process.exit(1);
  });
}

/** The outbox relay, started: it drains the outbox through `starter` on every notification, as in the worker process. */
export async function startOutboxRelay(
  orm: Orm,
  databaseUrl: string,
  starter: OutboxWorkflowStarter,
): Promise<OutboxRelay> {
  const relay = new OutboxRelay({
    orm,
    databaseUrl,
    starter,
    onError: (err) => console.error('[vigil] outbox relay failed:', err),
  });
  await relay.start();
  return relay;
}

/** What a driver tells each of its Vigil processes that runs a Temporal worker. */
export interface TemporalProcessEnv {
  BENCH_DATABASE_URL: string;
  BENCH_TEMPORAL_ADDRESS: string;
  /** A task queue of the run's own, so that no other worker takes its tasks. */
  BENCH_TASK_QUEUE: string;
  /** 64 hex digits. */
  BENCH_MASTER_KEY: string;
}

/** Reads TemporalProcessEnv through `env` (which names the driver when one is missing) and installs Temporal's runtime, logging warnings only. */
export function startTemporalProcess(env: (name: keyof TemporalProcessEnv) => string): {
  databaseUrl: string;
  address: string;
  taskQueue: string;
  box: SecretBox;
} {
  const settings = {
    databaseUrl: env('BENCH_DATABASE_URL'),
    address: env('BENCH_TEMPORAL_ADDRESS'),
    taskQueue: env('BENCH_TASK_QUEUE'),
    box: new SecretBox(Buffer.from(env('BENCH_MASTER_KEY'), 'hex')),
  };
  installTemporalRuntime('WARN');
  return settings;
}
