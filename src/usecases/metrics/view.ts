import type { Metric } from '../../db/entities';
import { type Availability, availabilityOf, type ReasonClass, readingReasonClass } from '../../domain/reason-class';
import { describeReason } from '../../domain/reason-codes';
import { isPushSourceType } from '../../domain/source-types';
import { type HealthStatus, shownReason } from '../../domain/thresholds';
import { toIso, toIsoOrNull } from '../../domain/time';
import { type Confirmation, pendingSummary } from '../../domain/confirmation';

export interface MetricView {
  id: string;
  service_id: string;
  name: string;
  config_key: string | null;
  source_type: string;
  source_config: Record<string, unknown>;
  thresholds: Record<string, unknown> | null;
  interval_seconds: number;
  agent_id: string | null;
  mode: 'agent' | 'cloud' | 'push';
  unit: string | null;
  status: HealthStatus;
  current_value: number | null;
  reason: string | null;
  reason_label: string | null;
  reason_hint: string | null;
  /** While `no_data`, whether the target failed (`target`: down for availability) or Vigil could not measure (`measurement`). */
  reason_class: ReasonClass | null;
  /** What the reading means for uptime, SLOs and statements: `up` (healthy, degraded), `down` (unhealthy, or no_data of a `target` reason), `unmeasured`. */
  availability: Availability;
  last_sample_at: string | null;
  status_since: string | null;
  /** The locations as configured (null: the default). */
  locations: string[] | null;
  confirmation: Confirmation | null;
  /** A paused metric is not checked; its last status stays as it was. */
  paused: boolean;
  paused_at: string | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export function metricView(m: Metric): MetricView {
  const noData = m.status === 'no_data';
  // An up/down check judged unhealthy keeps the status its target answered (unexpected_status:503).
  const described = describeReason(shownReason(m.status, m.reason));
  return {
    id: m.id,
    service_id: m.service,
    name: m.name,
    config_key: m.configKey ?? null,
    source_type: m.sourceType,
    source_config: m.sourceConfig,
    thresholds: m.thresholds ?? null,
    interval_seconds: m.intervalSeconds,
    agent_id: m.agent ?? null,
    mode: isPushSourceType(m.sourceType) ? 'push' : m.agent ? 'agent' : 'cloud',
    unit: m.unit ?? null,
    status: m.status as HealthStatus,
    // Spec §2.7: current_value is null while the metric reports no_data.
    current_value: noData || m.currentValue == null ? null : Number(m.currentValue),
    reason: described.reason,
    reason_label: described.reason_label,
    reason_hint: described.reason_hint,
    reason_class: noData ? ((m.reasonClass as ReasonClass | null) ?? readingReasonClass(m.status, m.reason)) : null,
    availability: availabilityOf(m.status, noData ? (m.reason ?? 'no_data') : null),
    last_sample_at: toIsoOrNull(m.lastSampleAt),
    status_since: toIsoOrNull(m.statusSince),
    locations: m.locations ?? null,
    confirmation: m.confirmation ?? null,
    paused: !!m.pausedAt,
    paused_at: toIsoOrNull(m.pausedAt),
    created_at: toIso(m.createdAt),
    updated_at: toIso(m.updatedAt),
    deleted_at: toIsoOrNull(m.deletedAt),
  };
}

export interface LocationReadingView {
  location: string;
  label: string | null;
  value: number | null;
  status: HealthStatus;
  reason: string | null;
  reason_class: ReasonClass | null;
  at: string | null;
  offline: boolean;
}

/** A location that has not answered for this many intervals (and 10 s) shows as offline. */
const OFFLINE_AFTER_INTERVALS = 2;

/**
 * GET /v1/metrics/{id}'s per-location view: each configured location and each that answered,
 * with its latest answer; one that has not answered for two intervals (or is known offline) shows
 * `no_data` / `location_offline` (never a failure: an absent location does not vote).
 */
export function locationReadingsView(
  m: Metric,
  now: Date,
  known: { labels: ReadonlyMap<string, string>; offline: ReadonlySet<string> },
): LocationReadingView[] {
  const readings = m.locationReadings ?? {};
  const ids = [...new Set([...(m.locations ?? []), ...Object.keys(readings)])].sort();
  const staleBefore = now.getTime() - (OFFLINE_AFTER_INTERVALS * m.intervalSeconds + 10) * 1000;
  return ids.map((location) => {
    const r = readings[location];
    const offline = !r || known.offline.has(location) || Date.parse(r.at) < staleBefore;
    const label = known.labels.get(location) ?? null;
    if (offline)
      return {
        location,
        label,
        value: null,
        status: 'no_data',
        reason: 'location_offline',
        reason_class: 'measurement',
        at: r?.at ?? null,
        offline: true,
      };
    const noData = r.status === 'no_data' || r.value === null;
    return {
      location,
      label,
      value: noData ? null : r.value,
      status: r.status as HealthStatus,
      reason: noData ? (r.reason ?? 'no_data') : null,
      reason_class: noData ? readingReasonClass('no_data', r.reason) : null,
      at: r.at,
      offline: false,
    };
  });
}

export interface PendingConfirmationView {
  to_status: HealthStatus;
  reason_class: ReasonClass | null;
  rounds: number;
  needed: number;
  since: string;
  summary: string;
}

/** The change being confirmed, if any ("failing 1 of 2"). */
export function pendingConfirmationView(m: Metric): PendingConfirmationView | null {
  if (!m.pendingKey || !m.pendingSince || !m.confirmation) return null;
  const [status, cls] = m.pendingKey.split('/') as [HealthStatus, ReasonClass | undefined];
  const recovering = m.pendingKey === 'healthy';
  return {
    to_status: status,
    reason_class: cls ?? null,
    rounds: m.pendingCount,
    needed: recovering ? m.confirmation.recoveries : m.confirmation.failures,
    since: toIso(m.pendingSince),
    summary: pendingSummary(m.pendingKey, m.pendingCount, m.confirmation),
  };
}
