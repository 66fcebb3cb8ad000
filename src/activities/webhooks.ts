import { ApplicationFailure } from '@temporalio/activity';
import type { Orm } from '../db/orm';
import type { OutboxWorkflowStarter } from '../usecases/events/ports';
import {
  type AttemptDeps,
  type AttemptInput,
  type AttemptOutcome,
  attemptDelivery,
} from '../usecases/webhooks/attempts';
import { relayOutbox, restartUnstartedDeliveries } from '../usecases/events/relay';

export type { AttemptInput, AttemptOutcome };

export interface WebhookDeps extends AttemptDeps {
  starter: OutboxWorkflowStarter;
}

export function createWebhookActivities(deps: { orm: Orm; webhooks?: WebhookDeps }) {
  const em = () => deps.orm.em.fork();
  const webhooks = (): WebhookDeps => {
    if (!deps.webhooks)
      throw ApplicationFailure.nonRetryable(
        'This worker was started without webhook delivery configured',
        'not_configured',
      );
    return deps.webhooks;
  };
  return {
    /** One signed POST, recorded; answers when to try again. */
    async attemptWebhookDelivery(input: AttemptInput): Promise<AttemptOutcome> {
      return attemptDelivery(em, webhooks(), input);
    },
    /** Idempotent: dispatching takes only undispatched events; starting a delivery twice is refused by Temporal. */
    async sweepWebhookOutbox(): Promise<{ events: number; started: number }> {
      const w = webhooks();
      const relayed = await relayOutbox(em, w.starter);
      // A relay confirms starts right after committing; 30 s without a confirmation means it died in between.
      const restarted = await restartUnstartedDeliveries(em, w.starter, 30_000);
      return { events: relayed.events, started: relayed.started + restarted };
    },
  };
}
