import { WorkflowIdConflictPolicy } from '@temporalio/client';
import type { MaintenanceScheduler } from '../usecases/maintenances/ports';
import type { TemporalHandle } from './connection';

import { searchAttributes } from './search-attributes';

export const maintenanceWorkflowId = (id: string) => `maintenance:${id}`;

export function temporalMaintenanceScheduler(temporal: TemporalHandle): MaintenanceScheduler {
  return {
    async changed(organizationId, m) {
      await temporal.client.workflow.signalWithStart('maintenanceWorkflow', {
        workflowId: maintenanceWorkflowId(m.id),
        taskQueue: temporal.taskQueue,
        args: [{ organizationId, maintenanceId: m.id }],
        signal: 'maintenanceChanged',
        signalArgs: [],
        workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
        memo: { title: m.title },
        typedSearchAttributes: searchAttributes(organizationId, 'maintenance', m.id),
      });
    },
  };
}
