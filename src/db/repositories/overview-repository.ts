import type { EntityManager } from '@mikro-orm/postgresql';
import { rawRows } from '../raw-sql';

/**
 * What the console overview reads, as plain rows (no entities to hydrate: a page of 200 services
 * and their metrics is read on every view). Live records of one organization only.
 */

export interface OverviewServiceRow {
  id: string;
  name: string;
}

export interface OverviewMetricRow {
  id: string;
  service_id: string;
  status: string;
  reason: string | null;
  created_at: Date;
}

export interface OverviewIncidentRow {
  id: string;
  title: string;
  severity: string;
  affected_services: string[];
  published_at: Date | null;
  created_at: Date;
}

export interface OverviewMaintenanceRow {
  id: string;
  title: string;
  affected_services: string[];
  scheduled_start_at: Date;
  scheduled_end_at: Date;
  actual_start_at: Date | null;
}

/** The organization's live services by name (at most `limit`). */
export function overviewServices(
  em: EntityManager,
  organizationId: string,
  limit: number,
): Promise<OverviewServiceRow[]> {
  return rawRows(
    em,
    `select id, name from services where organization_id = ? and deleted_at is null order by name, id limit ?`,
    [organizationId, limit],
  );
}

/** Every live metric of the organization: what a service's status and uptime need. */
export function overviewMetrics(em: EntityManager, organizationId: string): Promise<OverviewMetricRow[]> {
  return rawRows(
    em,
    `select id, service_id, status, reason, created_at from metrics where organization_id = ? and deleted_at is null`,
    [organizationId],
  );
}

/** Incidents neither resolved nor canceled (drafts included), newest first. */
export function openIncidentRows(
  em: EntityManager,
  organizationId: string,
  limit: number,
): Promise<OverviewIncidentRow[]> {
  return rawRows(
    em,
    `select id, title, severity, affected_services, published_at, created_at from incidents
     where organization_id = ? and deleted_at is null and resolved_at is null and canceled_at is null order by created_at desc, id desc limit ?`,
    [organizationId, limit],
  );
}

/** Maintenances in progress, or scheduled to start before `horizon` (and not canceled or over), soonest first. */
export function nearMaintenanceRows(
  em: EntityManager,
  organizationId: string,
  horizon: Date,
  limit: number,
): Promise<OverviewMaintenanceRow[]> {
  return rawRows(
    em,
    `select id, title, affected_services, scheduled_start_at, scheduled_end_at, actual_start_at from maintenances
     where organization_id = ? and deleted_at is null and canceled_at is null and actual_end_at is null
       and (actual_start_at is not null or scheduled_start_at <= ?::timestamptz)
     order by scheduled_start_at, id limit ?`,
    [organizationId, horizon.toISOString(), limit],
  );
}
