import type { SignInLimits } from '../../domain/sign-in-limits';
import type { StatusSite } from '../../domain/status-page/site';
import type { SecretBox } from '../../crypto/secret-box';
import type { AlertControl, ChannelTester } from '../../usecases/alerting/alerts';
import type { ConsoleMail } from '../../usecases/console/ports';
import type { MaintenanceScheduler } from '../../usecases/maintenances/ports';
import type { MetricScheduler } from '../../usecases/metrics/ports';
import type { ProbeTestDeps } from '../../usecases/probe-tests/run';
import type { SlaWorkflows } from '../../usecases/sla/ports';
import type { OutboxWorkflowStarter } from '../../usecases/events/ports';
import type { DocumentLinks } from '../../usecases/sla/documents';
import type { PdfPrinter } from '../../usecases/sla/ports';

/** What the console's pages need: the same ports the API's routes get. */
export interface ConsoleDeps {
  /** Signs CSRF tokens (derived from the master key). */
  csrfKey: Buffer;
  /** Where sign-in links point: `<PUBLIC_BASE_URL>/console`. */
  consoleUrl: string;
  /** The Temporal UI's URL for this namespace's workflows, when known (links from maintenances and deliveries). */
  temporalUiUrl: string | null;
  publicBaseUrl: string;
  /** Where status pages are served (STATUS_HOST), for links to the live pages. */
  statusSite: StatusSite;
  pricingUrl: string;
  /** Whether the session cookie is sent over https only. */
  secureCookie: boolean;
  mail: ConsoleMail;
  /** How often the sign-in form may send a link (default DEFAULT_SIGN_IN_LIMITS). */
  signInLimits?: SignInLimits;
  box: SecretBox;
  metricScheduler: MetricScheduler;
  maintenanceScheduler: MaintenanceScheduler;
  slaWorkflows: SlaWorkflows;
  webhookStarter?: OutboxWorkflowStarter;
  probeTests: ProbeTestDeps;
  slaLinks: DocumentLinks;
  /** Prints statement PDFs; null: the PDF link answers 500. */
  slaPrinter: PdfPrinter | null;
  /** The installation whose cloud locations the metric form offers (TEMPORAL_TASK_QUEUE); default `vigil`. */
  locationTaskQueue?: string;
  /** Alert workflows (acknowledge, snooze, resolve) and channel "send test"; without them those buttons answer 503 alert_busy. */
  alerts?: { control: AlertControl; tester: ChannelTester };
}
