import type { EntityManager } from '@mikro-orm/postgresql';
import {
  IncidentSchema,
  MaintenanceSchema,
  NotificationRunSchema,
  OutboxEventSchema,
  type OutboxEvent,
  StatusPageSchema,
  SubscriberEmailSchema,
  SubscriberSchema,
} from '../../db/entities';
import { insertPendingEmails } from '../../db/repositories/status-page-repository';
import { confirmationEmail, notificationEmail, type NotificationEvent, type RenderedEmail } from '../../render/emails';
import { CONFIRMATION_EVENT, EMAIL_MAX_ATTEMPTS, emailRetryDelayMs } from '../../domain/status-page/notify-events';
import { signLinkToken } from '../../crypto/signed-links';
import { type StatusSite, pageBaseUrl } from '../../domain/status-page/site';
import { isPermanentMailError } from '../../domain/mail-errors';
import type { Mailer } from '../shared/ports';
import type { IncidentView } from '../incidents/view';
import { pageServiceIds } from '../shared/page-coverage';
import { CONFIRMATION_TTL_MS } from './subscribers';

export interface EmailDeps {
  mailer: Mailer;
  linkKey: Buffer;
  site: StatusSite;
  /** First retry delay of a failed send (doubling per attempt); default 30 s. */
  retryBaseMs?: number;
  /** Development: with the folder mailer, confirmation links are logged too. */
  log?: (line: string) => void;
}

const overlaps = (a: readonly string[], b: readonly string[]) => a.some((x) => b.includes(x));

/**
 * Whether an incident event is worth an email: the incident must still be published and not
 * deleted, and a message posted in the same change as the publish or resolve it belongs to is
 * already in that email (one email per change, not two). An update the operator chose not to
 * email owes none.
 */
function incidentNoticeDue(
  e: OutboxEvent,
  incident: { publishedAt?: Date | null; resolvedAt?: Date | null; deletedAt?: Date | null },
): boolean {
  if (!incident.publishedAt || incident.deletedAt) return false;
  const payload = e.payload as IncidentView;
  // A message posted with notify_subscribers false silences the change it belongs to
  // (its message_added, and the publish or resolve it made), not later ones.
  const at = e.createdAt.toISOString();
  if (payload.messages?.some((m) => m.posted_at === at && m.notify_subscribers === false)) return false;
  if (e.type !== 'incident.message_added') return true;
  const latest = payload.messages?.reduce<string | null>(
    (m, x) => (m === null || x.posted_at > m ? x.posted_at : m),
    null,
  );
  return !(latest && (latest === payload.published_at || latest === payload.resolved_at));
}

/**
 * Writes one pending email per confirmed subscriber the event concerns (idempotent: rows that
 * exist stay). Subscribers concerned: of live pages showing an affected service (or any page
 * of the organization when none is named), who chose those services or everything; for a
 * customer-scoped incident, only subscribers of those customers.
 */
export async function planEmails(em: EntityManager, eventId: string, now: Date): Promise<{ recipients: number }> {
  const e = await em.findOne(OutboxEventSchema, eventId);
  if (!e) return { recipients: 0 };
  let subscriberIds: string[] = [];
  if (e.type === CONFIRMATION_EVENT) {
    const s = await em.findOne(SubscriberSchema, { id: e.resourceId, state: 'pending' }, { fields: ['id'] });
    subscriberIds = s ? [s.id] : [];
  } else {
    let affected: string[];
    let customers: string[] = [];
    if (e.resourceKind === 'incident') {
      const i = await em.findOne(IncidentSchema, e.resourceId);
      if (!i || !incidentNoticeDue(e, i)) return { recipients: 0 };
      affected = i.affectedServices;
      customers = i.visibleToCustomerIds;
    } else {
      const m = await em.findOne(MaintenanceSchema, e.resourceId);
      if (!m || m.deletedAt) return { recipients: 0 };
      // An update posted with notify_subscribers: false still reaches webhooks, never subscribers.
      if ((e.payload as { message?: { notify_subscribers?: boolean | null } }).message?.notify_subscribers === false)
        return { recipients: 0 };
      affected = m.affectedServices;
    }
    const pages = await em.find(StatusPageSchema, { organization: e.organization, deletedAt: null });
    const concerned: string[] = [];
    for (const p of pages)
      if (!affected.length || overlaps(await pageServiceIds(em, p), affected)) concerned.push(p.id);
    if (!concerned.length) return { recipients: 0 };
    const subs = await em.find(
      SubscriberSchema,
      { page: { $in: concerned }, state: 'confirmed' },
      { fields: ['id', 'components', 'customer'] },
    );
    subscriberIds = subs
      .filter((s) => !affected.length || !s.components.length || overlaps(s.components, affected))
      .filter(
        (s) => !customers.length || (s.customer !== null && s.customer !== undefined && customers.includes(s.customer)),
      )
      .map((s) => s.id);
  }
  await insertPendingEmails(em, { organizationId: e.organization, eventId: e.id, subscriberIds, now });
  return { recipients: subscriberIds.length };
}

function noticeOf(e: OutboxEvent, url: string): NotificationEvent | null {
  const p = e.payload as Record<string, unknown>;
  if (e.resourceKind === 'incident') {
    const v = p as unknown as IncidentView;
    const latest = [...(v.messages ?? [])].sort((a, b) => (a.posted_at < b.posted_at ? 1 : -1))[0];
    return {
      kind: 'incident',
      type: e.type as 'incident.published',
      title: v.title,
      severity: v.severity,
      message: latest ? { type: latest.type, body: latest.body, posted_at: new Date(latest.posted_at) } : null,
      url: `${url}/incidents/${v.id}`,
    };
  }
  if (e.resourceKind === 'maintenance') {
    const message = p.message as { body: string; posted_at: string } | undefined;
    return {
      kind: 'maintenance',
      type: e.type as 'maintenance.scheduled',
      title: String(p.title),
      description: (p.description as string | null) ?? null,
      scheduled_start_at: new Date(String(p.scheduled_start_at)),
      scheduled_end_at: new Date(String(p.scheduled_end_at)),
      message: message ? { body: message.body, posted_at: new Date(message.posted_at) } : null,
      url: `${url}/maintenances/${String(p.id)}`,
    };
  }
  return null;
}

export interface BatchOutcome {
  sent: number;
  failed: number;
  skipped: number;
  /** Emails still owed (due now or later). */
  pending: number;
  /** When the next owed email is due, in ms from now; null when none is owed. */
  nextDueInMs: number | null;
}

/**
 * Sends up to `limit` due emails of one event and records each outcome. A failed send is
 * retried later with backoff, up to EMAIL_MAX_ATTEMPTS; an address the server refuses for good
 * fails at once. A subscriber who left meanwhile is skipped.
 */
export async function sendEmailBatch(
  em: EntityManager,
  deps: EmailDeps,
  eventId: string,
  limit: number,
  now: Date,
): Promise<BatchOutcome> {
  const out: BatchOutcome = { sent: 0, failed: 0, skipped: 0, pending: 0, nextDueInMs: null };
  const e = await em.findOne(OutboxEventSchema, eventId);
  const due = e
    ? await em.find(
        SubscriberEmailSchema,
        { event: eventId, state: 'pending', nextAttemptAt: { $lte: now } },
        { orderBy: { createdAt: 'asc', id: 'asc' }, limit },
      )
    : [];
  const subs = due.length ? await em.find(SubscriberSchema, { id: { $in: due.map((d) => d.subscriber) } }) : [];
  const pages = subs.length
    ? await em.find(StatusPageSchema, { id: { $in: [...new Set(subs.map((s) => s.page))] }, deletedAt: null })
    : [];
  for (const row of due) {
    const s = subs.find((x) => x.id === row.subscriber);
    const page = s && pages.find((p) => p.id === s.page);
    const wanted = e!.type === CONFIRMATION_EVENT ? 'pending' : 'confirmed';
    if (!s || !page || s.state !== wanted) {
      row.state = 'skipped';
      out.skipped++;
      continue;
    }
    const url = pageBaseUrl(deps.site, page.subdomain);
    const unsubscribeUrl = `${url}/unsubscribe?token=${signLinkToken(deps.linkKey, { purpose: 'unsubscribe', subscriberId: s.id, expiresAtMs: null })}`;
    let mail: RenderedEmail | null;
    if (e!.type === CONFIRMATION_EVENT) {
      const expiresAt = new Date(now.getTime() + CONFIRMATION_TTL_MS);
      const confirmUrl = `${url}/confirm?token=${signLinkToken(deps.linkKey, { purpose: 'confirm', subscriberId: s.id, expiresAtMs: expiresAt.getTime() })}`;
      mail = confirmationEmail({ pageTitle: page.title, pageUrl: url, confirmUrl, unsubscribeUrl, expiresAt });
      if (deps.mailer.kind === 'folder') deps.log?.(`confirmation link for ${s.email}: ${confirmUrl}`);
    } else {
      const notice = noticeOf(e!, url);
      mail = notice
        ? notificationEmail({
            pageTitle: page.title,
            pageUrl: url,
            unsubscribeUrl,
            timeZone: page.timeZone,
            event: notice,
          })
        : null;
    }
    if (!mail) {
      row.state = 'skipped';
      out.skipped++;
      continue;
    }
    row.attempts += 1;
    try {
      const { messageId } = await deps.mailer.send({ to: s.email, ...mail, listUnsubscribe: { url: unsubscribeUrl } });
      row.state = 'sent';
      row.messageId = messageId;
      row.sentAt = new Date(); // when it went out, not when the batch began
      row.lastError = null;
      out.sent++;
    } catch (err) {
      row.lastError = (err as Error).message.slice(0, 1000);
      if (isPermanentMailError(err) || row.attempts >= EMAIL_MAX_ATTEMPTS) {
        row.state = 'failed';
        out.failed++;
      } else {
        row.nextAttemptAt = new Date(now.getTime() + emailRetryDelayMs(row.attempts, deps.retryBaseMs));
      }
    }
    // Record each outcome as it happens, so a crash mid-batch never re-sends what went out.
    await em.flush();
  }
  await em.flush();
  out.pending = await em.count(SubscriberEmailSchema, { event: eventId, state: 'pending' });
  const next = out.pending
    ? await em.findOne(
        SubscriberEmailSchema,
        { event: eventId, state: 'pending' },
        { fields: ['nextAttemptAt'], orderBy: { nextAttemptAt: 'asc' } },
      )
    : null;
  if (next) out.nextDueInMs = Math.max(0, next.nextAttemptAt.getTime() - now.getTime());
  return out;
}

/** Marks the event's email run finished (the sweep leaves it alone from then on). */
export async function completeEmailRun(em: EntityManager, eventId: string, now: Date): Promise<void> {
  await em.nativeUpdate(NotificationRunSchema, { event: eventId, completedAt: null }, { completedAt: now });
}
