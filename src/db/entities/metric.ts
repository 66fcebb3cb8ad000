import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import type { Confirmation } from '../../domain/confirmation';
import { AgentSchema } from './agent';
import { OrganizationSchema } from './organization';
import { ServiceSchema } from './service';

/**
 * A measured value under a service: what to probe (source_type + source_config), where (an
 * agent, or the cloud when `agent` is null), how often, and the thresholds that turn its value
 * into a status. The latest sample's outcome is kept on the row; samples live in metric_samples.
 */
export const MetricSchema = defineEntity({
  name: 'Metric',
  tableName: 'metrics',
  properties: {
    id: p.uuid().primary(),
    organization: p.manyToOne(OrganizationSchema).mapToPk().deleteRule('cascade'),
    service: p.manyToOne(ServiceSchema).mapToPk().deleteRule('cascade').index(),
    name: p.string().length(200),
    /** Stable handle for config as code; unique among the organization's live metrics. */
    configKey: p.string().length(100).nullable(),
    sourceType: p.string().length(32),
    sourceConfig: p.json<Record<string, unknown>>(),
    thresholds: p.json<Record<string, unknown>>().nullable(),
    intervalSeconds: p.integer(),
    agent: p.manyToOne(AgentSchema).mapToPk().deleteRule('set null').nullable().index(),
    unit: p.string().length(16).nullable(),
    status: p.string().length(16),
    currentValue: p.double().nullable(),
    reason: p.string().length(200).nullable(),
    /** `target` | `measurement` for a no-value reading (domain/reason-class.ts); null with a value. */
    reasonClass: p.string().length(16).nullable(),
    lastSampleAt: p.datetime(3).nullable(),
    statusSince: p.datetime(3).nullable(),
    /** Manual metrics: the status set by hand. */
    manualStatus: p.string().length(16).nullable(),
    /** Heartbeat and alert metrics: the hash of the secret in their inbound URL. */
    inboundTokenHash: p.string().length(64).nullable().unique(),
    /** Alert metrics: the firing alerts (JSON state); heartbeat metrics: nothing. */
    pushState: p.json<Record<string, unknown>>().nullable(),
    /** The locations that measure it (cloud ids, `agent:<id>`); null = the default (every online cloud location, or its agent). */
    locations: p.array().columnType('text[]').nullable(),
    /** {quorum, failures, recoveries, recheck}; null for pushed metrics (no location measures them). */
    confirmation: p.json<Confirmation>().nullable(),
    /** The latest reading of each location that measured it, written by ingest. */
    locationReadings: p.json<Record<string, LocationReading>>().nullable(),
    /** The status key a pending confirmation would move to, its consecutive rounds so far, since when, and their votes. */
    pendingKey: p.string().length(32).nullable(),
    pendingCount: p.integer().default(0),
    pendingSince: p.datetime(3).nullable(),
    pendingEvidence: p.json<unknown[]>().nullable(),
    /** When it was paused (not checked, not handed to agents, its samples not stored); null while it runs. */
    pausedAt: p.datetime(3).nullable(),
    createdAt: p.datetime(3),
    updatedAt: p.datetime(3),
    deletedAt: p.datetime(3).nullable(),
  },
  indexes: [
    { properties: ['organization', 'createdAt', 'id'] },
    {
      name: 'metrics_live_config_key_unique',
      expression:
        'create unique index metrics_live_config_key_unique on metrics (organization_id, config_key) where deleted_at is null and config_key is not null',
    },
  ],
});
export type Metric = InferEntity<typeof MetricSchema>;

/** One location's latest answer for a metric. */
export interface LocationReading {
  value: number | null;
  status: string;
  reason: string | null;
  at: string;
}

/** Each change of a metric's status: the input of POST /v1/incidents/from-metric/{id}. */
export const MetricStatusFlipSchema = defineEntity({
  name: 'MetricStatusFlip',
  tableName: 'metric_status_flips',
  properties: {
    id: p.uuid().primary(),
    organization: p.manyToOne(OrganizationSchema).mapToPk().deleteRule('cascade'),
    metric: p.manyToOne(MetricSchema).mapToPk().deleteRule('cascade'),
    fromStatus: p.string().length(16),
    toStatus: p.string().length(16),
    value: p.double().nullable(),
    reason: p.string().length(200).nullable(),
    reasonClass: p.string().length(16).nullable(),
    at: p.datetime(3),
    /** The rounds that confirmed it, each with its locations' votes; null for flips before confirmation. */
    votes: p.json<unknown[]>().nullable(),
    confirmations: p.integer().nullable(),
    confirmedAt: p.datetime(3).nullable(),
  },
  indexes: [{ properties: ['metric', 'at'] }],
});
export type MetricStatusFlip = InferEntity<typeof MetricStatusFlipSchema>;
