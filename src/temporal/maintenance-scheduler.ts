import { WorkflowIdConflictPolicy } from '@temporalio/client';
import type { MaintenanceScheduler } from '../usecases/maintenances/ports';
import type { TemporalHandle } from './connection';

import { searchAttributes } from './search-attributes';
import { maintenanceWorkflowId } from '../domain/workflow-ids';

export { maintenanceWorkflowId };

/** The request that changed the row is waiting: an unreachable server fails it fast (the change is retried in the background). */
const TELL_DEADLINE_MS = 5_000;

export function temporalMaintenanceScheduler(temporal: TemporalHandle): MaintenanceScheduler {
  return {
    async changed(organizationId, m) {
      await temporal.client.withDeadline(Date.now() + TELL_DEADLINE_MS, () =>
        temporal.client.workflow.signalWithStart('maintenanceWorkflow', {
          workflowId: maintenanceWorkflowId(m.id),
          taskQueue: temporal.taskQueue,
          args: [{ organizationId, maintenanceId: m.id }],
          signal: 'maintenanceChanged',
          signalArgs: [],
          workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
          memo: { title: m.title },
          typedSearchAttributes: searchAttributes(organizationId, 'maintenance', m.id),
        }),
      );
    },
  };
}
