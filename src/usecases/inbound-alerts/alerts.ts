/**
 * Alert metrics (spec §4.1 source_type alert): Alertmanager and Grafana webhooks posted to the
 * metric's inbound URL. The firing alerts are kept in `metrics.push_state` (an AlertState, see
 * domain/inbound-alerts/alert-state), read and written with the metric row locked so concurrent webhooks apply
 * one after the other. Each webhook stores one sample: the worst firing alert as 0/1/2 with status
 * healthy/degraded/unhealthy, or no value with `alert_heartbeat_missing` while the metric's
 * heartbeat alert (e.g. Alertmanager's Watchdog) is missing. The 30 s metric sweep calls
 * `sweepAlertMetrics` so a heartbeat that stops arriving is noticed without a webhook.
 *
 * source_config options (the generic schema only asks for an object; they are checked here):
 * - heartbeat_alert: the `alertname` of an always-firing alert; absent → no heartbeat rule.
 * - heartbeat_timeout_seconds: 10..86400, default 600; set it above the sender's repeat interval.
 * - severity_mapping: { labels?: label names read in order, values?: value → none|degraded|unhealthy,
 *   fallback?: severity of a missing or unknown label } (see domain/inbound-alerts/webhook-formats).
 */
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { z } from 'zod';
import { type Metric, MetricSchema } from '../../db/entities';
import {
  type AlertMeasurement,
  type AlertState,
  activeAlerts,
  alertMeasurement,
  applyAlertBatch,
  emptyAlertState,
  heartbeatVerdict,
} from '../../domain/inbound-alerts/alert-state';
import { ALERT_SEVERITIES, type AlertSource, parseAlertWebhook } from '../../domain/inbound-alerts/webhook-formats';
import { type FieldError, ProblemError } from '../../domain/error-catalog';
import type { HealthStatus } from '../../domain/thresholds';
import { type IncomingSample, ingestSamples } from '../metrics/ingest';
import { findByInboundToken } from '../metrics/inbound';
import { validateAlertSourceConfig } from '../../domain/inbound-alerts/source-config';

// ---- the stored state ----

const StoredState = z.object({
  firing: z.record(
    z.string(),
    z.object({
      name: z.string(),
      severity: z.enum(ALERT_SEVERITIES),
      startsAt: z.string().nullable(),
      endsAt: z.string().nullable(),
      receivedAt: z.string(),
    }),
  ),
  since: z.string(),
  lastReceivedAt: z.string().nullable(),
});

/** The metric's alert state; a metric that never received a webhook starts at its creation (the heartbeat's grace). */
export function alertStateOf(m: Pick<Metric, 'pushState' | 'createdAt'>): AlertState {
  const parsed = StoredState.safeParse(m.pushState);
  return parsed.success ? parsed.data : emptyAlertState(m.createdAt);
}

const SCORE_STATUS: Readonly<Record<0 | 1 | 2, HealthStatus>> = { 0: 'healthy', 1: 'degraded', 2: 'unhealthy' };

function sampleOf(metricId: string, measurement: AlertMeasurement, at: Date): IncomingSample {
  return measurement.value === null
    ? { metricId, sampledAt: at, value: null, reason: measurement.reason, status: 'no_data' }
    : { metricId, sampledAt: at, value: measurement.value, reason: null, status: SCORE_STATUS[measurement.value] };
}

// ---- inbound webhook ----

export interface AlertReceipt {
  metricId: string;
  source: AlertSource;
  /** Alerts in the payload. */
  received: number;
  /** Firing alerts held after it (heartbeat excluded). */
  firing: number;
  status: HealthStatus;
  value: number | null;
  reason: string | null;
}

function invalid(detail: string, errors: FieldError[]): ProblemError {
  return new ProblemError(
    'validation_failed',
    `${detail}: ${errors.map((e) => `${e.path || '(body)'}: ${e.message}`).join('; ')}`,
    { errors },
  );
}

/**
 * Applies one alert webhook to the metric its inbound token names and stores the resulting sample.
 * 404 for an unknown token; 400 validation_failed with the parser's errors for a malformed
 * payload. A metric whose source_config options are out of shape records no_data invalid_config
 * (the sender cannot fix that, so the webhook is still acknowledged).
 */
export async function receiveAlertWebhook(
  em: EntityManager,
  token: string,
  body: unknown,
  now: Date,
): Promise<AlertReceipt> {
  const metric = await findByInboundToken({ em }, token, 'alert');
  const config = validateAlertSourceConfig(metric.sourceConfig);
  const parsed = parseAlertWebhook(body, config.ok ? config.options.severity_mapping : {});
  if (!parsed.ok) throw invalid('Not a valid alert webhook', parsed.errors);
  const { batch } = parsed;
  if (!config.ok) {
    await ingestSamples(
      em.fork(),
      metric.organization,
      [{ metricId: metric.id, sampledAt: now, value: null, reason: 'invalid_config', status: 'no_data' }],
      now,
    );
    return {
      metricId: metric.id,
      source: batch.source,
      received: batch.alerts.length,
      firing: 0,
      status: 'no_data',
      value: null,
      reason: 'invalid_config',
    };
  }
  const options = config.options;
  return em.fork().transactional(async (tx) => {
    // Locked: two webhooks of the same metric apply one after the other, none is lost.
    const locked = await tx.findOne(
      MetricSchema,
      { id: metric.id, deletedAt: null },
      { lockMode: LockMode.PESSIMISTIC_WRITE },
    );
    if (!locked) throw new ProblemError('not_found', 'No such alert endpoint.');
    // Webhooks that raced here apply in lock order: each one's sample must come after the last
    // one stored, or the latest outcome would keep the earlier state (and an equal instant be dropped).
    const at = new Date(Math.max(now.getTime(), (locked.lastSampleAt?.getTime() ?? 0) + 1));
    const state = applyAlertBatch(alertStateOf(locked), batch, at);
    await tx.nativeUpdate(MetricSchema, { id: locked.id }, { pushState: state });
    const measurement = alertMeasurement(state, options, at);
    const sample = sampleOf(locked.id, measurement, at);
    await ingestSamples(tx, locked.organization, [sample], at);
    return {
      metricId: locked.id,
      source: batch.source,
      received: batch.alerts.length,
      firing: activeAlerts(state, now, options).length,
      status: sample.status!,
      value: sample.value,
      reason: sample.reason,
    };
  });
}

// ---- sweep ----

/**
 * For the 30 s metric sweep: an alert metric with a heartbeat rule whose heartbeat alert stopped
 * arriving gets one no_data `alert_heartbeat_missing` sample (once: the next webhook with the
 * heartbeat clears it). Nothing is written for any other alert metric.
 */
export async function sweepAlertMetrics(em: EntityManager, now: Date): Promise<{ checked: number; missing: number }> {
  const candidates = await em.find(MetricSchema, {
    sourceType: 'alert',
    deletedAt: null,
    $or: [{ reason: null }, { reason: { $ne: 'alert_heartbeat_missing' } }],
  });
  const byOrg = new Map<string, IncomingSample[]>();
  let checked = 0;
  for (const m of candidates) {
    const config = validateAlertSourceConfig(m.sourceConfig);
    if (!config.ok || !config.options.heartbeat_alert) continue;
    checked++;
    const reason = heartbeatVerdict(alertStateOf(m), config.options, now);
    if (!reason) continue;
    byOrg.set(m.organization, [...(byOrg.get(m.organization) ?? []), sampleOf(m.id, { value: null, reason }, now)]);
  }
  let missing = 0;
  for (const [org, samples] of byOrg) {
    // Re-checked under the lock: a webhook may have brought the heartbeat since the read above.
    missing += await em.fork().transactional(async (tx) => {
      const locked = await tx.find(
        MetricSchema,
        { id: { $in: samples.map((s) => s.metricId) }, deletedAt: null },
        { lockMode: LockMode.PESSIMISTIC_WRITE, orderBy: { id: 'asc' } },
      );
      const still = samples.filter((s) => {
        const m = locked.find((l) => l.id === s.metricId);
        const config = m && validateAlertSourceConfig(m.sourceConfig);
        return (
          !!m &&
          !!config?.ok &&
          m.reason !== 'alert_heartbeat_missing' &&
          heartbeatVerdict(alertStateOf(m), config.options, now) !== null
        );
      });
      if (still.length) await ingestSamples(tx, org, still, now);
      return still.length;
    });
  }
  return { checked, missing };
}
