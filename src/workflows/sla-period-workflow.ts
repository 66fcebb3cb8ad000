import { ParentClosePolicy, WorkflowIdReusePolicy, proxyActivities, startChild } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { slaStatementSearchAttributes, slaStatementWorkflowId } from './search-attribute-keys';
import { type SlaTimings, slaStatementWorkflow } from './sla-statement-workflow';

const { slaPeriodDue } = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { maximumInterval: '1 minute' },
});

export interface SlaPeriodInput {
  organizationId: string;
  contractId: string;
  timings?: Partial<SlaTimings>;
}

/**
 * Started monthly by the contract's Schedule (`sla-contract:<id>`), after the period's end plus
 * the contract's grace: starts the statement workflow of the period that ended, under its business
 * id, and leaves it running. A period whose workflow already ran is left alone.
 */
export async function slaPeriodWorkflow(input: SlaPeriodInput): Promise<string> {
  const due = await slaPeriodDue({
    organizationId: input.organizationId,
    contractId: input.contractId,
    at: Date.now(),
  });
  if (!due) return 'nothing_due';
  try {
    await startChild(slaStatementWorkflow, {
      workflowId: slaStatementWorkflowId(input.contractId, due.period),
      args: [
        {
          organizationId: input.organizationId,
          contractId: input.contractId,
          period: due.period,
          timings: input.timings,
        },
      ],
      parentClosePolicy: ParentClosePolicy.ABANDON,
      workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
      typedSearchAttributes: slaStatementSearchAttributes(input.organizationId, input.contractId, due.period),
      memo: { title: due.title },
      staticSummary: due.title,
    });
  } catch (err) {
    if ((err as Error).name === 'WorkflowExecutionAlreadyStartedError') return `already_started:${due.period}`;
    throw err;
  }
  return `started:${due.period}`;
}
