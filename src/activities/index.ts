import type { Orm } from '../db/orm';
import type { MaintenanceScheduler } from '../usecases/maintenances/ports';
import type { LocalProbeJobs } from '../usecases/probe-tests/local-jobs';
import { type AlertDeps, createAlertActivities } from './alerts';
import { createHousekeepingActivities } from './housekeeping';
import { createLocationActivities } from './locations';
import { createMaintenanceActivities } from './maintenance';
import { createMetricActivities } from './metrics';
import { createMetricRoundActivities } from './metric-rounds';
import { type ProberDeps, createProbeTestActivities } from './probe-tests';
import { type WebhookDeps, createWebhookActivities } from './webhooks';
import { type EmailDeps, createSubscriberEmailActivities } from './subscriber-emails';
import { type SlaDeps, createSlaActivities } from './sla';

export interface ActivityDeps {
  orm: Orm;
  /** Reaches maintenance workflows (the housekeeping sweep starts missing ones). */
  maintenanceScheduler?: MaintenanceScheduler;
  /** Signs and sends webhook deliveries; without it their activities fail as not configured. */
  webhooks?: WebhookDeps;
  /** Runs cloud probe tests; without it they fail as not configured. */
  prober?: ProberDeps;
  /** Cloud probe tests whose request waits in this process (set by startWorker). */
  localProbeJobs?: LocalProbeJobs;
  /** Sends subscriber email (SMTP or the development outbox folder); without it those activities fail as not configured. */
  email?: EmailDeps;
  /** Signs SLA statements and mails them; without it those activities fail as not configured. */
  sla?: SlaDeps;
  /** Days of samples kept (METRIC_SAMPLE_RETENTION_DAYS). */
  sampleRetentionDays?: number;
  /** Sends alert notifications; without it those activities fail as not configured. */
  alerts?: AlertDeps;
}

/** Every activity the worker registers, built from its dependencies (workflows import only the type). */
export function createActivities(deps: ActivityDeps) {
  return {
    ...createHousekeepingActivities(deps),
    ...createMaintenanceActivities(deps),
    ...createWebhookActivities(deps),
    ...createProbeTestActivities(deps),
    ...createMetricActivities(deps),
    ...createMetricRoundActivities(deps),
    ...createSubscriberEmailActivities(deps),
    ...createSlaActivities(deps),
    ...createLocationActivities(deps),
    ...createAlertActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
