import { condition, defineSignal, proxyLocalActivities, setHandler } from '@temporalio/workflow';

/**
 * Workflows of bench/probe-test-floor.ts: the Temporal round trips a probe test makes, with no
 * Vigil code around them (no job rows, no probe), to measure what a Temporal server costs alone.
 */
export interface FloorActivities {
  floorTouch(id: string): Promise<void>;
}

const { floorTouch } = proxyLocalActivities<FloorActivities>({ startToCloseTimeout: '10 seconds' });

/** A cloud test's shape: one local activity in the first workflow task, then done. */
export async function benchFloorWorkflow(id: string): Promise<void> {
  await floorTouch(id);
}

export const benchFloorDone = defineSignal('benchFloorDone');

/** An agent test's shape: started, then signalled (by signalWithStart) when the result is in. */
export async function benchFloorSignalWorkflow(): Promise<void> {
  let done = false;
  setHandler(benchFloorDone, () => {
    done = true;
  });
  await condition(() => done, '1 minute');
}
