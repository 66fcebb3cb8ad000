import type { AlertSignalRef, DeliveryRef, EmailRunRef } from '../../db/repositories/outbox-repository';

export type { AlertSignalRef, DeliveryRef, EmailRunRef };

/**
 * Starts the workflows that events fan out to: webhook deliveries and subscriber-email runs
 * (implemented in src/temporal). Each method answers the ids now known to run (started now or earlier).
 */
export interface OutboxWorkflowStarter {
  start(deliveries: readonly DeliveryRef[]): Promise<string[]>;
  /** Subscriber-email runs (one per event); without it they wait for a starter that has it. */
  startEmailRuns?(runs: readonly EmailRunRef[]): Promise<string[]>;
  /** Alert workflows (issue 26): signal-with-start for a firing change, a plain signal otherwise; answers the signal ids handled. */
  signalAlerts?(signals: readonly AlertSignalRef[]): Promise<string[]>;
}
