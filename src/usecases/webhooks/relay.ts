import type { EntityManager } from '@mikro-orm/postgresql';
import type { WebhookStarter } from '../../temporal/webhook-starter';
import type { DeliveryRef, EmailRunRef } from './deliveries';
import { dispatchOutbox } from '../../db/repositories/outbox-repository';
import { markDeliveriesStarted, markEmailRunsStarted, unstartedDeliveries, unstartedEmailRuns } from './fan-out';

const BATCH = 500;

async function startAndMark(fork: () => EntityManager, starter: WebhookStarter, deliveries: DeliveryRef[]): Promise<number> {
  if (!deliveries.length) return 0;
  const started = await starter.start(deliveries);
  await markDeliveriesStarted(fork(), started, new Date());
  return started.length;
}

async function startEmailRuns(fork: () => EntityManager, starter: WebhookStarter, runs: EmailRunRef[]): Promise<number> {
  if (!runs.length || !starter.startEmailRuns) return 0;
  const started = await starter.startEmailRuns(runs);
  await markEmailRunsStarted(fork(), started, new Date());
  return started.length;
}

/**
 * Drains the outbox: fans every undispatched event out to webhook deliveries and subscriber-email
 * runs and starts their workflows. Email runs a starter without email cannot start wait for the
 * outbox sweep of a worker that can (restartUnstartedDeliveries).
 */
export async function relayOutbox(fork: () => EntityManager, starter: WebhookStarter): Promise<{ events: number; started: number }> {
  let events = 0;
  let started = 0;
  for (;;) {
    const batch = await dispatchOutbox(fork(), new Date(), BATCH);
    events += batch.events;
    started += await startAndMark(fork, starter, batch.deliveries);
    started += await startEmailRuns(fork, starter, batch.emailRuns);
    if (batch.events < BATCH) break;
  }
  return { events, started };
}

/** Starts workflows for deliveries committed more than `graceMs` ago but never confirmed started. */
export async function restartUnstartedDeliveries(fork: () => EntityManager, starter: WebhookStarter, graceMs: number): Promise<number> {
  const before = new Date(Date.now() - graceMs);
  return (await startAndMark(fork, starter, await unstartedDeliveries(fork(), before))) + (await startEmailRuns(fork, starter, await unstartedEmailRuns(fork(), before)));
}
