/**
 * Every workflow and Schedule id Vigil makes, in one place: the Temporal adapters start and find
 * workflows by them, the workflows start their children by them, and the console links to the
 * Temporal UI by them. An id names what the run is about, so a second start of the same thing is
 * refused (or found) instead of running twice. The fixed Schedules of the sweeps keep their
 * literal ids in src/temporal/schedules.ts.
 */
export { alertWorkflowId } from './alerting/rule-kinds';
export { bucketScheduleId } from './metric-buckets';
export { locationWorkflowId } from './locations';

/** One webhook delivery (all its attempts). */
export const webhookWorkflowId = (deliveryId: string) => `webhook:${deliveryId}`;

/** The subscriber emails of one event. */
export const emailWorkflowId = (eventId: string) => `email:${eventId}`;

/** One probe test. */
export const probeTestWorkflowId = (jobId: string) => `probe-test:${jobId}`;

/** One maintenance window's timers. */
export const maintenanceWorkflowId = (maintenanceId: string) => `maintenance:${maintenanceId}`;

/** The monthly Schedule of a contract's SLA statements, and the period workflow it starts. */
export const contractScheduleId = (contractId: string) => `sla-contract:${contractId}`;
export const slaPeriodWorkflowId = (contractId: string) => `sla-period:${contractId}`;

/** One statement of a contract and period (all its revisions). */
export const slaStatementWorkflowId = (contractId: string, period: string) => `sla-statement:${contractId}:${period}`;

/** A channel's "send test", keyed by the test send's key (`test:<id>`). */
export const channelTestWorkflowId = (sendKey: string) => `channel-test:${sendKey.slice(5)}`;

/**
 * The Schedule one cloud metric had before buckets (`metric:<id>`, starting
 * `cloudMetricCheckWorkflow`). No longer created: a metric's write deletes it, and a leftover one
 * deletes itself at its next run.
 */
export const metricScheduleId = (metricId: string) => `metric:${metricId}`;

/** The workflow that runs new cloud metrics' first checks, one per installation. */
export const firstChecksWorkflowId = (taskQueue: string) => `metric-first-checks:${taskQueue}`;
