import { descriptions as agentApi } from './agent-api';
import { descriptions as agents } from './agents';
import { descriptions as alertingConfigChannels } from './alerting-config-channels';
import { descriptions as alertingConfigPolicies } from './alerting-config-policies';
import { descriptions as alertingConfigRules } from './alerting-config-rules';
import { descriptions as alertingConfigSchedules } from './alerting-config-schedules';
import { descriptions as alertingConfigSilences } from './alerting-config-silences';
import { descriptions as alerts } from './alerts';
import { descriptions as changeEvents } from './change-events';
import { descriptions as config } from './config';
import { descriptions as customers } from './customers';
import { descriptions as docs } from './docs';
import { descriptions as health } from './health';
import { descriptions as inbound } from './inbound';
import { descriptions as incidentTemplates } from './incident-templates';
import { descriptions as incidents } from './incidents';
import { descriptions as locations } from './locations';
import { descriptions as maintenances } from './maintenances';
import { descriptions as metrics } from './metrics';
import { descriptions as probeTests } from './probe-tests';
import { descriptions as publicPages } from './public-pages';
import { descriptions as services } from './services';
import { descriptions as sla } from './sla';
import { descriptions as slackInteractions } from './slack-interactions';
import { descriptions as slos } from './slos';
import { descriptions as statusPages } from './status-pages';
import { descriptions as webhooks } from './webhooks';

/**
 * The operations' OpenAPI descriptions, by operationId: the prose lives here, one file per route
 * module, so the routes read as what they do. routeDoc adds the checks, the scope and the errors.
 */
export const OPERATION_DESCRIPTIONS: Readonly<Record<string, string>> = {
  ...agentApi,
  ...agents,
  ...alertingConfigChannels,
  ...alertingConfigPolicies,
  ...alertingConfigRules,
  ...alertingConfigSchedules,
  ...alertingConfigSilences,
  ...alerts,
  ...changeEvents,
  ...config,
  ...customers,
  ...docs,
  ...health,
  ...inbound,
  ...incidentTemplates,
  ...incidents,
  ...locations,
  ...maintenances,
  ...metrics,
  ...probeTests,
  ...publicPages,
  ...services,
  ...sla,
  ...slackInteractions,
  ...slos,
  ...statusPages,
  ...webhooks,
};
