import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  AlertRuleSchema,
  AlertSchema,
  AlertTimelineEntrySchema,
  EscalationPolicySchema,
  MaintenanceSchema,
  OrganizationSchema,
  SilenceSchema,
  type Alert,
} from '../../db/entities';
import { type EscalationPolicy, type EscalationStep, escalationSteps } from '../../domain/alerting/escalation';
import { SUBJECT_KIND_OF, type AlertRuleKind, alertWorkflowId } from '../../domain/alerting/rule-kinds';
import { recordEvent } from '../events/outbox';
import { readSubjectState, type SubjectState } from './subject-state';
import { alertView } from './views';

/** What the alert workflow starts from and passes to every activity. */
export interface AlertSubjectRef {
  organizationId: string;
  ruleId: string;
  subjectId: string;
}

/** Why an alert is not paging right now: a maintenance in progress or a silence, until when. */
export interface Suppression {
  kind: 'maintenance' | 'silence';
  id: string;
  title: string;
  until: string;
}

export interface AlertEvaluation {
  /** False when the rule was deleted or disabled, or the subject is gone: the alert resolves. */
  live: boolean;
  firing: boolean;
  status: string;
  subjectKind: string;
  subjectName: string;
  severity: string;
  autoResolve: boolean;
  title: string;
  suppression: Suppression | null;
  /** The policy's steps, with waits in ms of this installation's minute (ALERT_MINUTE_MS). */
  steps: EscalationStep[];
  /** ALERT_MINUTE_MS: snoozes are counted in it. */
  minuteMs: number;
}

const NOT_LIVE = (status: string, minuteMs: number): AlertEvaluation => ({
  live: false,
  firing: false,
  status,
  subjectKind: 'unknown',
  subjectName: '',
  severity: 'info',
  autoResolve: true,
  title: '',
  suppression: null,
  steps: [],
  minuteMs,
});

function alertTitle(subjectName: string, status: string): string {
  return status === 'unhealthy' ? `${subjectName} is down` : `${subjectName} is ${status.replace(/_/g, ' ')}`;
}

/** The rule and its subject as they are now, with what would silence it. */
export async function evaluateAlert(
  em: EntityManager,
  ref: AlertSubjectRef,
  now: Date,
  minuteMs: number,
): Promise<AlertEvaluation> {
  const rule = await em.findOne(AlertRuleSchema, { id: ref.ruleId, organization: ref.organizationId });
  if (!rule || rule.deletedAt || rule.disabledAt) return NOT_LIVE('rule_disabled', minuteMs);
  const state = await readSubjectState(
    em,
    ref.organizationId,
    rule.kind,
    ref.subjectId,
    rule.includeDegraded,
    now,
    rule.settings,
  );
  if (!state.exists) return NOT_LIVE(state.status, minuteMs);
  const policy = await em.findOne(EscalationPolicySchema, {
    id: rule.escalationPolicy,
    organization: ref.organizationId,
  });
  const steps =
    policy && !policy.deletedAt
      ? escalationSteps({ levels: policy.levels as EscalationPolicy['levels'], repeat: policy.repeat })
      : [];
  return {
    live: true,
    firing: state.firing,
    status: state.status,
    subjectKind: SUBJECT_KIND_OF[rule.kind as AlertRuleKind] ?? rule.kind,
    subjectName: state.name,
    severity: rule.severity,
    autoResolve: rule.autoResolve,
    title: alertTitle(state.name, state.status),
    suppression: await suppressionOf(em, ref, state, now),
    steps: steps.map((s) => ({
      ...s,
      wait_after_ms: s.wait_after_ms === null ? null : Math.round((s.wait_after_ms / 60_000) * minuteMs),
    })),
    minuteMs,
  };
}

/**
 * A maintenance in progress on the subject's service (one with no affected services covers
 * every service, as it shows on every page), or an active silence naming the rule or the service
 * (or naming neither: the whole organization). The one ending last wins.
 */
async function suppressionOf(
  em: EntityManager,
  ref: AlertSubjectRef,
  state: SubjectState,
  now: Date,
): Promise<Suppression | null> {
  const found: Suppression[] = [];
  const maintenances = await em.find(MaintenanceSchema, {
    organization: ref.organizationId,
    deletedAt: null,
    canceledAt: null,
    actualStartAt: { $ne: null },
    actualEndAt: null,
  });
  for (const m of maintenances) {
    if (m.affectedServices.length === 0 || (state.serviceId && m.affectedServices.includes(state.serviceId))) {
      found.push({ kind: 'maintenance', id: m.id, title: m.title, until: m.scheduledEndAt.toISOString() });
    }
  }
  const silences = await em.find(SilenceSchema, {
    organization: ref.organizationId,
    deletedAt: null,
    startsAt: { $lte: now },
    endsAt: { $gt: now },
  });
  for (const s of silences) {
    const everything = s.ruleIds.length === 0 && s.serviceIds.length === 0;
    if (
      everything ||
      s.ruleIds.includes(ref.ruleId) ||
      (state.serviceId !== null && s.serviceIds.includes(state.serviceId))
    ) {
      found.push({ kind: 'silence', id: s.id, title: s.reason, until: s.endsAt.toISOString() });
    }
  }
  return found.sort((a, b) => b.until.localeCompare(a.until))[0] ?? null;
}

/** Adds a timeline entry once per key (activity retries write nothing twice). */
async function addTimeline(
  em: EntityManager,
  alert: Alert,
  key: string,
  kind: string,
  at: Date,
  actor: string | null,
  detail: Record<string, unknown>,
): Promise<boolean> {
  const existing = await em.findOne(AlertTimelineEntrySchema, { alert: alert.id, key });
  if (existing) return false;
  em.create(AlertTimelineEntrySchema, {
    id: randomUUID(),
    organization: alert.organization,
    alert: alert.id,
    key,
    at,
    kind,
    actor,
    detail,
  });
  return true;
}

async function emit(em: EntityManager, alert: Alert, type: string, now: Date): Promise<void> {
  const timeline = await em.find(AlertTimelineEntrySchema, { alert: alert.id }, { orderBy: { at: 'asc', id: 'asc' } });
  recordEvent(em, {
    organizationId: alert.organization,
    type,
    resourceKind: 'alert',
    resourceId: alert.id,
    payload: alertView(alert, timeline),
    now,
  });
}

/**
 * Opens the alert of this rule and subject, or answers the one already open (the unique index
 * allows one open alert per rule and subject, so a retried or repeated open finds it).
 */
export async function openAlert(
  em: EntityManager,
  ref: AlertSubjectRef,
  ev: AlertEvaluation,
  now: Date,
): Promise<{ alertId: string; created: boolean }> {
  return em.transactional(async (tx) => {
    const open = await tx.findOne(AlertSchema, {
      rule: ref.ruleId,
      subjectId: ref.subjectId,
      state: { $ne: 'resolved' },
    });
    if (open) return { alertId: open.id, created: false };
    const alert = tx.create(AlertSchema, {
      id: randomUUID(),
      organization: ref.organizationId,
      rule: ref.ruleId,
      subjectKind: ev.subjectKind,
      subjectId: ref.subjectId,
      subjectName: ev.subjectName,
      workflowId: alertWorkflowId(ref.ruleId, ref.subjectId),
      state: ev.suppression ? 'suppressed' : 'triggered',
      severity: ev.severity,
      title: ev.title,
      summary: summaryOf(ev),
      level: 0,
      triggerCount: 1,
      suppressedBy: ev.suppression ? { ...ev.suppression } : null,
      snoozedUntil: null,
      triggeredAt: now,
      lastTriggeredAt: now,
      acknowledgedAt: null,
      acknowledgedBy: null,
      resolvedAt: null,
      resolvedBy: null,
      createdAt: now,
      updatedAt: now,
    });
    await addTimeline(tx, alert, 'triggered', 'triggered', now, null, { status: ev.status, severity: ev.severity });
    if (ev.suppression)
      await addTimeline(tx, alert, `suppressed:${ev.suppression.id}`, 'suppressed', now, null, { ...ev.suppression });
    await tx.flush();
    await emit(tx, alert, 'alert.triggered', now);
    await tx.flush();
    return { alertId: alert.id, created: true };
  });
}

function summaryOf(ev: AlertEvaluation): string {
  return `${ev.subjectName} (${ev.subjectKind}) is ${ev.status.replace(/_/g, ' ')}.`;
}

export type AlertChange =
  | { kind: 'escalated'; key: string; level: number; pass: number; skipped?: { target: string; why: string }[] }
  | { kind: 'notified_level'; key: string; level: number; pass: number; skipped?: { target: string; why: string }[] }
  | { kind: 'retriggered'; key: string; status: string }
  | { kind: 'suppressed'; key: string; suppression: Suppression }
  | { kind: 'unsuppressed'; key: string }
  | { kind: 'acknowledged'; key: string; actor: string; note?: string }
  | { kind: 'snoozed'; key: string; actor: string; until: string }
  | { kind: 'snooze_ended'; key: string }
  | { kind: 'resolved'; key: string; actor: string; auto: boolean; note?: string };

const EVENT_OF: Partial<Record<AlertChange['kind'], string>> = {
  escalated: 'alert.escalated',
  acknowledged: 'alert.acknowledged',
  resolved: 'alert.resolved',
};

/**
 * Records one change of an alert: its row, a timeline entry and (for escalation,
 * acknowledgement and resolution) its webhook event, in one transaction, once per key.
 * Answers the alert's view after the change.
 */
export async function recordAlertChange(
  em: EntityManager,
  alertId: string,
  change: AlertChange,
  now: Date,
): Promise<ReturnType<typeof alertView>> {
  return em.transactional(async (tx) => {
    const alert = await tx.findOneOrFail(AlertSchema, { id: alertId });
    const actor = 'actor' in change ? change.actor : null;
    const { kind, key, ...detail } = change;
    const fresh = await addTimeline(tx, alert, key, kind, now, actor, detail);
    if (fresh) {
      switch (change.kind) {
        case 'escalated':
        case 'notified_level':
          alert.level = Math.max(alert.level, change.level);
          break;
        case 'retriggered':
          alert.triggerCount += 1;
          alert.lastTriggeredAt = now;
          break;
        case 'suppressed':
          if (alert.state === 'triggered') alert.state = 'suppressed';
          alert.suppressedBy = { ...change.suppression };
          break;
        case 'unsuppressed':
          if (alert.state === 'suppressed') alert.state = 'triggered';
          alert.suppressedBy = null;
          break;
        case 'acknowledged':
          alert.state = 'acknowledged';
          alert.acknowledgedAt = now;
          alert.acknowledgedBy = change.actor;
          break;
        case 'snoozed':
          alert.state = 'acknowledged';
          alert.snoozedUntil = new Date(change.until);
          alert.acknowledgedAt = now;
          alert.acknowledgedBy = change.actor;
          break;
        case 'snooze_ended':
          alert.state = 'triggered';
          alert.snoozedUntil = null;
          alert.acknowledgedAt = null;
          alert.acknowledgedBy = null;
          break;
        case 'resolved':
          alert.state = 'resolved';
          alert.resolvedAt = now;
          alert.resolvedBy = change.actor;
          alert.suppressedBy = null;
          alert.snoozedUntil = null;
          break;
      }
      alert.updatedAt = now;
      await tx.flush();
      const type = EVENT_OF[change.kind];
      if (type) {
        await emit(tx, alert, type, now);
        await tx.flush();
      }
    }
    const timeline = await tx.find(
      AlertTimelineEntrySchema,
      { alert: alert.id },
      { orderBy: { at: 'asc', id: 'asc' } },
    );
    return alertView(alert, timeline);
  });
}

/** The organization's name, for messages. */
export async function organizationName(em: EntityManager, organizationId: string): Promise<string> {
  const org = await em.findOne(OrganizationSchema, { id: organizationId });
  return org?.name ?? organizationId;
}
