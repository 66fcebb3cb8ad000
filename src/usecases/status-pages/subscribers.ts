import { createHash, randomUUID } from 'node:crypto';
import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { type StatusPage, StatusPageSchema, type Subscriber, SubscriberSchema } from '../../db/entities';
import { countSubscribeRequest } from '../../db/repositories/rate-limit-repository';
import { ProblemError, notFound } from '../../domain/error-catalog';
import { isUuid } from '../../domain/ids';
import { CONFIRMATION_EVENT } from '../../domain/status-page/notify-events';
import { type LinkPurpose, verifyLinkToken } from '../../crypto/signed-links';
import type { OrgContext } from '../shared/context';
import { afterCursor, NEWEST_FIRST } from '../shared/keyset';
import { pageOf } from '../../domain/cursor';
import { recordEvent } from '../events/outbox';
import { pageServiceIds } from '../shared/page-coverage';
import { getStatusPage } from './pages';
import type { Viewer } from './viewer-tokens';

/** A pending address gets at most one confirmation email per this interval, however often it is submitted. */
export const CONFIRMATION_RESEND_MS = 10 * 60_000;
export const CONFIRMATION_TTL_MS = 48 * 3_600_000;

export interface SubscribeLimits {
  perIpPerHour: number;
  perPagePerHour: number;
}

/** A UUID-shaped key for an address, so per-address counters share the counters table. */
function addressKey(ip: string): string {
  const h = createHash('sha256').update(`subscribe-ip:${ip}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

async function assertWithinLimits(
  em: EntityManager,
  page: StatusPage,
  ip: string,
  limits: SubscribeLimits,
  now: Date,
): Promise<void> {
  const hour = new Date(Math.floor(now.getTime() / 3_600_000) * 3_600_000);
  const retryAfter = Math.max(1, Math.ceil((hour.getTime() + 3_600_000 - now.getTime()) / 1000));
  const [byIp, byPage] = await Promise.all([
    countSubscribeRequest(em, addressKey(ip), 'sub_ip', hour),
    countSubscribeRequest(em, page.id, 'sub_page', hour),
  ]);
  if (byIp > limits.perIpPerHour || byPage > limits.perPagePerHour) {
    const which =
      byIp > limits.perIpPerHour
        ? `from this address (${limits.perIpPerHour} per hour)`
        : `to this page (${limits.perPagePerHour} per hour)`;
    throw new ProblemError(
      'subscribe_limited',
      `Too many subscribe requests ${which}; try again later.`,
      { retry_after: retryAfter },
      { 'retry-after': String(retryAfter) },
    );
  }
}

async function assertComponentsOnPage(
  em: EntityManager,
  page: StatusPage,
  components: readonly string[],
  path: string,
): Promise<void> {
  if (!components.length) return;
  const shown = new Set(await pageServiceIds(em, page));
  const errors = components.flatMap((id, i) =>
    shown.has(id) ? [] : [{ path: `${path}.${i}`, message: 'Not a service shown on this page' }],
  );
  if (errors.length)
    throw new ProblemError('validation_failed', 'Subscribers can choose only services the page shows.', { errors });
}

function requestConfirmation(em: EntityManager, s: Subscriber, now: Date): void {
  s.confirmationSentAt = now;
  recordEvent(em, {
    organizationId: s.organization,
    type: CONFIRMATION_EVENT,
    resourceKind: 'subscriber',
    resourceId: s.id,
    payload: { subscriber_id: s.id, page_id: s.page },
    now,
  });
}

/**
 * Public subscribe (double opt-in). The answer is the same whether or not the address was
 * already subscribed; only a new, returning or long-pending address gets a confirmation email.
 */
export async function subscribe(
  em: EntityManager,
  page: StatusPage,
  input: { email: string; components?: string[] },
  meta: { ip: string; viewer: Viewer | null; limits: SubscribeLimits; now: Date },
): Promise<void> {
  await assertWithinLimits(em, page, meta.ip, meta.limits, meta.now);
  const components = [...new Set(input.components ?? [])];
  await assertComponentsOnPage(em, page, components, 'components');
  const email = input.email.trim().toLowerCase();
  try {
    await subscribeOnce(em, page, email, components, meta);
  } catch (err) {
    // The same address subscribing twice at once: the other request created the row and asked for
    // the confirmation; this one gets the same answer.
    if (!(err instanceof UniqueConstraintViolationException)) throw err;
  }
}

async function subscribeOnce(
  em: EntityManager,
  page: StatusPage,
  email: string,
  components: string[],
  meta: { viewer: Viewer | null; now: Date },
): Promise<void> {
  await em.transactional(async (tx) => {
    const existing = await tx.findOne(
      SubscriberSchema,
      { page: page.id, email },
      { lockMode: LockMode.PESSIMISTIC_WRITE },
    );
    const now = meta.now;
    if (!existing) {
      const s = tx.create(SubscriberSchema, {
        id: randomUUID(),
        organization: page.organization,
        page: page.id,
        email,
        components,
        customer: meta.viewer?.customer_id ?? null,
        state: 'pending',
        source: 'form',
        confirmationSentAt: null,
        confirmedAt: null,
        unsubscribedAt: null,
        createdAt: now,
        updatedAt: now,
      });
      requestConfirmation(tx, s, now);
      return;
    }
    if (existing.state === 'confirmed') return;
    const recentlySent =
      existing.state === 'pending' &&
      existing.confirmationSentAt &&
      now.getTime() - existing.confirmationSentAt.getTime() < CONFIRMATION_RESEND_MS;
    if (recentlySent) return;
    existing.state = 'pending';
    existing.components = components;
    if (meta.viewer) existing.customer = meta.viewer.customer_id;
    existing.unsubscribedAt = null;
    existing.updatedAt = now;
    requestConfirmation(tx, existing, now);
  });
}

export type LinkOutcome =
  { ok: true; subscriber: Subscriber; page: StatusPage } | { ok: false; reason: 'invalid' | 'expired' | 'gone' };

/** `pageId`: the page whose host the link was followed on; a link of another page is invalid there. */
async function fromLink(
  em: EntityManager,
  key: Buffer,
  token: string,
  purpose: LinkPurpose,
  now: Date,
  pageId?: string,
): Promise<LinkOutcome> {
  const check = verifyLinkToken(key, token, purpose, now.getTime());
  if (!check.ok) return { ok: false, reason: check.reason === 'expired' ? 'expired' : 'invalid' };
  // Only this service signs links, but a malformed id must not reach the uuid column.
  if (!isUuid(check.subscriberId)) return { ok: false, reason: 'invalid' };
  const subscriber = await em.findOne(SubscriberSchema, { id: check.subscriberId });
  const page = subscriber ? await em.findOne(StatusPageSchema, { id: subscriber.page, deletedAt: null }) : null;
  if (!subscriber || !page) return { ok: false, reason: 'gone' };
  if (pageId !== undefined && page.id !== pageId) return { ok: false, reason: 'invalid' };
  return { ok: true, subscriber, page };
}

/** Looks a link up without changing anything (the GET that shows the confirm or unsubscribe button). */
export const inspectLink = fromLink;

/** Confirms the subscription a link names; on the host of another page (`pageId`) it changes nothing. */
export async function confirmSubscription(
  em: EntityManager,
  key: Buffer,
  token: string,
  now: Date,
  pageId?: string,
): Promise<LinkOutcome> {
  const r = await fromLink(em, key, token, 'confirm', now, pageId);
  if (r.ok && r.subscriber.state !== 'confirmed') {
    r.subscriber.state = 'confirmed';
    r.subscriber.confirmedAt = now;
    r.subscriber.unsubscribedAt = null;
    r.subscriber.updatedAt = now;
    await em.flush();
  }
  return r;
}

/** Ends the subscription a link names; on the host of another page (`pageId`) it changes nothing. */
export async function unsubscribe(
  em: EntityManager,
  key: Buffer,
  token: string,
  now: Date,
  pageId?: string,
): Promise<LinkOutcome> {
  const r = await fromLink(em, key, token, 'unsubscribe', now, pageId);
  if (r.ok && r.subscriber.state !== 'unsubscribed') {
    r.subscriber.state = 'unsubscribed';
    r.subscriber.unsubscribedAt = now;
    r.subscriber.updatedAt = now;
    await em.flush();
  }
  return r;
}

export async function listSubscribers(
  ctx: OrgContext,
  pageId: string,
  q: { limit: number; cursor?: string; state?: string },
) {
  const page = await getStatusPage(ctx, pageId);
  const rows = await ctx.em.find(
    SubscriberSchema,
    { page: page.id, ...(q.state ? { state: q.state } : {}), ...afterCursor(q.cursor) },
    { orderBy: NEWEST_FIRST as never, limit: q.limit + 1 },
  );
  return pageOf(rows as Subscriber[], q.limit);
}

export async function getSubscriber(ctx: OrgContext, pageId: string, id: string): Promise<Subscriber> {
  const page = await getStatusPage(ctx, pageId);
  const s = isUuid(id) ? await ctx.em.findOne(SubscriberSchema, { id, page: page.id }) : null;
  if (!s) throw notFound('Subscriber');
  return s;
}

/** Removes the subscriber and its sending history for good (a data-subject erasure, not a soft delete). */
export async function deleteSubscriber(ctx: OrgContext, pageId: string, id: string): Promise<Subscriber> {
  const s = await getSubscriber(ctx, pageId, id);
  await ctx.em.nativeDelete(SubscriberSchema, { id: s.id });
  return s;
}
