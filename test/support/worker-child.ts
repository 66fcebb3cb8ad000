/**
 * A Temporal worker in a process of its own, so a test can kill it (SIGKILL) the way a crash
 * would. Usage: node --import tsx test/support/worker-child.ts <task queue> (or its compiled copy, see nodeArgsFor). Prints "ready".
 * With VIGIL_TEST_SMTP_URL it signs, renders and mails SLA statements too (Debian Chromium).
 * With VIGIL_TEST_ALERTS (JSON: vendor endpoints, minuteMs, linkKey hex) it sends alert notifications.
 */
import { createOrm } from '../../src/db/orm';
import { DEFAULT_RETRY_POLICY } from '../../src/domain/webhook-retry';
import { connectTemporal } from '../../src/temporal/connection';
import { temporalMaintenanceScheduler } from '../../src/temporal/maintenance-scheduler';
import { installTemporalRuntime } from '../../src/temporal/runtime';
import { temporalOutboxWorkflowStarter } from '../../src/temporal/outbox-workflow-starter';
import { randomBytes } from 'node:crypto';
import { startWorker } from '../../src/composition/worker';
import { PROBES } from '../../src/probes/registry';
import { testDatabaseUrl, testSecretBox, testTemporalAddress, testWorkflowBundle } from './env';
import { createMailer } from '../../src/infra/mailer';
import { createStatementPdfRenderer } from '../../src/infra/statement-pdf';
import { pdfSource } from '../../src/usecases/sla/documents';
import type { VendorEndpoints } from '../../src/domain/alerting/channel-formats';
import { publicOnlyPoster } from '../../src/infra/webhook-http';

async function main(): Promise<void> {
  const taskQueue = process.argv[2];
  if (!taskQueue) throw new Error('usage: worker-child.ts <task queue>');
  installTemporalRuntime('WARN');
  const orm = await createOrm({ url: testDatabaseUrl(), poolMax: 4 });
  const temporal = await connectTemporal({ address: testTemporalAddress(), namespace: 'default', taskQueue });
  const starter = temporalOutboxWorkflowStarter(temporal, DEFAULT_RETRY_POLICY);
  const smtpUrl = process.env.VIGIL_TEST_SMTP_URL;
  const links = {
    jwksUrl: 'http://vigil.test/.well-known/jwks.json',
    verifyDocsUrl: 'https://docs.vigil.test/sla-verification',
  };
  const sla = smtpUrl
    ? {
        signer: { box: testSecretBox(), tzDataVersion: process.versions.tz ?? '2025b' },
        mail: {
          mailer: createMailer({ smtpUrl, from: 'Vigil <sla@vigil.test>', outboxDir: '/nonexistent' }),
          pdf: pdfSource(createStatementPdfRenderer(), links),
          ...links,
          consoleUrl: 'http://vigil.test',
        },
      }
    : undefined;
  const alertSettings = process.env.VIGIL_TEST_ALERTS
    ? (JSON.parse(process.env.VIGIL_TEST_ALERTS) as { endpoints: VendorEndpoints; minuteMs: number; linkKey: string })
    : null;
  const alerts = alertSettings
    ? {
        box: testSecretBox(),
        mailer: null,
        endpoints: alertSettings.endpoints,
        timeoutMs: 3_000,
        poster: publicOnlyPoster('127.0.0.0/8'),
        publicBaseUrl: 'http://127.0.0.1:1',
        linkKey: Buffer.from(alertSettings.linkKey, 'hex'),
        minuteMs: alertSettings.minuteMs,
        starter,
      }
    : undefined;
  await startWorker({
    address: testTemporalAddress(),
    namespace: 'default',
    taskQueue,
    workflowBundlePath: testWorkflowBundle(),
    deps: {
      orm,
      maintenanceScheduler: temporalMaintenanceScheduler(temporal),
      webhooks: { box: testSecretBox(), starter, timeoutMs: 5_000, poster: publicOnlyPoster('127.0.0.0/8') },
      sla,
      alerts,
      prober: { registry: PROBES, allowCidrs: '127.0.0.0/8,::1/128', defaultTimeoutMs: 5_000 },
    },
    // A probe location of its own, as every worker has; ids are unique across the suites sharing this server.
    location: { id: `local-${randomBytes(4).toString('hex')}`, label: 'Test worker process', heartbeatSeconds: 10 },
  });
  process.stdout.write('ready\n');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
