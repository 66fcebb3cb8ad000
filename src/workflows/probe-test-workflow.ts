import { condition, defineSignal, proxyActivities, proxyLocalActivities, setHandler } from '@temporalio/workflow';
import type { Activities } from '../activities';

const options = {
  // A probe is bounded by its own 30 s deadline.
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumAttempts: 3 },
} as const;
const { expireProbeTest } = proxyActivities<Activities>(options);
// The cloud probe runs as a local activity: inside the first workflow task, without the two
// round trips through the server a remote activity costs — the caller is waiting on the answer.
const { runCloudProbeTest } = proxyLocalActivities<Activities>(options);

/** Sent by the API when the agent has posted the job's result. */
export const probeTestFinished = defineSignal('probeTestFinished');

export interface ProbeTestInput {
  organizationId: string;
  jobId: string;
  mode: 'agent' | 'cloud';
  /** ms since epoch: the agent must answer by then (POST + 2 minutes). */
  expiresAt: number;
}

/**
 * One per probe test (id `probe-test:<job uuid>`). A cloud test runs the probe as an activity;
 * an agent test waits for the agent's result (posted through the API, which signals) and
 * expires the job when the deadline passes first.
 */
export async function probeTestWorkflow(input: ProbeTestInput): Promise<string> {
  if (input.mode === 'cloud') {
    await runCloudProbeTest({ jobId: input.jobId });
    return 'completed';
  }
  let finished = false;
  setHandler(probeTestFinished, () => {
    finished = true;
  });
  if (await condition(() => finished, Math.max(1, input.expiresAt - Date.now()))) return 'finished';
  await expireProbeTest({ jobId: input.jobId });
  return 'expired';
}
