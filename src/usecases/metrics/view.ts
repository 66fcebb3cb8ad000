import type { Metric } from '../../db/entities';
import { type Availability, availabilityOf, type ReasonClass, readingReasonClass } from '../../domain/reason-class';
import { describeReason } from '../../domain/reason-codes';
import { isPushSourceType } from '../../domain/source-types';
import type { HealthStatus } from '../../domain/thresholds';
import { toIso, toIsoOrNull } from '../../domain/time';

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
  /** Issue 24: while `no_data`, whether the target failed (`target`: down for availability) or Vigil could not measure (`measurement`). */
  reason_class: ReasonClass | null;
  /** What the reading means for uptime, SLOs and statements: `up` (healthy, degraded), `down` (unhealthy, or no_data of a `target` reason), `unmeasured`. */
  availability: Availability;
  last_sample_at: string | null;
  status_since: string | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}


export function metricView(m: Metric): MetricView {
  const noData = m.status === 'no_data';
  const described = describeReason(noData ? (m.reason ?? 'no_data') : null);
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
    created_at: toIso(m.createdAt),
    updated_at: toIso(m.updatedAt),
    deleted_at: toIsoOrNull(m.deletedAt),
  };
}
