import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  ConsoleUserSchema,
  NotificationAttemptSchema,
  NotificationChannelSchema,
  NotificationSendSchema,
  OnCallScheduleSchema,
} from '../../db/entities';
import { pageOf } from '../../domain/cursor';
import type { OrgContext } from '../shared/context';
import { NEWEST_FIRST, afterCursor } from '../shared/keyset';
import { findLive } from '../shared/org-resources';
import { type SendView, sendView } from './views';
import type { EscalationStep } from '../../domain/alerting/escalation';
import { type ScheduleSpec, onCallAmong } from '../../domain/on-call/schedule';
import type { SendTarget } from './channel-sender';
import { insertSendOnce } from '../../db/repositories/alert-repository';

/** One message the workflow will send: to a channel, or by email to a console user. `key` makes it once-only. */
export interface SendSpec {
  key: string;
  channelId: string | null;
  recipient: string | null;
  action: string;
  level: number;
  /** Shown in the timeline: the channel's name, or who was on call. */
  label: string;
}

export interface SkippedTarget {
  target: string;
  why: string;
}

/** Whether a console user can be paged now: enabled, or why not ("user disabled", "user removed"). */
export type PageableCheck = (email: string) => { ok: true } | { ok: false; why: string };

/**
 * Who of the organization's console users can be paged right now. Policies and schedules are
 * checked when saved, but a user disabled afterwards stays named in them: the check at paging
 * time is the one that counts.
 */
export async function pageableUsers(em: EntityManager, organizationId: string): Promise<PageableCheck> {
  const users = await em.find(ConsoleUserSchema, { organization: organizationId }, { fields: ['email', 'disabledAt'] });
  const byEmail = new Map(users.map((u) => [u.email.toLowerCase(), u]));
  return (email) => {
    const u = byEmail.get(email.toLowerCase());
    if (!u) return { ok: false, why: 'user removed' };
    if (u.disabledAt) return { ok: false, why: 'user disabled' };
    return { ok: true };
  };
}

/**
 * What one escalation step of escalation round `round` sends: each channel once (a disabled or
 * deleted one is skipped and said so), each schedule's on-call user at `now` (someone who can no
 * longer be paged gives way to the layer below, and is said so), each user by email unless
 * disabled or removed; the same channel or address named twice in a step is told once.
 */
export async function planStepSends(
  em: EntityManager,
  organizationId: string,
  alertId: string,
  step: EscalationStep,
  action: string,
  round: number,
  now: Date,
): Promise<{ sends: SendSpec[]; skipped: SkippedTarget[] }> {
  const sends: SendSpec[] = [];
  const skipped: SkippedTarget[] = [];
  const seen = new Set<string>();
  const pageable = await pageableUsers(em, organizationId);
  // The round (a new one after each snooze that ran out) keeps a level told again from looking like a send already made.
  const base = `${alertId}:${round}:${step.pass}:${step.level}:${action}`;
  const addUser = (email: string, label: string) => {
    const address = email.toLowerCase();
    if (seen.has(`user:${address}`)) return;
    seen.add(`user:${address}`);
    sends.push({
      key: `${base}:user:${address}`,
      channelId: null,
      recipient: address,
      action,
      level: step.level,
      label,
    });
  };
  for (const t of step.targets) {
    if (t.type === 'user') {
      const check = pageable(t.email);
      if (check.ok) addUser(t.email, t.email);
      else skipped.push({ target: `user:${t.email.toLowerCase()}`, why: check.why });
    } else if (t.type === 'channel') {
      const c = await em.findOne(NotificationChannelSchema, { id: t.id, organization: organizationId });
      if (!c || c.deletedAt) skipped.push({ target: `channel:${t.id}`, why: 'deleted' });
      else if (c.disabledAt) skipped.push({ target: `channel:${c.name}`, why: 'disabled' });
      else if (!seen.has(`channel:${c.id}`)) {
        seen.add(`channel:${c.id}`);
        sends.push({
          key: `${base}:channel:${c.id}`,
          channelId: c.id,
          recipient: null,
          action,
          level: step.level,
          label: c.name,
        });
      }
    } else {
      const s = await em.findOne(OnCallScheduleSchema, { id: t.id, organization: organizationId });
      if (!s || s.deletedAt) {
        skipped.push({ target: `schedule:${t.id}`, why: 'deleted' });
        continue;
      }
      const { answer, passedOver } = onCallAmong(
        { timezone: s.timezone, layers: s.layers, overrides: s.overrides } as ScheduleSpec,
        now,
        (user) => pageable(user).ok,
      );
      for (const p of passedOver) {
        const check = pageable(p.user);
        const why = check.ok ? 'cannot be paged' : check.why;
        skipped.push({
          target: `user:${p.user.toLowerCase()}`,
          why: `${why} (on call in ${s.name}${p.layer_name ? `, layer ${p.layer_name}` : ', override'})`,
        });
      }
      if (!answer)
        skipped.push({
          target: `schedule:${s.name}`,
          why: passedOver.length ? 'nobody on call who can be paged' : 'nobody on call',
        });
      else addUser(answer.user, `${answer.user} (on call: ${s.name})`);
    }
  }
  return { sends, skipped };
}

/**
 * Everyone an alert told of its trigger or escalations (successfully), to tell again that it was
 * acknowledged or resolved: PagerDuty and Opsgenie close their incident, chats get the outcome.
 * Users disabled or removed since are left out.
 */
export async function toldTargets(
  em: EntityManager,
  alertId: string,
  action: string,
  round: number,
): Promise<SendSpec[]> {
  const rows = await em.find(
    NotificationSendSchema,
    { alert: alertId, state: 'succeeded', action: { $in: ['trigger', 'escalate'] } },
    { orderBy: { createdAt: 'asc' } },
  );
  const out = new Map<string, SendSpec>();
  const pageable = rows.some((r) => r.recipient) ? await pageableUsers(em, rows[0]!.organization) : null;
  for (const r of rows) {
    // Someone who lost access since is not told how the alert ended either.
    if (r.recipient && !pageable!(r.recipient).ok) continue;
    const who = r.channel ? `channel:${r.channel}` : `user:${r.recipient}`;
    if (!out.has(who))
      out.set(who, {
        key: `${alertId}:${action}:${round}:${who}`,
        channelId: r.channel ?? null,
        recipient: r.recipient ?? null,
        action,
        level: r.level,
        label: who,
      });
  }
  return [...out.values()];
}

export interface PreparedSend {
  sendId: string;
  organizationId: string;
  alertId: string | null;
  state: string;
  attempt: number;
  target: SendTarget | null;
}

/** Creates the send's record once (by key) and answers where it goes and which attempt this is. */
export async function prepareSend(
  em: EntityManager,
  organizationId: string,
  alertId: string | null,
  spec: SendSpec,
  now: Date,
): Promise<PreparedSend> {
  await insertSendOnce(em, {
    organizationId,
    channelId: spec.channelId,
    alertId,
    key: spec.key,
    action: spec.action,
    level: spec.level,
    recipient: spec.recipient,
    now,
  });
  const send = await em.findOneOrFail(NotificationSendSchema, { key: spec.key });
  let target: SendTarget | null = null;
  if (send.channel) {
    const c = await em.findOne(NotificationChannelSchema, { id: send.channel });
    if (c && !c.deletedAt)
      target = { kind: 'channel', type: c.type, settings: c.settings, sealedSecret: c.sealedSecret ?? null };
  } else if (send.recipient) {
    target = { kind: 'user', email: send.recipient };
  }
  return { sendId: send.id, organizationId, alertId, state: send.state, attempt: send.attemptCount + 1, target };
}

/** Records one attempt and the send's state after it. */
export async function recordSendAttempt(
  em: EntityManager,
  sendId: string,
  a: {
    number: number;
    attemptedAt: Date;
    statusCode: number | null;
    latencyMs: number;
    error: string | null;
    response: string | null;
    succeeded: boolean;
    final: boolean;
  },
): Promise<string> {
  return em.transactional(async (tx) => {
    const send = await tx.findOneOrFail(NotificationSendSchema, { id: sendId });
    const existing = await tx.findOne(NotificationAttemptSchema, { send: sendId, number: a.number });
    const row =
      existing ??
      tx.create(NotificationAttemptSchema, {
        id: randomUUID(),
        organization: send.organization,
        send: sendId,
        number: a.number,
        attemptedAt: a.attemptedAt,
        latencyMs: 0,
        succeeded: false,
      });
    Object.assign(row, {
      attemptedAt: a.attemptedAt,
      statusCode: a.statusCode,
      latencyMs: a.latencyMs,
      error: a.error,
      response: a.response,
      succeeded: a.succeeded,
    });
    send.attemptCount = Math.max(send.attemptCount, a.number);
    send.lastStatusCode = a.statusCode;
    send.lastError = a.succeeded ? null : (a.error ?? (a.statusCode !== null ? `HTTP ${a.statusCode}` : null));
    send.state = a.succeeded ? 'succeeded' : a.final ? 'failed' : 'pending';
    if (a.succeeded || a.final) send.completedAt = a.attemptedAt;
    send.updatedAt = new Date();
    await tx.flush();
    return send.state;
  });
}

/** A channel's sends (alert notifications and tests), newest first, each with every attempt. */
export async function listSends(
  ctx: OrgContext,
  channelId: string,
  query: { limit: number; cursor?: string },
): Promise<{ items: SendView[]; nextCursor: string | null }> {
  await findLive(ctx, NotificationChannelSchema, channelId, 'Notification channel');
  const rows = await ctx.em.find(
    NotificationSendSchema,
    { organization: ctx.org.id, channel: channelId, ...afterCursor(query.cursor) },
    { orderBy: NEWEST_FIRST, limit: query.limit + 1 },
  );
  const page = pageOf(rows, query.limit);
  const attempts = page.items.length
    ? await ctx.em.find(NotificationAttemptSchema, { send: { $in: page.items.map((s) => s.id) } })
    : [];
  return { items: page.items.map((s) => sendView(s, attempts)), nextCursor: page.nextCursor };
}
