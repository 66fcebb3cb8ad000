import path from 'node:path';
import { type Config, ConfigError } from '../config';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from '../domain/webhook-retry';
import { createMailer } from '../infra/mailer';
import { resolveMasterKey } from '../infra/master-key';
import { SecretBox } from '../crypto/secret-box';
import { deriveLinkKey } from '../crypto/signed-links';
import type { EmailDeps } from '../usecases/status-pages/notifications';
import { tzDataVersion } from '../domain/sla/period';
import type { DocumentLinks } from '../usecases/sla/documents';
import type { StatementSigner } from '../usecases/sla/statements';
import type { SlaTimings } from '../workflows/sla-statement-workflow';

/** The runtime adapters and policies the configuration selects, built for the composition roots. */

/** The backoff webhook deliveries follow (README: WEBHOOK_RETRY_*). */
export function webhookRetryPolicy(c: Config): RetryPolicy {
  return {
    initialMs: c.WEBHOOK_RETRY_INITIAL_MS,
    factor: DEFAULT_RETRY_POLICY.factor,
    maxMs: c.WEBHOOK_RETRY_MAX_MS,
    giveUpAfterMs: c.WEBHOOK_RETRY_GIVE_UP_MS,
  };
}

/** VIGIL_MASTER_KEY, or `<data dir>/master.key` outside production. */
function masterKey(c: Config): Buffer {
  return resolveMasterKey({ env: c.VIGIL_MASTER_KEY, nodeEnv: c.NODE_ENV, dataDir: c.dataDir });
}

/** Signs subscribers' confirm and unsubscribe links (HKDF of the master key). */
export function subscriberLinkKey(c: Config): Buffer {
  return deriveLinkKey(masterKey(c));
}

/** Signs alert notifications' one-click acknowledge/resolve links (HKDF of the master key, its own label). */
export function alertLinkKey(c: Config): Buffer {
  return deriveLinkKey(masterKey(c), 'vigil/alert-actions/v1');
}

/** Where mail goes while SMTP_URL is unset: MAIL_OUTBOX_DIR, by default `<data dir>/mail-outbox`. */
export function mailOutboxDir(c: Pick<Config, 'MAIL_OUTBOX_DIR' | 'dataDir'>): string {
  return c.MAIL_OUTBOX_DIR ? path.resolve(c.MAIL_OUTBOX_DIR) : path.join(c.dataDir, 'mail-outbox');
}

/**
 * Where subscriber email goes: SMTP_URL, or (unset) `.eml` files in mailOutboxDir. In production
 * the folder only on purpose (MAIL_OUTBOX_DIR set): otherwise mail would be marked sent and lost.
 */
export function emailDeps(c: Config, log?: (line: string) => void): EmailDeps {
  if (c.NODE_ENV === 'production' && !c.SMTP_URL && !c.MAIL_OUTBOX_DIR) {
    throw new ConfigError(
      'SMTP_URL is required in production (or set MAIL_OUTBOX_DIR to write subscriber email to a folder on purpose)',
    );
  }
  return {
    mailer: createMailer({ smtpUrl: c.SMTP_URL ?? null, from: c.MAIL_FROM, outboxDir: mailOutboxDir(c), log }),
    linkKey: subscriberLinkKey(c),
    site: { statusHost: c.STATUS_HOST, publicBaseUrl: c.publicBaseUrl },
    log,
  };
}

/** Seals and opens secrets at rest with the master key (VIGIL_MASTER_KEY, or `<data dir>/master.key` outside production). */
export function secretBox(c: Config): SecretBox {
  return new SecretBox(masterKey(c));
}

/** Review reminders, escalation and the correction window of SLA statement workflows (SLA_* settings). */
export function slaTimings(c: Config): SlaTimings {
  return {
    reminderAfterMs: c.SLA_REVIEW_REMINDER_MS,
    escalateAfterMs: c.SLA_REVIEW_ESCALATION_MS,
    correctionWindowMs: c.SLA_CORRECTION_WINDOW_MS,
  };
}

/**
 * Where statements point their readers for verification: both served by this service itself
 * (public, no key), so the links in a delivered statement answer as long as the service does.
 */
export function slaLinks(c: Pick<Config, 'publicBaseUrl'>): DocumentLinks {
  return {
    jwksUrl: `${c.publicBaseUrl}/.well-known/jwks.json`,
    verifyDocsUrl: `${c.publicBaseUrl}/docs/sla-verification`,
  };
}

/** Signs statements with the sealed keys; records the runtime's tz data version in each. */
export function statementSigner(c: Config): StatementSigner {
  return { box: secretBox(c), tzDataVersion: tzDataVersion(process.versions.tz) };
}
