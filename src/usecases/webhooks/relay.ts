import type { EntityManager } from '@mikro-orm/postgresql';
import type { OutboxWorkflowStarter } from './ports';
import type { DeliveryRef, EmailRunRef } from './ports';
import { dispatchOutbox } from '../../db/repositories/outbox-repository';
import { markDeliveriesStarted, markEmailRunsStarted, unstartedDeliveries, unstartedEmailRuns } from './workflow-starts';

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

const startDeliveries = (fork: () => EntityManager, starter: OutboxWorkflowStarter, refs: DeliveryRef[]) => startAndMark(fork, refs, (r) => starter.start(r), markDeliveriesStarted);
const startEmailRuns = (fork: () => EntityManager, starter: OutboxWorkflowStarter, refs: EmailRunRef[]) =>
  startAndMark(fork, refs, starter.startEmailRuns && ((r) => starter.startEmailRuns!(r)), markEmailRunsStarted);

/**
 * Drains the outbox: fans every undispatched event out to webhook deliveries and subscriber-email
 * runs and starts their workflows. Email runs a starter without email cannot start wait for the
 * outbox sweep of a worker that can (restartUnstartedDeliveries).
 */
export async function relayOutbox(fork: () => EntityManager, starter: OutboxWorkflowStarter): Promise<{ events: number; started: number }> {
  let events = 0;
  let started = 0;
  for (;;) {
    const batch = await dispatchOutbox(fork(), new Date(), BATCH);
    events += batch.events;
    started += await startDeliveries(fork, starter, batch.deliveries);
    started += await startEmailRuns(fork, starter, batch.emailRuns);
    if (batch.events < BATCH) break;
  }
  return { events, started };
}

/** Starts workflows for deliveries committed more than `graceMs` ago but never confirmed started. */
export async function restartUnstartedDeliveries(fork: () => EntityManager, starter: OutboxWorkflowStarter, graceMs: number): Promise<number> {
  const before = new Date(Date.now() - graceMs);
  return (await startDeliveries(fork, starter, await unstartedDeliveries(fork(), before))) + (await startEmailRuns(fork, starter, await unstartedEmailRuns(fork(), before)));
}
