import { tzDataVersion } from '../../src/domain/sla/period';
import { type Mailer, createMailer } from '../../src/infra/mailer';
import { type StatementPdfRenderer, createStatementPdfRenderer } from '../../src/infra/statement-pdf';
import { temporalSlaWorkflows } from '../../src/temporal/sla-workflows';
import { pdfSource } from '../../src/usecases/sla/documents';
import { type ApiHarness, startApi } from './api-harness';
import { testSecretBox } from './env';
import { type SmtpSink, startSmtpSink } from './smtp-sink';
import { type TemporalHarness, startTemporalHarness } from './temporal-harness';

export interface SlaStack {
  smtp: SmtpSink;
  mailer: Mailer;
  printer: StatementPdfRenderer;
  h: TemporalHarness;
  api: ApiHarness;
  close(): Promise<void>;
}

/**
 * What the SLA statement suites run against: an SMTP sink, the Chromium printer, a real Temporal
 * worker with the statement workflows, and the API with its console. `links` is read at render
 * time, so a suite may fill it in once the API listens.
 */
export async function startSlaStack(
  links: { jwksUrl: string; verifyDocsUrl: string },
  consoleOptions: { temporalUiUrl?: string } = {},
): Promise<SlaStack> {
  const smtp = await startSmtpSink();
  const printer = createStatementPdfRenderer();
  const mailer = createMailer({ smtpUrl: smtp.url, from: 'Vigil <sla@vigil.test>', outboxDir: '/nonexistent' });
  const h = await startTemporalHarness({
    sla: {
      signer: { box: testSecretBox(), tzDataVersion: tzDataVersion(process.versions.tz) },
      mail: { mailer, pdf: pdfSource(printer, links), ...links, consoleUrl: 'http://vigil.test/console' },
    },
  });
  const api = await startApi({
    sla: { workflows: temporalSlaWorkflows(h.temporal), printer, links },
    console: { mail: mailer, ...consoleOptions },
  });
  return {
    smtp,
    mailer,
    printer,
    h,
    api,
    async close() {
      await api.close();
      await h.close();
      await printer.close();
      await mailer.close();
      await smtp.close();
    },
  };
}
