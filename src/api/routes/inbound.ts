import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MetricSchema } from '../../db/entities';
import { ingestSamples } from '../../usecases/metrics/ingest';
import { findByInboundToken } from '../../usecases/metrics/metrics';
import { routeDoc } from '../route-doc';

const tag = 'Inbound';
const TokenParams = z.object({ token: z.string().max(100).describe('The secret of the metric’s inbound URL') });
const Ack = z.object({ ok: z.literal(true), metric_id: z.string(), received_at: z.string() });

/** Public endpoints a heartbeat or alert source calls; the secret in the URL is the credential. */
export const inboundRoutes: FastifyPluginAsyncZod = async (app) => {
  const { errorResponses, ...doc } = routeDoc('pingHeartbeat', {
    summary: 'Heartbeat ping',
    tag,
    description: 'POST or GET the heartbeat URL a heartbeat metric answered on creation. The metric’s value is the seconds since the last ping.',
    errors: ['not_found'],
  });
  const ping = async (request: { params: { token: string }; em: import('@mikro-orm/postgresql').EntityManager; now: Date }) => {
    const m = await findByInboundToken({ em: request.em }, request.params.token, 'heartbeat');
    await request.em.nativeUpdate(MetricSchema, { id: m.id }, { pushState: { last_ping_at: request.now.toISOString() } });
    await ingestSamples(request.em.fork(), m.organization, [{ metricId: m.id, sampledAt: request.now, value: 0, reason: null }], request.now);
    return { ok: true as const, metric_id: m.id, received_at: request.now.toISOString() };
  };
  app.post('/heartbeats/:token', { schema: { ...doc, params: TokenParams, response: { 200: Ack, ...errorResponses } } }, ping);
  app.get('/heartbeats/:token', { schema: { ...doc, operationId: 'pingHeartbeatGet', params: TokenParams, response: { 200: Ack, ...errorResponses } } }, ping);
};
