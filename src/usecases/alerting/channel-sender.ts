import type { AlertMessage, ChannelRequest } from '../../domain/alerting/alert-message';
import { type VendorEndpoints, channelRequest } from '../../domain/alerting/channel-formats';
import { isVendorChannelType } from '../../domain/alerting/channel-types';
import { emailMessage } from '../../domain/alerting/channel-formats/email';
import { isPermanentMailError } from '../../domain/mail-errors';
import type { Mailer, PostResult, WebhookPoster } from '../shared/ports';
import { verdictForStatus } from '../../domain/webhook-retry';
import type { SecretBox } from '../../crypto/secret-box';
import { standardWebhookHeaders } from '../../crypto/webhook-signing';
import { type ChannelSecret, openChannelSecret } from './channel-secrets';

export interface SenderDeps {
  box: SecretBox;
  poster: WebhookPoster;
  mailer: Mailer | null;
  endpoints: VendorEndpoints;
  timeoutMs: number;
}

/** Where one send goes: a channel (its type, shown settings and sealed secret), or a console user's address. */
export type SendTarget =
  | { kind: 'channel'; type: string; settings: Record<string, unknown>; sealedSecret: string | null }
  | { kind: 'user'; email: string };

export interface SendOutcome extends Omit<PostResult, 'retryAfter'> {
  /** delivered; retry (the network or a 5xx/429/408: try again); failed (refused for good: a 4xx, a refused address, a bad setting). */
  verdict: 'delivered' | 'retry' | 'failed';
}

/** How much of a receiver's answer a send keeps (and "send test" shows). */
const RESPONSE_EXCERPT_CHARS = 1_000;

/** Sends one message to one target; never throws for what the receiver or the network did. */
export async function sendToTarget(
  deps: SenderDeps,
  target: SendTarget,
  msg: AlertMessage,
  messageId: string,
): Promise<SendOutcome> {
  if (target.kind === 'user') return sendEmail(deps, [target.email], msg, messageId);
  if (target.type === 'email')
    return sendEmail(deps, ((target.settings.addresses as string[] | undefined) ?? []).slice(), msg, messageId);
  let secret: ChannelSecret;
  try {
    secret = openChannelSecret(deps.box, target.sealedSecret);
  } catch {
    return failed('sealed_secret_unreadable: the channel secret cannot be opened with this master key');
  }
  let request: ChannelRequest;
  try {
    request =
      target.type === 'webhook'
        ? webhookRequest(secret, msg, messageId)
        : isVendorChannelType(target.type)
          ? channelRequest(
              target.type,
              { ...secret, region: target.settings.region === 'eu' ? 'eu' : 'us' },
              msg,
              channelEndpoints(deps.endpoints, target.settings),
            )
          : (() => {
              throw new Error(`unknown channel type ${target.type}`);
            })();
  } catch (err) {
    return failed(`invalid_channel: ${(err as Error).message}`);
  }
  const r = await deps.poster.post(
    request.url,
    { 'user-agent': 'Vigil-Alerts/1.0', ...request.headers },
    request.body,
    deps.timeoutMs,
    RESPONSE_EXCERPT_CHARS,
  );
  return { ...r, verdict: verdictOf(r) };
}

/** What an answer means for a send: the webhooks' rule (2xx delivered; 408, 429 and 5xx retried; other statuses final); a refused address is final. */
function verdictOf(r: PostResult): SendOutcome['verdict'] {
  if (r.error?.startsWith('target_not_public:')) return 'failed';
  if (r.statusCode === null) return 'retry';
  const v = verdictForStatus(r.statusCode);
  return v === 'succeeded' ? 'delivered' : v === 'retry' ? 'retry' : 'failed';
}

function failed(error: string): SendOutcome {
  return { statusCode: null, latencyMs: 0, error, response: null, verdict: 'failed' };
}

/** The generic webhook channel: the alert message as JSON, signed the Standard Webhooks way with the channel's own secret. */
function webhookRequest(secret: ChannelSecret, msg: AlertMessage, messageId: string): ChannelRequest {
  if (!secret.url || !secret.signing_secret) throw new Error('a webhook channel needs url and signing_secret');
  const now = Math.floor(Date.now() / 1000);
  const body = JSON.stringify({
    id: messageId,
    type: `alert.notification`,
    created_at: new Date(now * 1000).toISOString(),
    data: messagePayload(msg),
  });
  return {
    method: 'POST',
    url: secret.url,
    headers: standardWebhookHeaders([secret.signing_secret], messageId, now, body),
    body,
  };
}

function messagePayload(msg: AlertMessage) {
  return {
    action: msg.action,
    alert_id: msg.alertId,
    dedup_key: msg.dedupKey,
    title: msg.title,
    summary: msg.summary,
    severity: msg.severity,
    status: msg.status,
    subject: msg.subject,
    metric: msg.metric,
    level: msg.level,
    organization: msg.organization,
    occurred_at: msg.occurredAt,
    actor: msg.actor,
    links: msg.links,
  };
}

async function sendEmail(deps: SenderDeps, to: string[], msg: AlertMessage, messageId: string): Promise<SendOutcome> {
  if (!deps.mailer) return failed('not_configured: this worker has no mailer');
  if (!to.length) return failed('invalid_channel: no addresses');
  const mail = emailMessage(msg);
  const started = performance.now();
  try {
    await deps.mailer.send({
      to: to.join(', '),
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      messageId,
      headers: { 'X-Vigil-Alert': msg.alertId },
    });
    return {
      statusCode: 250,
      latencyMs: Math.round(performance.now() - started),
      error: null,
      response: null,
      verdict: 'delivered',
    };
  } catch (err) {
    const e = err as { responseCode?: number; code?: string; message?: string };
    return {
      statusCode: typeof e.responseCode === 'number' ? e.responseCode : null,
      latencyMs: Math.round(performance.now() - started),
      error: `${e.code ?? 'smtp_error'}: ${e.message ?? 'send failed'}`.slice(0, 500),
      response: null,
      verdict: isPermanentMailError(err) ? 'failed' : 'retry',
    };
  }
}

/** The worker's vendor endpoints, except where the channel names its own (`settings.api_url`). */
function channelEndpoints(defaults: VendorEndpoints, settings: Record<string, unknown>): VendorEndpoints {
  const own = typeof settings.api_url === 'string' && settings.api_url !== '' ? settings.api_url : null;
  return own ? { pagerdutyEventsUrl: own, opsgenieApiUrl: own, opsgenieEuApiUrl: own } : defaults;
}
