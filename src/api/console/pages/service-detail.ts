import type { FastifyPluginAsync } from 'fastify';
import { ProblemError } from '../../../domain/error-catalog';
import { isChartRange } from '../../../domain/response-time';
import { serviceDetailBody } from '../../../render/console/pages/service-detail';
import { serviceActivity } from '../../../usecases/services/service-activity';
import { serviceDetail } from '../../../usecases/services/service-status';
import { requireScope, sendPage } from '../context';
import type { ConsoleDeps } from '../deps';
import { flashOf } from '../forms';

/** One service: its metrics, response-time chart, flips and incidents. GET only; the forms live on the Services pages. */
export const serviceDetailPages: FastifyPluginAsync<ConsoleDeps> = async (app) => {
  app.get<{ Params: { id: string }; Querystring: { range?: string } }>('/services/:id', async (request, reply) => {
    const v = requireScope(request, 'read:metrics');
    const range = request.query.range ?? '24h';
    if (!isChartRange(range))
      throw new ProblemError('validation_failed', 'range must be one of 24h, 7d, 30d.', {
        errors: [{ path: 'query.range', message: 'One of 24h, 7d, 30d' }],
      });
    const d = await serviceDetail(v.ctx, request.params.id);
    const a = await serviceActivity(v.ctx, d.service.id, d.metrics, range);
    const body = serviceDetailBody({
      service: {
        id: d.service.id,
        name: d.service.name,
        description: d.service.description ?? null,
        config_key: d.service.configKey ?? null,
      },
      status: d.status,
      maintenance: d.maintenance,
      metrics: d.metrics,
      uptime: d.uptime,
      range,
      from: a.from,
      to: a.to,
      bucketMs: a.bucketMs,
      series: a.series,
      changes: a.changes,
      incidents: v.can('read:incidents') ? a.incidents : null,
      canEdit: v.can('write:config'),
      timeZone: v.timeZone,
    });
    return sendPage(reply, v, '/console/services', {
      title: `Service: ${d.service.name}`,
      flash: flashOf(request.query),
      body,
    });
  });
};
