import type { EntityManager } from '@mikro-orm/postgresql';
import { AlertSchema, AlertTimelineEntrySchema, ApiKeySchema, type Alert } from '../../db/entities';
import { pageOf } from '../../domain/cursor';
import { ProblemError, notFound } from '../../domain/error-catalog';
import { isUuid } from '../../domain/ids';
import type { OrgContext } from '../shared/context';
import { NEWEST_FIRST, afterCursor } from '../shared/keyset';
import { type AlertView, alertView } from './views';

/** Acts on alert workflows (implemented over Temporal in src/temporal/alert-control.ts). */
export interface AlertControl {
  /** Runs the workflow update; answers the alert's state after it, or throws ProblemError (alert_closed, alert_busy). */
  act(
    workflowId: string,
    action: AlertActionName,
    args: { by: string; minutes?: number; note?: string },
  ): Promise<{ state: string }>;
}
export type AlertActionName = 'acknowledge' | 'resolve' | 'snooze';

/** Runs a channel's "send test" (implemented over Temporal: the worker sends). */
export interface ChannelTester {
  test(
    organizationId: string,
    channelId: string,
  ): Promise<{
    sendId: string;
    state: string;
    statusCode: number | null;
    error: string | null;
    response: string | null;
    latencyMs: number;
  }>;
}

async function withTimeline(em: EntityManager, alerts: Alert[]): Promise<AlertView[]> {
  if (!alerts.length) return [];
  const entries = await em.find(
    AlertTimelineEntrySchema,
    { alert: { $in: alerts.map((a) => a.id) } },
    { orderBy: { at: 'asc', id: 'asc' } },
  );
  const byAlert = new Map<string, typeof entries>();
  for (const e of entries) byAlert.set(e.alert, [...(byAlert.get(e.alert) ?? []), e]);
  return alerts.map((a) => alertView(a, byAlert.get(a.id) ?? []));
}

export interface AlertListQuery {
  limit: number;
  cursor?: string;
  state?: 'open' | 'triggered' | 'acknowledged' | 'suppressed' | 'resolved';
  rule_id?: string;
  since?: string;
}

/** Newest first; `state=open` is every state but resolved. Each alert with its timeline. */
export async function listAlerts(
  ctx: OrgContext,
  q: AlertListQuery,
): Promise<{ items: AlertView[]; nextCursor: string | null }> {
  const filter: Record<string, unknown> = { organization: ctx.org.id, ...afterCursor(q.cursor) };
  if (q.state === 'open') filter.state = { $ne: 'resolved' };
  else if (q.state) filter.state = q.state;
  if (q.rule_id) filter.rule = isUuid(q.rule_id) ? q.rule_id : '00000000-0000-0000-0000-000000000000';
  if (q.since) filter.createdAt = { $gte: new Date(q.since) };
  const rows = await ctx.em.find(AlertSchema, filter, { orderBy: NEWEST_FIRST as never, limit: q.limit + 1 });
  const page = pageOf(rows, q.limit);
  return { items: await withTimeline(ctx.em, page.items), nextCursor: page.nextCursor };
}

async function findAlert(ctx: OrgContext, id: string): Promise<Alert> {
  const row = isUuid(id) ? await ctx.em.findOne(AlertSchema, { id, organization: ctx.org.id }) : null;
  if (!row) throw notFound('Alert');
  return row;
}

export async function getAlert(ctx: OrgContext, id: string): Promise<AlertView> {
  const [view] = await withTimeline(ctx.em, [await findAlert(ctx, id)]);
  return view!;
}

/** Acknowledge, resolve or snooze through the alert's workflow; answers the alert as it is after. */
export async function actOnAlert(
  ctx: OrgContext,
  control: AlertControl,
  id: string,
  action: AlertActionName,
  args: { by: string; minutes?: number; note?: string },
): Promise<AlertView> {
  const alert = await findAlert(ctx, id);
  if (alert.state === 'resolved')
    throw new ProblemError(
      'alert_closed',
      `The alert was resolved at ${alert.resolvedAt?.toISOString()}; nothing can change it.`,
    );
  await control.act(alert.workflowId, action, args);
  ctx.em.clear();
  return getAlert(ctx, id);
}

/** Who acts through the API, as the timeline shows it: the key's name (its id when unnamed). */
export async function apiKeyActor(em: EntityManager, keyId: string): Promise<string> {
  const key = (await em.findOne(ApiKeySchema, { id: keyId }, { fields: ['name'] as never })) as {
    name?: string | null;
  } | null;
  return key?.name ? `API key "${key.name}"` : `API key ${keyId}`;
}
