import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { Worker } from '@temporalio/worker';
import { installTemporalRuntime } from '../../src/temporal/runtime';
import * as workflows from '../../src/workflows';

const DIR = path.join(__dirname, '..', 'replay-histories');

/**
 * Histories recorded from real runs (VIGIL_RECORD_HISTORIES=1 npx jest test/temporal). Replaying
 * them against today's workflow code fails when a change would break executions already running;
 * guard such changes with patched().
 */
installTemporalRuntime('WARN');

interface RecordedHistory {
  events: { workflowExecutionStartedEventAttributes?: { workflowType?: { name?: string } } }[];
}

/** The workflow types the worker runs: the functions src/workflows exports (signals, queries and updates are definitions, not functions). */
const WORKFLOW_TYPES = Object.entries(workflows)
  .filter(([, value]) => typeof value === 'function')
  .map(([name]) => name)
  .sort();

describe('workflow replay of recorded histories', () => {
  const files = readdirSync(DIR).filter((f) => f.endsWith('.json'));
  const histories = files.map((f) => ({
    file: f,
    history: JSON.parse(readFileSync(path.join(DIR, f), 'utf8')) as RecordedHistory,
  }));

  it('has recorded histories to replay', () => {
    expect(files).toEqual(
      expect.arrayContaining([
        'housekeeping-v1.json',
        'housekeeping-v2.json',
        'housekeeping-v3.json',
        'housekeeping-v4.json',
        'maintenance-v1.json',
        'maintenance-v2.json',
        'webhook-delivery-v1.json',
        'webhook-delivery-v2.json',
        'webhook-delivery-v3.json',
        'probe-test-agent-v1.json',
        'probe-test-cloud-v1.json',
        'subscriber-email-v1.json',
        'sla-statement-v1.json',
        'sla-statement-v2.json',
        'sla-statement-v3.json',
        'metric-bucket-v3.json',
        'metric-check-v3.json',
        'metric-first-checks-v1.json',
        'alert-v1.json',
        'alert-v2.json',
        'alert-v3.json',
        'alert-sweep-v1.json',
        'channel-test-v1.json',
        'metric-sweep-v1.json',
        'outbox-sweep-v1.json',
        'sla-period-v1.json',
      ]),
    );
  });

  it('has a recorded history of every workflow type src/workflows exports', () => {
    // The list itself is checked, so an export that stops being a function cannot empty it unnoticed.
    expect(WORKFLOW_TYPES).toEqual(
      expect.arrayContaining([
        'alertWorkflow',
        'housekeepingWorkflow',
        'slaStatementWorkflow',
        'webhookDeliveryWorkflow',
      ]),
    );
    const recorded = new Set(
      histories.map(({ history }) => history.events[0]?.workflowExecutionStartedEventAttributes?.workflowType?.name),
    );
    const missing = WORKFLOW_TYPES.filter((type) => !recorded.has(type));
    // A new workflow type needs a history: record one from a real run (see docs/testing.md, "Re-recording workflow histories").
    expect(missing).toEqual([]);
  });

  it('replays every recorded history without nondeterminism', async () => {
    const results = Worker.runReplayHistories(
      { workflowsPath: require.resolve('../../src/workflows') },
      histories.map(({ file, history }) => ({ workflowId: file.replace(/\.json$/, ''), history })),
    );
    let count = 0;
    for await (const result of results) {
      expect([result.workflowId, result.error?.message]).toEqual([result.workflowId, undefined]);
      count++;
    }
    expect(count).toBe(files.length);
  });
});
