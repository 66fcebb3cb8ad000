import type { EntityManager } from '@mikro-orm/postgresql';
import { AlertActionUseSchema, AlertSchema, ConsoleUserSchema, NotificationChannelSchema } from '../../db/entities';
import { claimLinkUse, releaseLinkUse } from '../../db/repositories/alert-repository';
import { ProblemError } from '../../domain/error-catalog';
import { type AlertLinkRecipient, verifyAlertLink } from '../../crypto/alert-action-links';
import type { AlertControl } from './alerts';

/** What following a one-click link came to: the page to show and its HTTP status. */
export type AlertLinkOutcome = { status: number } & (
  | { kind: 'invalid' | 'expired' }
  | { kind: 'revoked'; title: string; why: string }
  | {
      kind: 'confirm' | 'used' | 'done' | 'already' | 'failed';
      title: string;
      action: 'acknowledge' | 'resolve';
      state: string;
      by?: string | null;
      at?: string;
      alertId?: string;
      detail?: string;
    }
);

/**
 * A one-click link from a notification. `view` (GET) only says what it would do; `act` (POST)
 * claims the link (once per link) and runs the action through the alert's workflow, giving the
 * link back when nothing was done. `as` names who acted when the caller knows better than the
 * link's recipient (a Slack button press says which Slack user pressed it).
 */
export async function followAlertLink(
  em: EntityManager,
  key: Buffer,
  token: string,
  now: Date,
  mode: 'view' | 'act',
  control: AlertControl,
  as?: string,
): Promise<AlertLinkOutcome> {
  const check = verifyAlertLink(key, token, now.getTime());
  if (!check.ok)
    return check.reason === 'expired' ? { status: 410, kind: 'expired' } : { status: 400, kind: 'invalid' };
  const { claims } = check;
  const alert = await em.findOne(AlertSchema, { id: claims.alertId });
  if (!alert) return { status: 400, kind: 'invalid' };
  const base = { title: alert.title, action: claims.action, state: alert.state };
  const holder = await linkHolder(em, alert.organization, claims.recipient);
  if (!holder.ok) return { status: 403, kind: 'revoked', title: alert.title, why: holder.why };
  if ((await em.count(AlertActionUseSchema, { tokenId: claims.tokenId })) > 0)
    return { status: 410, kind: 'used', ...base };
  if (alert.state === 'resolved') return { status: 200, kind: 'already', ...base, by: alert.resolvedBy };
  if (mode === 'view') return { status: 200, kind: 'confirm', ...base };
  if (!(await claimLinkUse(em, { tokenId: claims.tokenId, alertId: alert.id, action: claims.action, now })))
    return { status: 410, kind: 'used', ...base };
  try {
    const by = as ?? holder.by;
    const r = await control.act(alert.workflowId, claims.action, { by });
    return { status: 200, kind: 'done', ...base, state: r.state, by, at: now.toISOString(), alertId: alert.id };
  } catch (err) {
    await releaseLinkUse(em, claims.tokenId);
    const closed = err instanceof ProblemError && err.token === 'alert_closed';
    return {
      status: 409,
      kind: 'failed',
      ...base,
      detail: closed
        ? 'the alert is already resolved'
        : 'Vigil could not reach the alert just now; try the link again in a minute',
    };
  }
}

/**
 * Who holds a link: the console user or channel its notification went to, as the timeline names
 * them; a user disabled or removed since, or a deleted channel, no longer holds it.
 */
async function linkHolder(
  em: EntityManager,
  organizationId: string,
  to: AlertLinkRecipient,
): Promise<{ ok: true; by: string } | { ok: false; why: string }> {
  if (to.kind === 'user') {
    const user = await em.findOne(ConsoleUserSchema, { id: to.id, organization: organizationId });
    if (!user) return { ok: false, why: 'the person it was sent to is no longer a user of this organization' };
    if (user.disabledAt) return { ok: false, why: 'the person it was sent to has been disabled' };
    return { ok: true, by: `${user.email} (one-click link in email)` };
  }
  const channel = await em.findOne(NotificationChannelSchema, { id: to.id, organization: organizationId });
  if (!channel || channel.deletedAt) return { ok: false, why: 'the channel it was sent to has been deleted' };
  return { ok: true, by: `one-click link in ${channel.type} channel “${channel.name}”` };
}
