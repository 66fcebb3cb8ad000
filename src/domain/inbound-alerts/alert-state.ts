/**
 * The currently firing alerts of one alert metric (spec §4.1 source_type alert, §7.3
 * alert_heartbeat_missing), kept as plain JSON so it can be stored as is.
 *
 * - A firing alert is added or refreshed by fingerprint; a resolved one removes it. A resolved
 *   notification that started before the stored episode (a late retry of an older one) is ignored.
 * - An alert whose `endsAt` has passed counts as resolved: a sender that states an end (Prometheus
 *   style, refreshed while firing) lets it lapse when the refreshes stop. Alertmanager and Grafana
 *   webhooks send no end for firing alerts (Go's zero time, normalized to null): those stay until
 *   resolved.
 * - The value is the worst severity among firing, non-expired alerts: 0 none, 1 degraded,
 *   2 unhealthy; 0 when none fire. The heartbeat alert never counts.
 * - Heartbeat: a metric may name an always-firing alert (Alertmanager's `Watchdog`). It is missing
 *   when no firing copy of it arrived within `heartbeat_timeout_seconds` (set it above the
 *   sender's repeat interval); before any copy is held, the timeout counts from the state's
 *   `since` (a grace period for a new metric). A resolved or expired heartbeat drops out, so it is
 *   missing at once after that grace: the sender itself says it stopped. Several copies (one per
 *   Prometheus replica, different fingerprints) count by the newest.
 */
import type { AlertSeverity, NormalizedAlert, NormalizedAlertBatch } from './webhook-formats';

export interface FiringAlert {
  name: string;
  severity: AlertSeverity;
  startsAt: string | null;
  endsAt: string | null;
  /** Last time a firing notification for it arrived. */
  receivedAt: string;
}

export interface AlertState {
  /** Firing alerts by fingerprint. */
  firing: Record<string, FiringAlert>;
  /** When the state began: the heartbeat's first timeout counts from here. */
  since: string;
  /** Last batch applied, whatever it held. */
  lastReceivedAt: string | null;
}

export interface AlertHeartbeatConfig {
  /** `alertname` of the always-firing alert; none → no heartbeat rule. */
  heartbeat_alert?: string | null;
  heartbeat_timeout_seconds?: number | null;
}

export const DEFAULT_HEARTBEAT_TIMEOUT_SECONDS = 600;
export const ALERT_SCORE: Readonly<Record<AlertSeverity, 0 | 1 | 2>> = { none: 0, degraded: 1, unhealthy: 2 };

type Instant = number | Date;
const ms = (t: Instant): number => (typeof t === 'number' ? t : t.getTime());
const iso = (t: Instant): string => new Date(ms(t)).toISOString();
const ended = (endsAt: string | null, now: number): boolean => endsAt !== null && Date.parse(endsAt) <= now;

export function emptyAlertState(now: Instant): AlertState {
  return { firing: {}, since: iso(now), lastReceivedAt: null };
}

/** The state after one webhook (or its alerts); returns a new state, the old one is left alone. */
export function applyAlertBatch(
  state: AlertState,
  batch: NormalizedAlertBatch | readonly NormalizedAlert[],
  now: Instant,
): AlertState {
  const at = ms(now);
  const firing: Record<string, FiringAlert> = { ...state.firing };
  for (const a of 'alerts' in batch ? batch.alerts : batch) {
    const stored = firing[a.fingerprint];
    if (a.status === 'resolved' || ended(a.endsAt, at)) {
      const older = stored?.startsAt && a.startsAt && Date.parse(a.startsAt) < Date.parse(stored.startsAt);
      if (stored && !older) delete firing[a.fingerprint];
      continue;
    }
    firing[a.fingerprint] = {
      name: a.name,
      severity: a.severity,
      startsAt: a.startsAt,
      endsAt: a.endsAt,
      receivedAt: iso(at),
    };
  }
  for (const [fp, a] of Object.entries(firing)) if (ended(a.endsAt, at)) delete firing[fp];
  return { firing, since: state.since, lastReceivedAt: iso(at) };
}

/** Firing alerts that have not lapsed by `now`, heartbeat excluded when one is configured. */
export function activeAlerts(
  state: AlertState,
  now: Instant,
  config: AlertHeartbeatConfig = {},
): Array<FiringAlert & { fingerprint: string }> {
  const at = ms(now);
  return Object.entries(state.firing)
    .filter(([, a]) => !ended(a.endsAt, at) && !(config.heartbeat_alert && a.name === config.heartbeat_alert))
    .map(([fingerprint, a]) => ({ fingerprint, ...a }));
}

/** Worst firing alert as a score (spec §4.1): 0 none, 1 degraded, 2 unhealthy. */
export function alertScore(state: AlertState, now: Instant, config: AlertHeartbeatConfig = {}): 0 | 1 | 2 {
  return activeAlerts(state, now, config).reduce<0 | 1 | 2>(
    (worst, a) => Math.max(worst, ALERT_SCORE[a.severity]) as 0 | 1 | 2,
    0,
  );
}

/** 'alert_heartbeat_missing' when the named heartbeat alert did not arrive within the timeout; null otherwise or without a rule. */
export function heartbeatVerdict(
  state: AlertState,
  config: AlertHeartbeatConfig,
  now: Instant,
): 'alert_heartbeat_missing' | null {
  if (!config.heartbeat_alert) return null;
  const at = ms(now);
  const timeoutMs = (config.heartbeat_timeout_seconds ?? DEFAULT_HEARTBEAT_TIMEOUT_SECONDS) * 1000;
  const beats = Object.values(state.firing).filter((a) => a.name === config.heartbeat_alert && !ended(a.endsAt, at));
  const last = beats.length ? Math.max(...beats.map((a) => Date.parse(a.receivedAt))) : Date.parse(state.since);
  return at - last > timeoutMs ? 'alert_heartbeat_missing' : null;
}

export type AlertMeasurement = { value: 0 | 1 | 2; reason: null } | { value: null; reason: 'alert_heartbeat_missing' };

/** The metric's measurement: no value with reason alert_heartbeat_missing (spec §7.3) while the heartbeat is missing, else the score. */
export function alertMeasurement(state: AlertState, config: AlertHeartbeatConfig, now: Instant): AlertMeasurement {
  const reason = heartbeatVerdict(state, config, now);
  return reason ? { value: null, reason } : { value: alertScore(state, now, config), reason: null };
}
