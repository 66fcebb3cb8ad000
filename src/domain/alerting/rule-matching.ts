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
export function eventFires(
  event: Pick<StatusEventFacts, 'status' | 'availability'>,
  includeDegraded: boolean,
): boolean {
  return event.availability === 'down' || statusFires(event.status, includeDegraded);
}

/**
 * The signal a metric's status change raises for one rule, or null when the rule does not watch
 * it. A metric rule watches its metric; a heartbeat rule, heartbeat metrics (all, or one); a
 * service rule, the metrics of its service (or every service); a status page rule, the metrics and
 * services its page shows (`pageShows`). Agent, location, SLO and SLA rules are polled by the alert
 * sweep instead. The outbox fan-out (`alert_fanout` in src/db/repositories/outbox-repository.ts)
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
  const subjectKind = SUBJECT_KIND_OF[rule.kind];
  const subjectId = subjectKind === 'metric' ? event.metricId : event.serviceId;
  if (subjectId === null) return null;
  return { subjectKind, subjectId, firing: eventFires(event, rule.includeDegraded) };
}
