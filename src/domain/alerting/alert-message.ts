/**
 * What every notification channel is told about one alert event: the sender builds it once per
 * notification and each channel format (channel-formats/) renders it in its vendor's shape.
 */
export type AlertAction = 'trigger' | 'escalate' | 'acknowledge' | 'resolve' | 'test';
export type AlertSeverity = 'critical' | 'warning' | 'info';

export interface AlertMessage {
  action: AlertAction;
  /** uuid */
  alertId: string;
  /** Stable for the alert's whole life, e.g. `vigil-<alertId>` (PagerDuty dedup_key, Opsgenie alias). */
  dedupKey: string;
  /** e.g. 'checkout is unhealthy' */
  title: string;
  /** One line. */
  summary: string;
  severity: AlertSeverity;
  /** The subject's status word: 'unhealthy' | 'degraded' | 'no_data' | 'healthy' | 'offline' | 'burning' | ... */
  status: string;
  subject: { kind: string; id: string; name: string };
  metric: { name: string; value: number | null; unit: string | null; reason: string | null } | null;
  /** Escalation level being notified (1-based). */
  level: number;
  organization: { id: string; name: string };
  /** ISO instant. */
  occurredAt: string;
  /** Who acknowledged/resolved, when known. */
  actor: string | null;
  /** Absolute URLs; acknowledge/resolve are one-click signed links (may be null). */
  links: { alert: string; acknowledge: string | null; resolve: string | null };
  /** What a person needs to act: where, since when, why, who saw it; absent for tests. */
  outage?: OutageContext | null;
}

/** The facts of an outage a message carries beside the alert's own words. */
export interface OutageContext {
  /** ISO: the alert's first trigger. */
  startedAt: string;
  /** ISO: when the alert was resolved; null while it is open. */
  endedAt: string | null;
  /** What the probe checks: a URL, host:port, a DNS name; null when the subject has none. */
  target: string | null;
  /** The reason in words, with the code it stands for. */
  reason: { code: string; words: string } | null;
  /** The locations whose checks failed in the confirming round, of how many voted. */
  confirmedBy: { failing: string[]; voting: number } | null;
  /** IANA zone the recipient reads times in (UTC when not known). */
  timeZone: string;
}

export interface ChannelRequest {
  method: 'POST';
  url: string;
  headers: Record<string, string>;
  body: string;
}
