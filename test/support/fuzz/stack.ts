/**
 * The stack the fuzzer runs against, real parts throughout: a Temporal server and worker that
 * draft, sign and deliver statements, run cloud probe tests (public targets are unreachable from
 * this sandbox, so they fail as a real prober would) and page through alert workflows; Chromium
 * printing PDFs; an SMTP server taking delivered statements; a PagerDuty stand-in on loopback
 * (checking the Events API v2 contract); and the API. Two organizations hold what the operations
 * name, and the served document lists the operations, in the order they run.
 */
import { randomBytes } from 'node:crypto';
import { temporalAlertControl, temporalChannelTester } from '../../../src/temporal/alert-control';
import { temporalSlaWorkflows } from '../../../src/temporal/sla-workflows';
import { createMailer, type Mailer } from '../../../src/infra/mailer';
import { type StatementPdfRenderer, createStatementPdfRenderer } from '../../../src/infra/statement-pdf';
import { temporalProbeTestRunner } from '../../../src/temporal/probe-test-runner';
import { temporalMaintenanceScheduler } from '../../../src/temporal/maintenance-scheduler';
import { tzDataVersion } from '../../../src/domain/sla/period';
import { pdfSource } from '../../../src/usecases/sla/documents';
import { publicOnlyPoster } from '../../../src/infra/webhook-http';
import { type ApiHarness, startApi } from '../api-harness';
import { testSlackReplies } from '../app-deps';
import { testSecretBox } from '../env';
import { orgWithKeys } from '../org-fixture';
import { type SmtpSink, startSmtpSink } from '../smtp-sink';
import { type TemporalHarness, startTemporalHarness } from '../temporal-harness';
import { type VendorReceiver, startVendorReceiver } from '../vendor-receivers';
import { type Holdings, hold } from './holdings';
import { type Fire, type FuzzStats, firing, newStats } from './invariants';
import { type Operation, operationsOf, orderOf } from './operations';
import { closeWire } from './wire';

/** The domain of the public status host: `<subdomain>.status.localhost` is an organization's page. */
export const STATUS_HOST = 'status.localhost';

export interface FuzzStack {
  api: ApiHarness;
  /** The API's port, for raw sockets. */
  port: number;
  pagerduty: VendorReceiver;
  /** The organization the requests are made as. */
  owner: Holdings;
  /** Another organization, whose items the owner's requests must not reach. */
  stranger: Holdings;
  /** The operations of the served document, reads first and the destructive ones last. */
  operations: Operation[];
  stats: FuzzStats;
  /** Sends one request, judges its answer, and for a refused one checks that nothing was written. */
  fire: Fire;
  close(): Promise<void>;
}

export async function startFuzzStack(): Promise<FuzzStack> {
  let smtp: SmtpSink | undefined;
  let mailer: Mailer | undefined;
  let printer: StatementPdfRenderer | undefined;
  let pagerduty: VendorReceiver | undefined;
  let h: TemporalHarness | undefined;
  let api: ApiHarness | undefined;
  const close = async () => {
    await api?.close();
    await h?.close();
    await printer?.close();
    await mailer?.close();
    await smtp?.close();
    await pagerduty?.close();
    await closeWire();
  };
  try {
    // The key of the one-click links in alert notifications, shared by the API and the worker as in production.
    const alertLinkKey = randomBytes(32);
    smtp = await startSmtpSink();
    mailer = createMailer({ smtpUrl: smtp.url, from: 'Vigil <sla@vigil.test>', outboxDir: '/nonexistent' });
    printer = createStatementPdfRenderer();
    const links = { jwksUrl: 'http://x/jwks', verifyDocsUrl: 'http://x/docs' };
    pagerduty = await startVendorReceiver('pagerduty');
    h = await startTemporalHarness({
      sla: {
        signer: { box: testSecretBox(), tzDataVersion: tzDataVersion(process.versions.tz) },
        mail: { mailer, pdf: pdfSource(printer, links), ...links, consoleUrl: 'http://vigil.test' },
      },
      alerts: {
        box: testSecretBox(),
        mailer,
        endpoints: {
          pagerdutyEventsUrl: pagerduty.url,
          opsgenieApiUrl: pagerduty.url,
          opsgenieEuApiUrl: pagerduty.url,
        },
        timeoutMs: 5_000,
        poster: publicOnlyPoster('127.0.0.0/8'),
        publicBaseUrl: 'http://127.0.0.1:1',
        linkKey: alertLinkKey,
        minuteMs: 60_000,
      },
    });
    api = await startApi({
      sla: { workflows: temporalSlaWorkflows(h.temporal, {}, { updateWaitMs: 5_000 }), printer, links },
      probeTestRunner: temporalProbeTestRunner(h.temporal),
      // The agent probe test made at setup stays pending for the whole run: on a slow machine the
      // default 2 minutes ran out mid-run, and its 504 probe_test_expired then read as a server error.
      probeTestExpiryMs: 60 * 60_000,
      maintenanceScheduler: temporalMaintenanceScheduler(h.temporal),
      alerts: {
        control: temporalAlertControl(h.temporal),
        tester: temporalChannelTester(h.temporal),
        linkKey: alertLinkKey,
        slackReplies: testSlackReplies(),
      },
    });
    const port = Number(new URL(api.baseUrl).port);
    const [a, b] = await Promise.all([
      orgWithKeys(api, { plan: 'enterprise', name: 'fuzz owner' }),
      orgWithKeys(api, { plan: 'enterprise', name: 'fuzz stranger' }),
    ]);
    // Thousands of requests a minute: lift the organization's API limits.
    await api.updateOrg(a.id, { rateLimitPerMinute: 1_000_000, rateLimitPerDay: 10_000_000 });
    const parts = { api, temporal: h, pagerduty, alertLinkKey };
    const owner = await hold(parts, a, 'own');
    const stranger = await hold(parts, b, 'other');
    const stats = newStats();
    const fire = firing(api, [a.id, b.id], stats);
    const doc = await api.request('GET', '/v1/openapi.json');
    const operations = operationsOf(doc.body).sort((x, y) => orderOf(x) - orderOf(y));
    return { api, port, pagerduty, owner, stranger, operations, stats, fire, close };
  } catch (err) {
    await close();
    throw err;
  }
}
