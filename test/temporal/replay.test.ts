import { readFileSync, readdirSync } from 'node:fs';
import { installTemporalRuntime } from '../../src/temporal/runtime';
import path from 'node:path';
import { Worker } from '@temporalio/worker';

const DIR = path.join(__dirname, '..', 'replay-histories');

/**
 * Histories recorded from real runs (VIGIL_RECORD_HISTORIES=1 npx jest test/temporal). Replaying
 * them against today's workflow code fails when a change would break executions already running;
 * guard such changes with patched().
 */
installTemporalRuntime('WARN');

describe('workflow replay of recorded histories', () => {
  const files = readdirSync(DIR).filter((f) => f.endsWith('.json'));

  it('has recorded histories to replay', () => {
    expect(files).toEqual(expect.arrayContaining(['housekeeping-v1.json', 'housekeeping-v2.json', 'housekeeping-v3.json', 'housekeeping-v4.json', 'maintenance-v1.json', 'maintenance-v2.json', 'webhook-delivery-v1.json', 'webhook-delivery-v2.json', 'webhook-delivery-v3.json', 'probe-test-agent-v1.json', 'probe-test-cloud-v1.json', 'subscriber-email-v1.json', 'sla-statement-v1.json', 'sla-statement-v2.json', 'sla-statement-v3.json', 'metric-bucket-v3.json', 'metric-check-v3.json', 'metric-first-checks-v1.json', 'alert-v1.json', 'alert-v2.json', 'alert-v3.json']));
  });

  it('replays every recorded history without nondeterminism', async () => {
    const histories = files.map((f) => {
      const history = JSON.parse(readFileSync(path.join(DIR, f), 'utf8'));
      return { workflowId: f.replace(/\.json$/, ''), history };
    });
    const results = Worker.runReplayHistories({ workflowsPath: require.resolve('../../src/workflows') }, histories);
    let count = 0;
    for await (const result of results) {
      expect([result.workflowId, result.error?.message]).toEqual([result.workflowId, undefined]);
      count++;
    }
    expect(count).toBe(files.length);
  });
});
