// The workflow bundle's entry point: every workflow the worker runs is exported from here.
export { housekeepingWorkflow } from './housekeeping-workflow';
export { maintenanceWorkflow, maintenanceChanged } from './maintenance-workflow';
export { webhookDeliveryWorkflow } from './webhook-delivery-workflow';
export { outboxSweepWorkflow } from './outbox-sweep-workflow';
export { probeTestWorkflow, probeTestFinished } from './probe-test-workflow';
export { cloudMetricBucketWorkflow, cloudMetricCheckWorkflow, metricSweepWorkflow } from './metric-workflows';
export { metricFirstChecksWorkflow, metricsCreated } from './metric-first-checks-workflow';
export { subscriberEmailWorkflow } from './subscriber-email-workflow';
export { slaStatementWorkflow } from './sla-statement-workflow';
export { slaPeriodWorkflow } from './sla-period-workflow';
export { locationWorkflow, locationHeartbeat } from './location-workflow';
export {
  alertWorkflow,
  subjectChangedSignal,
  acknowledgeAlertUpdate,
  resolveAlertUpdate,
  snoozeAlertUpdate,
  alertStateQuery,
} from './alert-workflow';
export { channelTestWorkflow } from './channel-test-workflow';
export { alertSweepWorkflow } from './alert-sweep-workflow';
