import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';

const { sweepWebhookOutbox } = proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '5 seconds', backoffCoefficient: 2, maximumAttempts: 5 },
});

/**
 * Run by the `vigil-outbox-sweep` schedule: dispatches events no relay took and starts delivery
 * workflows a relay committed but never confirmed started, so a crash between the two loses nothing.
 */
export async function outboxSweepWorkflow(): Promise<{ events: number; started: number }> {
  return sweepWebhookOutbox();
}
