import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DefaultLogger, bundleWorkflowCode } from '@temporalio/worker';
import { loadConfig } from '../../src/config';
import { startWorker } from '../../src/composition/worker';
import { testTemporalAddress } from '../support/env';
import { eventually } from '../support/eventually';
import { type TemporalHarness, startTemporalHarness } from '../support/temporal-harness';

// WORKFLOW_DEADLOCK_TIMEOUT_MS: off by default (no watchdog per call into the sandbox); when set,
// workflow code busy longer than it at once fails its task, as the SDK's default does.
let h: TemporalHarness;
let bundlePath: string;
beforeAll(async () => {
  h = await startTemporalHarness();
  const { code } = await bundleWorkflowCode({
    workflowsPath: require.resolve('../support/workflows/busy-workflow'),
    logger: new DefaultLogger('WARN'),
  });
  bundlePath = path.join(mkdtempSync(path.join(os.tmpdir(), 'vigil-busy-')), 'workflow-bundle.js');
  writeFileSync(bundlePath, code);
}, 120_000);
afterAll(async () => h.close());

/** Iterations that keep the sandbox busy for about `ms` on this machine. */
function iterationsFor(ms: number): number {
  const n = 20_000_000;
  const t0 = performance.now();
  let x = 0;
  for (let i = 0; i < n; i++) x = (x + i) % 1_000_003;
  const per = (performance.now() - t0) / n;
  return Math.ceil(ms / Math.max(per, 1e-7)) + (x < 0 ? 1 : 0);
}

async function runBusy(deadlockTimeoutMs: number | undefined, busyMs: number) {
  const taskQueue = `busy-${randomUUID()}`;
  const worker = await startWorker({
    address: testTemporalAddress(),
    namespace: 'default',
    taskQueue,
    deps: { orm: h.orm },
    workflowBundlePath: bundlePath,
    deadlockTimeoutMs,
  });
  // A long task timeout: a busy CI machine must not time the (deliberately long) task out server-side.
  const handle = await h.temporal.client.workflow.start('busyWorkflow', {
    taskQueue,
    workflowId: `busy-${randomUUID()}`,
    args: [iterationsFor(busyMs)],
    workflowTaskTimeout: '2 minutes',
  });
  return { worker, handle };
}

describe('workflow deadlock check (WORKFLOW_DEADLOCK_TIMEOUT_MS)', () => {
  it('is off by default: the setting defaults to 0, and workflow code busy longer than the SDK default of 5 s completes', async () => {
    expect(loadConfig({}).WORKFLOW_DEADLOCK_TIMEOUT_MS).toBe(0);
    expect(() => loadConfig({ WORKFLOW_DEADLOCK_TIMEOUT_MS: '-1' })).toThrow(/WORKFLOW_DEADLOCK_TIMEOUT_MS/);
    const { worker, handle } = await runBusy(undefined, 6_000);
    try {
      await expect(handle.result()).resolves.toEqual(expect.any(Number));
    } finally {
      await worker.shutdown();
    }
  }, 60_000);

  it('when set, fails the workflow task whose code runs longer than it at once (the task is retried, the workflow stays open)', async () => {
    const { worker, handle } = await runBusy(300, 1_500);
    try {
      await eventually(async () => {
        const events = (await handle.fetchHistory()).events ?? [];
        const taskFailures = events.filter((e) => e.workflowTaskFailedEventAttributes);
        expect(taskFailures.length).toBeGreaterThanOrEqual(1);
        expect(JSON.stringify(taskFailures[0]!.workflowTaskFailedEventAttributes)).toMatch(/timed out after 300ms/);
      }, 30_000);
      expect((await handle.describe()).status.name).toBe('RUNNING');
    } finally {
      await handle.terminate('test over').catch(() => undefined);
      await worker.shutdown();
    }
  }, 60_000);
});
