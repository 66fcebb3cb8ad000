import { ApplicationFailure } from '@temporalio/activity';
import type { Orm } from '../db/orm';
import { type RetryPolicy, parseRetryAfter, retryDelayMs, verdictForStatus } from '../domain/webhook-retry';
import type { SecretBox } from '../infra/secret-box';
import { postWebhook, publicOnlyTransport } from '../infra/webhook-http';
import { signWebhook } from '../infra/webhook-signing';
import type { OutboxWorkflowStarter } from '../usecases/events/ports';
import { prepareAttempt, recordAttempt } from '../usecases/webhooks/attempts';
import { relayOutbox, restartUnstartedDeliveries } from '../usecases/events/relay';

export interface WebhookDeps {
  box: SecretBox;
  starter: OutboxWorkflowStarter;
  /** Longest wait for a receiver's answer. */
  timeoutMs: number;
  /** WEBHOOK_ALLOW_CIDRS: receivers allowed although not public (tests, development); empty by default. */
  allowCidrs?: string;
}

export interface AttemptInput {
  deliveryId: string;
  /** 1-based; the same number on an activity retry overwrites that attempt's record. */
  attempt: number;
  policy: RetryPolicy;
  /** Since the first attempt started. */
  elapsedMs: number;
  /** [0, 1): spreads retries. */
  jitter: number;
}

export interface AttemptOutcome {
  state: string;
  /** How long to wait before the next attempt; null when the delivery is finished. */
  retryInMs: number | null;
}

export function createWebhookActivities(deps: { orm: Orm; webhooks?: WebhookDeps }) {
  const em = () => deps.orm.em.fork();
  const transport = publicOnlyTransport(deps.webhooks?.allowCidrs);
  const webhooks = (): WebhookDeps => {
    if (!deps.webhooks)
      throw ApplicationFailure.nonRetryable(
        'This worker was started without webhook delivery configured',
        'not_configured',
      );
    return deps.webhooks;
  };
  return {
    /** One signed POST, recorded; answers when to try again. Receivers deduplicate on `webhook-id`. */
    async attemptWebhookDelivery(input: AttemptInput): Promise<AttemptOutcome> {
      const w = webhooks();
      const prep = await prepareAttempt(em(), w.box, input.deliveryId, new Date());
      if ('finished' in prep) return { state: prep.finished, retryInMs: null };
      const { url, messageId, body, secrets } = prep.send;
      const attemptedAt = new Date();
      const timestamp = Math.floor(attemptedAt.getTime() / 1000);
      const headers = {
        'content-type': 'application/json',
        'user-agent': 'Vigil-Webhooks/1.0',
        'webhook-id': messageId,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signWebhook(secrets, messageId, timestamp, body),
      };
      const r = await postWebhook(transport, url, headers, body, w.timeoutMs);
      // A refused receiver address stays refused: no point retrying it for a day.
      const verdict = r.error?.startsWith('target_not_public:')
        ? 'give_up'
        : r.statusCode === null
          ? 'retry'
          : verdictForStatus(r.statusCode);
      const retryInMs =
        verdict === 'retry'
          ? retryDelayMs(
              input.policy,
              input.attempt,
              input.elapsedMs + r.latencyMs,
              input.jitter,
              parseRetryAfter(r.retryAfter, Date.now()),
            )
          : null;
      const state = await recordAttempt(em(), input.deliveryId, {
        number: input.attempt,
        attemptedAt,
        statusCode: r.statusCode,
        latencyMs: r.latencyMs,
        error: r.error ?? (verdict === 'succeeded' ? null : `HTTP ${r.statusCode}`),
        succeeded: verdict === 'succeeded',
        nextAttemptAt: retryInMs === null ? null : new Date(Date.now() + retryInMs),
      });
      return { state, retryInMs };
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
