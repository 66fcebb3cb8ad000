import type { EntityManager } from '@mikro-orm/postgresql';
import {
  AgentSchema,
  AlertSchema,
  ConsoleUserSchema,
  MetricStatusFlipSchema,
  NotificationChannelSchema,
} from '../../db/entities';
import type { AlertAction, AlertMessage, AlertSeverity, OutageContext } from '../../domain/alerting/alert-message';
import { AGENT_LOCATION_PREFIX, type Vote, confirmingLocations } from '../../domain/confirmation';
import { isUuid } from '../../domain/ids';
import { probeTarget } from '../../domain/probe-target';
import { describeReason } from '../../domain/reason-codes';
import { type AlertLinkRecipient, signAlertLink } from '../../crypto/alert-action-links';
import { organizationName } from './alert-store';
import { type SubjectState, readSubjectState } from './subject-state';
import { AlertRuleSchema } from '../../db/entities';

export interface MessageLinks {
  /** The API's public base URL: one-click links point at it. */
  publicBaseUrl: string;
  /** Signs the one-click links (HKDF of the master key). */
  linkKey: Buffer;
}

const SEVERITIES: readonly string[] = ['critical', 'warning', 'info'];

/** Where one send goes: a channel, or a console user's address. */
export interface SendRecipient {
  channelId: string | null;
  recipient: string | null;
}

/** The recipient a one-click link is bound to; null (no links) for an address that names no console user. */
async function linkRecipient(
  em: EntityManager,
  organizationId: string,
  to: SendRecipient,
): Promise<AlertLinkRecipient | null> {
  if (to.channelId) return { kind: 'channel', id: to.channelId };
  if (!to.recipient) return null;
  const user = await em.findOne(
    ConsoleUserSchema,
    { organization: organizationId, email: to.recipient.toLowerCase() },
    { fields: ['id'] },
  );
  return user ? { kind: 'user', id: user.id } : null;
}

/** The message of one send about an alert, with one-click links signed for its recipient while the alert is open. */
export async function alertMessage(
  em: EntityManager,
  links: MessageLinks,
  alertId: string,
  to: SendRecipient,
  action: AlertAction,
  level: number,
  actor: string | null,
  now: Date,
): Promise<AlertMessage> {
  const alert = await em.findOneOrFail(AlertSchema, { id: alertId });
  const rule = await em.findOne(AlertRuleSchema, { id: alert.rule });
  const state = rule
    ? await readSubjectState(
        em,
        alert.organization,
        rule.kind,
        alert.subjectId,
        rule.includeDegraded,
        now,
        rule.settings,
      )
    : null;
  const open = action === 'trigger' || action === 'escalate';
  const status = action === 'resolve' ? (state?.exists ? state.status : 'resolved') : (state?.status ?? 'unknown');
  const recipient = open || action === 'acknowledge' ? await linkRecipient(em, alert.organization, to) : null;
  const outage = await outageOf(em, alert, state, to, now);
  const lasted = outage.endedAt ? Date.parse(outage.endedAt) - Date.parse(outage.startedAt) : null;
  // The stored summary says what went wrong; a resolution says how it ended (the headline already
  // says after how long, so the summary does not repeat it).
  const summary =
    action === 'resolve' && lasted !== null
      ? status === 'healthy'
        ? `${alert.subjectName} is healthy again.`
        : `${alert.subjectName} is still ${status.replace(/_/g, ' ')}: the alert was resolved${actor ? ` by ${actor}` : ''} before it recovered.`
      : alert.summary;
  const link = (which: 'acknowledge' | 'resolve') =>
    recipient
      ? `${links.publicBaseUrl}/v1/alert-actions/${signAlertLink(links.linkKey, alert.id, which, recipient, now.getTime())}`
      : null;
  return {
    action,
    alertId: alert.id,
    dedupKey: `vigil-${alert.id}`,
    // The formats put the action in front of it ("Resolved: …").
    title: alert.title,
    summary,
    severity: (SEVERITIES.includes(alert.severity) ? alert.severity : 'critical') as AlertSeverity,
    status,
    subject: { kind: alert.subjectKind, id: alert.subjectId, name: alert.subjectName },
    metric: state?.metric ?? null,
    level,
    organization: { id: alert.organization, name: await organizationName(em, alert.organization) },
    occurredAt: now.toISOString(),
    actor,
    links: {
      alert: `${links.publicBaseUrl}/console/alerts/${alert.id}`,
      acknowledge: open ? link('acknowledge') : null,
      resolve: open || action === 'acknowledge' ? link('resolve') : null,
    },
    outage,
  };
}

/**
 * Where, since when, why and who saw it: the probe's target, the alert's first trigger (and its
 * end), the reason in words, the locations of the confirming round (agents by name), and the
 * zone the recipient reads times in (their console setting; UTC for channels).
 */
async function outageOf(
  em: EntityManager,
  alert: { organization: string; triggeredAt: Date; resolvedAt?: Date | null },
  state: SubjectState | null,
  to: SendRecipient,
  now: Date,
): Promise<OutageContext> {
  const source = state?.source ?? null;
  const reason = state?.metric?.reason ? describeReason(state.metric.reason) : null;
  let confirmedBy: OutageContext['confirmedBy'] = null;
  if (source) {
    const flip = await em.findOne(
      MetricStatusFlipSchema,
      { metric: source.metricId, at: { $lte: now } },
      { orderBy: { at: 'desc' } },
    );
    confirmedBy = confirmingLocations(flip?.votes as { at: string; votes: Vote[] }[] | null);
    if (confirmedBy)
      confirmedBy = {
        ...confirmedBy,
        failing: await Promise.all(confirmedBy.failing.map((l) => locationName(em, alert.organization, l))),
      };
  }
  const user = to.recipient
    ? await em.findOne(
        ConsoleUserSchema,
        { organization: alert.organization, email: to.recipient.toLowerCase() },
        { fields: ['timeZone'] },
      )
    : null;
  return {
    startedAt: alert.triggeredAt.toISOString(),
    endedAt: alert.resolvedAt ? alert.resolvedAt.toISOString() : null,
    target: source ? probeTarget(source.sourceType, source.sourceConfig) : null,
    reason: reason?.reason && reason.reason_label ? { code: state!.metric!.reason!, words: reason.reason_label } : null,
    confirmedBy,
    timeZone: user?.timeZone ?? 'UTC',
  };
}

/** A vote's location as a person knows it: an agent by its name ("agent office-rack"), a cloud location by its id. */
async function locationName(em: EntityManager, organizationId: string, location: string): Promise<string> {
  if (!location.startsWith(AGENT_LOCATION_PREFIX)) return location;
  const id = location.slice(AGENT_LOCATION_PREFIX.length);
  const agent = isUuid(id)
    ? await em.findOne(AgentSchema, { id, organization: organizationId }, { fields: ['name'] })
    : null;
  return agent?.name ? `agent ${agent.name}` : location;
}

/** "Send test": a message that says what it is, through the same formats. */
export async function testMessage(
  em: EntityManager,
  links: MessageLinks,
  channelId: string,
  now: Date,
): Promise<AlertMessage> {
  const channel = await em.findOneOrFail(NotificationChannelSchema, { id: channelId });
  return {
    action: 'test',
    alertId: '00000000-0000-0000-0000-000000000000',
    dedupKey: `vigil-test-${channelId}`,
    title: `Test notification for ${channel.name}`,
    summary: 'Vigil sent this to check the channel. Nothing is wrong.',
    severity: 'info',
    status: 'healthy',
    subject: { kind: 'channel', id: channel.id, name: channel.name },
    metric: null,
    level: 0,
    organization: { id: channel.organization, name: await organizationName(em, channel.organization) },
    occurredAt: now.toISOString(),
    actor: null,
    links: { alert: `${links.publicBaseUrl}/console/alerts`, acknowledge: null, resolve: null },
  };
}
