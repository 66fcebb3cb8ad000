import type { FastifyPluginAsync } from 'fastify';
import { overviewBody } from '../../../render/console/pages/overview';
import { consoleOverview } from '../../../usecases/services/overview';
import { LIVE_SECONDS, requireScope, sendPage } from '../context';
import type { ConsoleDeps } from '../deps';
import { flashOf } from '../forms';
import { onCallNowSection, openAlertsSection } from './alerting/on-call-now';

/** The overview: open incidents, near maintenance, alerts and on call, then every service worst first (those without data last). */
export const overviewPages: FastifyPluginAsync<ConsoleDeps> = async (app) => {
  app.get('/', async (request, reply) => {
    const v = requireScope(request, 'read:metrics');
    const o = await consoleOverview(v.ctx);
    const onCall = await onCallNowSection(v);
    const openAlerts = await openAlertsSection(v);
    const incidents = v.can('read:incidents');
    const body = overviewBody({
      incidents: incidents ? o.incidents : null,
      maintenances: incidents ? o.maintenances : null,
      services: o.services,
      noData: o.noData,
      truncated: o.truncated,
      onCall,
      openAlerts,
      timeZone: v.timeZone,
    });
    return sendPage(reply, v, '/console', {
      title: 'Overview',
      flash: flashOf(request.query),
      body,
      live: LIVE_SECONDS,
    });
  });
};
