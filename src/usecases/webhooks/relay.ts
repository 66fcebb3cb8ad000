import type { EntityManager } from '@mikro-orm/postgresql';
import type { WebhookStarter } from '../../temporal/webhook-starter';
import type { DeliveryRef } from './deliveries';
import { dispatchOutbox, markDeliveriesStarted, unstartedDeliveries } from './fan-out';

const BATCH = 500;

async function startAndMark(fork: () => EntityManager, starter: WebhookStarter, deliveries: DeliveryRef[]): Promise<number> {
  if (!deliveries.length) return 0;
  const started = await starter.start(deliveries);
  await markDeliveriesStarted(fork(), started, new Date());
  return started.length;
}

/** Drains the outbox: fans every undispatched event out to deliveries and starts their workflows. */
export async function relayOutbox(fork: () => EntityManager, starter: WebhookStarter): Promise<{ events: number; started: number }> {
  let events = 0;
  let started = 0;
  for (;;) {
    const batch = await dispatchOutbox(fork(), new Date(), BATCH);
    events += batch.events;
    started += await startAndMark(fork, starter, batch.deliveries);
    if (batch.events < BATCH) return { events, started };
  }
}

/** Starts workflows for deliveries committed more than `graceMs` ago but never confirmed started. */
export async function restartUnstartedDeliveries(fork: () => EntityManager, starter: WebhookStarter, graceMs: number): Promise<number> {
  return startAndMark(fork, starter, await unstartedDeliveries(fork(), new Date(Date.now() - graceMs)));
}
