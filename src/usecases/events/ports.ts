import type { AlertSignalRef, DeliveryRef, EmailRunRef } from '../../db/repositories/outbox-repository';

export type { AlertSignalRef, DeliveryRef, EmailRunRef };

/*
 * One port per consumer of the outbox. The relay (relay.ts) fans each committed event out to
 * rows — webhook deliveries, subscriber-email runs, alert signals — and hands each kind to its
 * port, implemented in src/temporal (outbox-workflow-starter.ts). Each answers the ids now known
 * to run or to have been told (started now or earlier), which the relay records.
 */

/** Webhook deliveries: one workflow per delivery. */
export interface WebhookDeliveryStarter {
  start(deliveries: readonly DeliveryRef[]): Promise<string[]>;
}

/** Subscriber emails: one run per event. */
export interface SubscriberEmailStarter {
  startEmailRuns(runs: readonly EmailRunRef[]): Promise<string[]>;
}

/** Alert workflows: signal-with-start for a firing change, a plain signal otherwise; answers the signal ids handled. */
export interface AlertSignaller {
  signalAlerts(signals: readonly AlertSignalRef[]): Promise<string[]>;
}

/**
 * The three together, as the worker and the API's relay hold them. A process without the email or
 * alert port leaves those rows for one that has it (the outbox sweep sends what was left).
 */
export type OutboxWorkflowStarter = WebhookDeliveryStarter & Partial<SubscriberEmailStarter & AlertSignaller>;
