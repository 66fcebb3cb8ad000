import type { EntityManager } from '@mikro-orm/postgresql';
import type { Confirmation } from '../../domain/confirmation';
import type { AgentReading } from '../../domain/metric-rounds';
import { type MetricBucket, bucketIdRange } from '../../domain/metric-buckets';
import { CLOUD_SOURCE_TYPES } from '../../domain/source-types';
import { pgArray, rawRows } from '../raw-sql';

/**
 * What a check round of cloud metrics reads: the live cloud metrics of a bucket, or a
 * new metric's first check, with what the round needs of each (the check, the thresholds, the
 * locations and confirmation).
 */
export interface RoundMetricRow {
  id: string;
  organizationId: string;
  sourceType: string;
  sourceConfig: Record<string, unknown>;
  intervalSeconds: number;
  thresholds: Record<string, unknown> | null;
  /** null: the default (every online cloud location). */
  locations: string[] | null;
  confirmation: Confirmation | null;
}

interface Row {
  id: string;
  organization_id: string;
  source_type: string;
  source_config: Record<string, unknown>;
  interval_seconds: number;
  thresholds: Record<string, unknown> | null;
  locations: string[] | null;
  confirmation: Confirmation | null;
}

const COLUMNS =
  'id, organization_id, source_type, source_config, interval_seconds, thresholds, locations, confirmation';
const toRow = (r: Row): RoundMetricRow => ({
  id: r.id,
  organizationId: r.organization_id,
  sourceType: r.source_type,
  sourceConfig: r.source_config,
  intervalSeconds: r.interval_seconds,
  thresholds: r.thresholds,
  locations: r.locations,
  confirmation: r.confirmation,
});

/** The bucket's live cloud metrics (read by primary key range), in id order; paused ones are not checked. */
export async function bucketRoundMetrics(em: EntityManager, b: MetricBucket): Promise<RoundMetricRow[]> {
  const { from, below } = bucketIdRange(b);
  const rows = await rawRows<Row>(
    em,
    `select ${COLUMNS} from metrics
     where id >= ?::uuid and (?::uuid is null or id < ?::uuid)
       and interval_seconds = ? and agent_id is null and deleted_at is null and paused_at is null and source_type = any(?::text[])
     order by id`,
    [from, below, below, b.intervalSeconds, pgArray([...CLOUD_SOURCE_TYPES])],
  );
  return rows.map(toRow);
}

/** One live cloud metric (a new metric's first check); null when it is gone or runs on an agent. */
export async function roundMetric(em: EntityManager, metricId: string): Promise<RoundMetricRow | null> {
  const rows = await rawRows<Row>(
    em,
    `select ${COLUMNS} from metrics where id = ?::uuid and agent_id is null and deleted_at is null and paused_at is null and source_type = any(?::text[])`,
    [metricId, pgArray([...CLOUD_SOURCE_TYPES])],
  );
  return rows[0] ? toRow(rows[0]) : null;
}

/** The live cloud metrics among these ids (new metrics' first checks), in id order; gone, paused or agent ones are left out. */
export async function roundMetricsByIds(em: EntityManager, metricIds: readonly string[]): Promise<RoundMetricRow[]> {
  if (!metricIds.length) return [];
  const rows = await rawRows<Row>(
    em,
    `select ${COLUMNS} from metrics where id = any(?::uuid[]) and agent_id is null and deleted_at is null and paused_at is null and source_type = any(?::text[]) order by id`,
    [pgArray(metricIds), pgArray([...CLOUD_SOURCE_TYPES])],
  );
  return rows.map(toRow);
}

/** The latest per-location readings of these metrics (an agent's answers for a cloud metric that lists it land there). */
export async function agentReadings(
  em: EntityManager,
  metricIds: readonly string[],
): Promise<Map<string, Record<string, AgentReading>>> {
  if (!metricIds.length) return new Map();
  const rows = await rawRows<{ id: string; location_readings: Record<string, AgentReading> | null }>(
    em,
    `select id, location_readings from metrics where id = any(?::uuid[])`,
    [pgArray(metricIds)],
  );
  return new Map(rows.map((r) => [r.id, r.location_readings ?? {}]));
}
