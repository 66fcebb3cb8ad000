import type { FastifyPluginAsync } from 'fastify';
import type { ConsoleDeps } from './deps';
import { overviewPages } from './pages/overview';
import { incidentPages } from './pages/incidents';
import { maintenancePages } from './pages/maintenances';
import { changeEventPages } from './pages/change-events';
import { metricPages } from './pages/metrics';
import { statusPagePages } from './pages/status-pages';
import { webhookPages } from './pages/webhooks';
import { agentPages } from './pages/agents';
import { slaPages } from './pages/sla';
import { alertPages } from './pages/alerts';
import { alertingConfigPages } from './pages/alerting-config';

/** Every page of the signed-in console, one module per area. */
export const consolePages: FastifyPluginAsync<ConsoleDeps> = async (app, deps) => {
  await app.register(overviewPages, deps);
  await app.register(incidentPages, deps);
  await app.register(maintenancePages, deps);
  await app.register(changeEventPages, deps);
  await app.register(metricPages, deps);
  await app.register(statusPagePages, deps);
  await app.register(webhookPages, deps);
  await app.register(agentPages, deps);
  await app.register(slaPages, deps);
  await app.register(alertPages, deps);
  await app.register(alertingConfigPages, deps);
};
