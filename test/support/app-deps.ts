import { randomBytes } from 'node:crypto';
import type { AppDeps } from '../../src/api/app';
import type { AlertRouteDeps } from '../../src/api/routes/alerts';
import type { SlaRouteDeps } from '../../src/api/routes/sla';
import { publicOnlyPoster } from '../../src/infra/webhook-http';
import { ProblemError } from '../../src/domain/error-catalog';
import { slackReplySender } from '../../src/usecases/alerting/slack-replies';

/**
 * The API's Temporal-backed ports for a test that runs it without Temporal. Each is a named
 * double: the schedulers record what they were asked (a test may read `calls`) and change
 * nothing; the workflow ports refuse loudly, naming this file, so a test that needs Temporal
 * cannot pass by accident. A test that needs the real thing starts Temporal and passes its own.
 */
export type TemporalPorts = Pick<
  AppDeps,
  'maintenanceScheduler' | 'metricScheduler' | 'probeTestRunner' | 'sla' | 'alerts' | 'webhookStarter' | 'console'
>;

const refuse = (what: string) => {
  throw new Error(`${what}: this test runs the API without Temporal (test/support/app-deps.ts)`);
};

export interface RecordingScheduler {
  calls: unknown[][];
}

export function withoutTemporal(publicBaseUrl: string): TemporalPorts & {
  maintenanceScheduler: RecordingScheduler;
  metricScheduler: RecordingScheduler;
} {
  const maintenanceCalls: unknown[][] = [];
  const metricCalls: unknown[][] = [];
  return {
    maintenanceScheduler: {
      calls: maintenanceCalls,
      changed: async (...args: unknown[]) => void maintenanceCalls.push(args),
    },
    metricScheduler: { calls: metricCalls, sync: async (...args: unknown[]) => void metricCalls.push(args) },
    probeTestRunner: {
      run: async () => refuse('probeTestRunner.run'),
      finished: async () => refuse('probeTestRunner.finished'),
    },
    sla: slaWithoutTemporal(publicBaseUrl),
    alerts: alertsWithoutTemporal(),
    webhookStarter: null,
    // Sign-in mail goes nowhere: the console tests that read it pass a real mailer.
    console: { mail: { send: async () => undefined } },
  };
}

export function slaWithoutTemporal(publicBaseUrl: string): SlaRouteDeps {
  return {
    workflows: {
      contractChanged: async () => {},
      startStatement: async () => refuse('sla.workflows.startStatement'),
      runAction: async () => refuse('sla.workflows.runAction'),
    },
    printer: null,
    links: {
      jwksUrl: `${publicBaseUrl}/.well-known/jwks.json`,
      verifyDocsUrl: `${publicBaseUrl}/docs/sla-verification`,
    },
  };
}

/** Alert actions answer 503 alert_busy, as the API does while alert workflows cannot be reached. */
export function alertsWithoutTemporal(): AlertRouteDeps {
  const busy = (): never => {
    throw new ProblemError(
      'alert_busy',
      // The API's own wording while alert workflows cannot be reached; the double is named in the log line.
      'This API was started without alert workflows (Temporal): the test double of test/support/app-deps.ts answered.',
      {},
      { 'retry-after': '5' },
    );
  };
  return {
    control: { act: async () => busy() },
    tester: { test: async () => busy() },
    // Nothing can act on a link while the actions refuse: any key will do.
    linkKey: randomBytes(32),
    slackReplies: testSlackReplies(),
  };
}

/** Slack follow-ups as production sends them, allowed to loopback receivers. */
export const testSlackReplies = () => slackReplySender(publicOnlyPoster('127.0.0.0/8'), 3_000);
