import { type AlertRuleKind, SUBJECT_KIND_OF, statusFires } from './rule-kinds';

/** What a `metric.status_changed` event says, as alert-rule matching reads it. */
export interface StatusEventFacts {
  metricId: string;
  serviceId: string | null;
  sourceType: string | null;
  status: string | null;
  /** `down` when a `no_data` reading has a target reason (the metric counts as down). */
  availability: string | null;
}

export interface MatchableRule {
  kind: AlertRuleKind;
  subjectId: string | null;
  includeDegraded: boolean;
  /** Deleted or disabled rules match nothing. */
  live: boolean;
}

/** The signal a status event raises for a rule: the alert's subject, and whether it fires. */
export interface RuleSignal {
  subjectKind: string;
  subjectId: string;
  firing: boolean;
}

/** Whether the event fires a status rule: unhealthy or down always, degraded when the rule asks. */
export function ruleFires(event: Pick<StatusEventFacts, 'status' | 'availability'>, includeDegraded: boolean): boolean {
  return event.availability === 'down' || statusFires(event.status, includeDegraded);
}

/**
 * What a status rule's alert is about when a metric's status changes: the metric for metric and
 * heartbeat rules, its service for service and status page rules (null for a metric without one).
 */
export function subjectOf(
  kind: AlertRuleKind,
  event: Pick<StatusEventFacts, 'metricId' | 'serviceId'>,
): { subjectKind: string; subjectId: string } | null {
  const subjectKind = SUBJECT_KIND_OF[kind];
  const subjectId = subjectKind === 'metric' ? event.metricId : event.serviceId;
  return subjectId === null ? null : { subjectKind, subjectId };
}

/** The rule kinds a metric's status change can signal (the others are polled by the alert sweep). */
export const STATUS_EVENT_RULE_KINDS = [
  'metric_status',
  'heartbeat_missed',
  'service_status',
  'status_page_status',
] as const;

/** Of those, the kinds whose alert is about the metric itself (subjectOf, and the SQL that mirrors it). */
export const METRIC_SUBJECT_RULE_KINDS = STATUS_EVENT_RULE_KINDS.filter((kind) => SUBJECT_KIND_OF[kind] === 'metric');

/**
 * The signal a metric's status change raises for one rule, or null when the rule does not watch
 * it. A metric rule watches its metric; a heartbeat rule, heartbeat metrics (all, or one); a
 * service rule, the metrics of its service (or every service); a status page rule, the metrics and
 * services its page shows (`pageShows`). Agent, location, SLO and SLA rules are polled by the alert
 * sweep instead. The outbox fan-out (`alert_fanout`, src/db/alert-fanout-sql.ts)
 * is this rule in SQL, for every event of a batch at once; test/db/hot-path-rules.test.ts runs
 * both on the same cases.
 */
export function statusEventSignal(
  rule: MatchableRule,
  event: StatusEventFacts,
  pageShows: (pageId: string, event: StatusEventFacts) => boolean,
): RuleSignal | null {
  if (!rule.live) return null;
  const watches =
    (rule.kind === 'metric_status' && rule.subjectId === event.metricId) ||
    (rule.kind === 'heartbeat_missed' &&
      event.sourceType === 'heartbeat' &&
      (rule.subjectId === null || rule.subjectId === event.metricId)) ||
    (rule.kind === 'service_status' &&
      event.serviceId !== null &&
      (rule.subjectId === null || rule.subjectId === event.serviceId)) ||
    (rule.kind === 'status_page_status' && rule.subjectId !== null && pageShows(rule.subjectId, event));
  if (!watches) return null;
  const subject = subjectOf(rule.kind, event);
  if (!subject) return null;
  const { subjectKind, subjectId } = subject;
  return { subjectKind, subjectId, firing: ruleFires(event, rule.includeDegraded) };
}
