import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';

const { sweepAlertRules } = proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '5 seconds', backoffCoefficient: 2, maximumAttempts: 3 },
});

/** Run by the `vigil-alert-sweep` schedule every minute: raises and recovers the alerts of rules no event announces. */
export async function alertSweepWorkflow(): Promise<{ signals: number; sent: number }> {
  return sweepAlertRules();
}
