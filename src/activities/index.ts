import type { Orm } from '../db/orm';
import type { MaintenanceScheduler } from '../temporal/maintenance-scheduler';
import { createHousekeepingActivities } from './housekeeping';
import { createMaintenanceActivities } from './maintenance';
import { type ProberDeps, createProbeTestActivities } from './probe-tests';
import { type WebhookDeps, createWebhookActivities } from './webhooks';

export interface ActivityDeps {
  orm: Orm;
  /** Reaches maintenance workflows (the housekeeping sweep starts missing ones). */
  maintenanceScheduler?: MaintenanceScheduler;
  /** Signs and sends webhook deliveries; without it their activities fail as not configured. */
  webhooks?: WebhookDeps;
  /** Runs cloud probe tests; without it they fail as not configured. */
  prober?: ProberDeps;
}

/** Every activity the worker registers, built from its dependencies (workflows import only the type). */
export function createActivities(deps: ActivityDeps) {
  return {
    ...createHousekeepingActivities(deps),
    ...createMaintenanceActivities(deps),
    ...createWebhookActivities(deps),
    ...createProbeTestActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
