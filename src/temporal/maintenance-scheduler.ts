import { WorkflowIdConflictPolicy } from '@temporalio/client';
import type { MaintenanceView } from '../usecases/maintenances/view';
import type { TemporalHandle } from './connection';

import { searchAttributes } from './search-attributes';

export const maintenanceWorkflowId = (id: string) => `maintenance:${id}`;

/** How the API reaches a maintenance's workflow. */
export interface MaintenanceScheduler {
  /** Starts the workflow (an existing one is kept), or signals it that the row changed. */
  changed(organizationId: string, m: MaintenanceView): Promise<void>;
}

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
