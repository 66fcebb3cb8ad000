import {
  condition,
  continueAsNew,
  defineSignal,
  proxyLocalActivities,
  setHandler,
  sleep,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../activities';
import { runCompactRound } from './metric-workflows';

/** The new cloud metrics to check once at once (sent with signalWithStart by src/temporal/metric-schedules.ts). */
export const metricsCreated = defineSignal<[string[]]>('metricsCreated');

/** New metrics arriving within this window after the first are checked in the same round (more gather while a round runs). */
const GATHER_MS = 250;
/** At most this many metrics per round (a bucket of 10,000 metrics at 30 s holds about 330). */
const BATCH = 500;
/** The workflow waits this long for more new metrics before it ends (unless its input says otherwise: tests). */
const IDLE_MS = 30_000;

const { planRound } = proxyLocalActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumAttempts: 2 },
});

/**
 * The first checks of new cloud metrics, coalesced: one run per installation
 * (`metric-first-checks:<task queue>`) collects the ids its signals carry and checks them in
 * rounds of up to BATCH metrics from the locations that measure them (the round a bucket runs), so
 * a burst of creations (a bulk import, a config apply) costs a few workflows instead of one per
 * metric, and each new metric still gets its first sample within seconds instead of at its
 * bucket's next tick (up to a day away). It ends after IDLE_MS without new metrics; the next
 * creation starts it again.
 */
export async function metricFirstChecksWorkflow(
  input: { pending?: string[]; idleMs?: number } = {},
): Promise<{ checked: number; stored: number }> {
  const idleMs = input.idleMs ?? IDLE_MS;
  // A Set keeps the order ids arrived in (deterministic) and checks an id sent twice once.
  const pending = new Set(input.pending ?? []);
  setHandler(metricsCreated, (ids) => {
    for (const id of ids) pending.add(id);
  });
  let checked = 0;
  let stored = 0;
  for (;;) {
    if (!pending.size) await condition(() => pending.size > 0, idleMs);
    // Read the set, not condition's answer: a signal and the idle timer may land in one activation.
    if (!pending.size) return { checked, stored };
    await sleep(GATHER_MS);
    while (pending.size) {
      const ids = [...pending].slice(0, BATCH);
      for (const id of ids) pending.delete(id);
      const plan = await planRound({ metricIds: ids });
      if (plan.checks.length) stored += (await runCompactRound(plan, 60, { metricIds: ids })).stored;
      checked += ids.length;
      if (workflowInfo().continueAsNewSuggested || workflowInfo().historyLength > 5_000)
        await continueAsNew<typeof metricFirstChecksWorkflow>({ pending: [...pending], idleMs: input.idleMs });
    }
  }
}
