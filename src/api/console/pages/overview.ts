import type { FastifyPluginAsync } from 'fastify';
import { overviewBody } from '../../../render/console/pages/overview';
import { serviceDetail } from '../../../usecases/service-status';
import { listServices } from '../../../usecases/services';
import { requireScope, sendPage } from '../context';
import type { ConsoleDeps } from '../deps';
import { flashOf, listQuery } from '../forms';
import { onCallNowSection } from './alerting/on-call-now';

/** The overview: every service with its status and 90 days of uptime. */
export const overviewPages: FastifyPluginAsync<ConsoleDeps> = async (app) => {
  app.get('/', async (request, reply) => {
    const v = requireScope(request, 'read:metrics');
    const q = listQuery(request.query, 25);
    const page = await listServices(v.ctx, q);
    const services = [];
    for (const s of page.items) {
      const d = await serviceDetail(v.ctx, s.id);
      services.push({ id: s.id, name: s.name, status: d.status, maintenance: d.maintenance?.title ?? null, metrics: d.metrics.length, uptime: d.uptime });
    }
    return sendPage(reply, v, '/console', { title: 'Overview', flash: flashOf(request.query), body: `${overviewBody(services, page.nextCursor)}\n${await onCallNowSection(v)}` });
  });
};
