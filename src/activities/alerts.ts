import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Orm } from '../db/orm';
import type { AlertAction } from '../domain/alerting/alert-message';
import type { EscalationStep } from '../domain/alerting/escalation';
import type { VendorEndpoints } from '../domain/alerting/channel-formats';
import type { Mailer, WebhookPoster } from '../usecases/shared/ports';
import type { SecretBox } from '../crypto/secret-box';
import { alertMessage, testMessage } from '../usecases/alerting/alert-message';
import { type SendSpec, planStepSends, prepareSend, recordSendAttempt, toldTargets } from '../usecases/alerting/sends';
import {
  type AlertChange,
  type AlertEvaluation,
  type AlertSubjectRef,
  evaluateAlert,
  openAlert,
  recordAlertChange,
} from '../usecases/alerting/alert-store';
import { sendToTarget } from '../usecases/alerting/channel-sender';
import { sweepPolledRules } from '../usecases/alerting/alert-sweep';
import type { OutboxWorkflowStarter } from '../usecases/events/ports';
import { markAlertSignalsSent } from '../usecases/events/workflow-starts';

export interface AlertDeps {
  box: SecretBox;
  mailer: Mailer | null;
  endpoints: VendorEndpoints;
  timeoutMs: number;
  /** Posts to channels' addresses: public ones only, except those WEBHOOK_ALLOW_CIDRS names. */
  poster: WebhookPoster;
  publicBaseUrl: string;
  linkKey: Buffer;
  /** ALERT_MINUTE_MS. */
  minuteMs: number;
  /** Signals alert workflows (the minute's sweep of polled rules); without it the outbox sweep sends the stored signals. */
  starter?: OutboxWorkflowStarter;
}

/** How many tries a notification gets (the workflow's retry policy allows as many; the last one records the failure). */
export const SEND_ATTEMPTS = 6;

export interface DeliverInput {
  organizationId: string;
  alertId: string | null;
  spec: SendSpec;
  /** The test action sends one attempt and reports it. */
  test?: { channelId: string };
  actor?: string | null;
}

export interface DeliverResult {
  sendId: string;
  state: string;
  statusCode: number | null;
  error: string | null;
  response: string | null;
  latencyMs: number;
}

export function createAlertActivities(deps: { orm: Orm; alerts?: AlertDeps }) {
  const em = () => deps.orm.em.fork();
  const alerts = (): AlertDeps => {
    if (!deps.alerts)
      throw ApplicationFailure.nonRetryable(
        'This worker was started without alert notifications configured',
        'not_configured',
      );
    return deps.alerts;
  };
  return {
    async evaluateAlert(ref: AlertSubjectRef): Promise<AlertEvaluation> {
      return evaluateAlert(em(), ref, new Date(), alerts().minuteMs);
    },
    async openAlert(input: {
      ref: AlertSubjectRef;
      evaluation: AlertEvaluation;
    }): Promise<{ alertId: string; created: boolean }> {
      return openAlert(em(), input.ref, input.evaluation, new Date());
    },
    async recordAlertChange(input: { alertId: string; change: AlertChange }): Promise<{ state: string }> {
      const view = await recordAlertChange(em(), input.alertId, input.change, new Date());
      return { state: view.state };
    },
    /** The sends of one escalation step, resolved now (who is on call now). */
    async planAlertStep(input: {
      organizationId: string;
      alertId: string;
      step: EscalationStep;
      action: AlertAction;
      round?: number;
    }) {
      return planStepSends(
        em(),
        input.organizationId,
        input.alertId,
        input.step,
        input.action,
        input.round ?? 0,
        new Date(),
      );
    },
    /** Everyone the alert told, to tell of its acknowledgement or resolution. */
    async planToldTargets(input: { alertId: string; action: AlertAction; round: number }): Promise<SendSpec[]> {
      return toldTargets(em(), input.alertId, input.action, input.round);
    },
    /** The minute's pass over rules no event announces (agents, locations, SLO burn, statements in review); idempotent. */
    async sweepAlertRules(): Promise<{ signals: number; sent: number }> {
      const a = alerts();
      const refs = await sweepPolledRules(em(), new Date());
      const sent = refs.length && a.starter?.signalAlerts ? await a.starter.signalAlerts(refs) : [];
      await markAlertSignalsSent(em(), sent, new Date());
      return { signals: refs.length, sent: sent.length };
    },
    /**
     * One message to one channel or person, recorded as a send with its attempts. Idempotent by
     * the send's key: a send already delivered is not sent again (a retry after a crash between
     * the receiver's answer and the record can still repeat it once: receivers deduplicate on
     * `dedup_key`/`alias`/`webhook-id`, chats may show it twice). A retryable failure throws, so
     * Temporal retries with backoff; the last attempt records the failure and returns.
     */
    async deliverAlertNotification(input: DeliverInput): Promise<DeliverResult> {
      const a = alerts();
      const now = new Date();
      const prep = await prepareSend(em(), input.organizationId, input.alertId, input.spec, now);
      if (prep.state !== 'pending')
        return { sendId: prep.sendId, state: prep.state, statusCode: null, error: null, response: null, latencyMs: 0 };
      const attemptNumber = Math.max(prep.attempt, Context.current().info.attempt);
      const message = input.test
        ? await testMessage(em(), a, input.test.channelId, now)
        : await alertMessage(
            em(),
            a,
            input.alertId!,
            input.spec,
            input.spec.action as AlertAction,
            input.spec.level,
            input.actor ?? null,
            now,
          );
      const outcome = prep.target
        ? await sendToTarget(
            { box: a.box, poster: a.poster, mailer: a.mailer, endpoints: a.endpoints, timeoutMs: a.timeoutMs },
            prep.target,
            message,
            `vigil-${prep.sendId}`,
          )
        : {
            statusCode: null,
            latencyMs: 0,
            error: 'channel_deleted: the channel was deleted',
            response: null,
            verdict: 'failed' as const,
          };
      const final = outcome.verdict !== 'retry' || input.test !== undefined || attemptNumber >= SEND_ATTEMPTS;
      const state = await recordSendAttempt(em(), prep.sendId, {
        number: attemptNumber,
        attemptedAt: now,
        statusCode: outcome.statusCode,
        latencyMs: outcome.latencyMs,
        error: outcome.error,
        response: outcome.response,
        succeeded: outcome.verdict === 'delivered',
        final,
      });
      if (!final)
        throw ApplicationFailure.retryable(outcome.error ?? `HTTP ${outcome.statusCode}`, 'notification_retry');
      return {
        sendId: prep.sendId,
        state,
        statusCode: outcome.statusCode,
        error: outcome.error,
        response: outcome.response,
        latencyMs: outcome.latencyMs,
      };
    },
  };
}
