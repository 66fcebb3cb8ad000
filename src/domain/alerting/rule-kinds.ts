/**
 * What raises an alert. Each rule kind watches subjects of one kind; a rule without a
 * subject watches every subject of that kind in the organization.
 */
export const ALERT_RULE_KINDS = [
  'metric_status',
  'service_status',
  'status_page_status',
  'slo_burn',
  'agent_offline',
  'heartbeat_missed',
  'location_offline',
  'sla_review_overdue',
] as const;
export type AlertRuleKind = (typeof ALERT_RULE_KINDS)[number];

export const ALERT_SEVERITIES = ['critical', 'warning', 'info'] as const;
export type AlertSeverityLevel = (typeof ALERT_SEVERITIES)[number];

/** The kind of subject an alert of each rule kind is about (a status page rule alerts per service on the page). */
export const SUBJECT_KIND_OF: Readonly<Record<AlertRuleKind, string>> = {
  metric_status: 'metric',
  service_status: 'service',
  status_page_status: 'service',
  slo_burn: 'slo',
  agent_offline: 'agent',
  heartbeat_missed: 'metric',
  location_offline: 'location',
  sla_review_overdue: 'sla_statement',
};

export const ALERT_STATES = ['triggered', 'acknowledged', 'suppressed', 'resolved'] as const;
export type AlertState = (typeof ALERT_STATES)[number];

/** The alert workflow's id: one open alert per rule and subject. */
export function alertWorkflowId(ruleId: string, subjectId: string): string {
  return `alert:${ruleId}:${subjectId}`;
}

/**
 * Whether a status fires a status rule: unhealthy always (a `no_data` reading with a `target`
 * reason arrives here already as unhealthy, see effectiveStatus), degraded when the rule asks.
 */
export function statusFires(effective: string | null, includeDegraded: boolean): boolean {
  return effective === 'unhealthy' || (includeDegraded && effective === 'degraded');
}
