import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { DeliverInput, DeliverResult } from '../activities/alerts';

// One attempt: "send test" reports what the receiver answered, it does not retry.
const { deliverAlertNotification } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { maximumAttempts: 1 },
});

/** "Send test" of a notification channel (`channel-test:<send key>`): one message through the channel's real format, recorded as a send. */
export async function channelTestWorkflow(input: DeliverInput): Promise<DeliverResult> {
  return deliverAlertNotification(input);
}
