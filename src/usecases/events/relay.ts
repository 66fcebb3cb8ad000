import type { EntityManager } from '@mikro-orm/postgresql';
import type { OutboxWorkflowStarter } from './ports';
import type { AlertSignalRef, DeliveryRef, EmailRunRef } from './ports';
import { dispatchOutbox } from '../../db/repositories/outbox-repository';
import {
  markAlertSignalsSent,
  markDeliveriesStarted,
  markEmailRunsStarted,
  unsentAlertSignals,
  unstartedDeliveries,
  unstartedEmailRuns,
} from './workflow-starts';

const BATCH = 500;

/** Starts the workflows of `refs` (when this starter can) and records the ones now running; answers how many. */
async function startAndMark<T>(
  fork: () => EntityManager,
  refs: T[],
  start: ((refs: T[]) => Promise<string[]>) | undefined,
  mark: (em: EntityManager, ids: string[], now: Date) => Promise<void>,
): Promise<number> {
  if (!refs.length || !start) return 0;
  const started = await start(refs);
  await mark(fork(), started, new Date());
  return started.length;
}

const startDeliveries = (fork: () => EntityManager, starter: OutboxWorkflowStarter, refs: DeliveryRef[]) =>
  startAndMark(fork, refs, (r) => starter.start(r), markDeliveriesStarted);
const sendAlertSignals = (fork: () => EntityManager, starter: OutboxWorkflowStarter, refs: AlertSignalRef[]) =>
  startAndMark(fork, refs, starter.signalAlerts && ((r) => starter.signalAlerts!(r)), markAlertSignalsSent);
const startEmailRuns = (fork: () => EntityManager, starter: OutboxWorkflowStarter, refs: EmailRunRef[]) =>
  startAndMark(fork, refs, starter.startEmailRuns && ((r) => starter.startEmailRuns!(r)), markEmailRunsStarted);

/**
 * Drains the outbox: fans every undispatched event out to webhook deliveries and subscriber-email
 * runs and starts their workflows. Email runs a starter without email cannot start wait for the
 * outbox sweep of a worker that can (restartUnstartedDeliveries).
 */
export async function relayOutbox(
  fork: () => EntityManager,
  starter: OutboxWorkflowStarter,
): Promise<{ events: number; started: number; unstarted: number }> {
  let events = 0;
  let started = 0;
  let unstarted = 0;
  for (;;) {
    const batch = await dispatchOutbox(fork(), new Date(), BATCH);
    events += batch.events;
    // Side by side: an on-call engineer's page does not wait behind a batch's webhooks and emails.
    const [signals, deliveries, emailRuns] = await Promise.all([
      sendAlertSignals(fork, starter, batch.alertSignals),
      startDeliveries(fork, starter, batch.deliveries),
      startEmailRuns(fork, starter, batch.emailRuns),
    ]);
    started += deliveries + emailRuns + signals;
    unstarted +=
      batch.deliveries.length -
      deliveries +
      (starter.startEmailRuns ? batch.emailRuns.length - emailRuns : 0) +
      (starter.signalAlerts ? batch.alertSignals.length - signals : 0);
    if (batch.events < BATCH) break;
  }
  return { events, started, unstarted };
}

/** Starts workflows for deliveries committed more than `graceMs` ago but never confirmed started. */
export async function restartUnstartedDeliveries(
  fork: () => EntityManager,
  starter: OutboxWorkflowStarter,
  graceMs: number,
): Promise<number> {
  return (await startUnstarted(fork, starter, graceMs)).started;
}

/** restartUnstartedDeliveries, also counting what still could not be started. */
export async function startUnstarted(
  fork: () => EntityManager,
  starter: OutboxWorkflowStarter,
  graceMs: number,
): Promise<{ started: number; unstarted: number }> {
  const before = new Date(Date.now() - graceMs);
  const deliveries = await unstartedDeliveries(fork(), before);
  const emailRuns = starter.startEmailRuns ? await unstartedEmailRuns(fork(), before) : [];
  const signals = starter.signalAlerts ? await unsentAlertSignals(fork(), before) : [];
  const started =
    (await startDeliveries(fork, starter, deliveries)) +
    (await startEmailRuns(fork, starter, emailRuns)) +
    (await sendAlertSignals(fork, starter, signals));
  return { started, unstarted: deliveries.length + emailRuns.length + signals.length - started };
}
