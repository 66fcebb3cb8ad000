import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ALERT_SOURCES } from '../../domain/inbound-alerts/webhook-formats';
import { HEALTH_STATUSES } from '../../domain/thresholds';
import { receiveAlertWebhook } from '../../usecases/inbound-alerts/alerts';
import { recordHeartbeatPing } from '../../usecases/metrics/inbound';
import { routeDoc } from '../route-doc';

const tag = 'Inbound';
const TokenParams = z.object({ token: z.string().max(100).describe('The secret of the metric’s inbound URL') });
const Ack = z.object({ ok: z.literal(true), metric_id: z.string(), received_at: z.string() });
const AlertAck = Ack.extend({
  source: z.enum(ALERT_SOURCES).describe('The sender the payload was read as'),
  alerts: z.int().describe('Alerts in the payload'),
  firing: z.int().describe('Alerts firing after it (the heartbeat alert not counted)'),
  status: z.enum(HEALTH_STATUSES).describe('The metric’s status from this webhook'),
  value: z.number().nullable().describe('Worst firing alert: 0 none, 1 degraded, 2 unhealthy; null while no_data'),
  reason: z.string().nullable().describe('alert_heartbeat_missing while the heartbeat alert is missing'),
});
const AlertBody = z
  .unknown()
  .describe(
    'An Alertmanager webhook_config payload (version 4), a Grafana unified-alerting webhook, or a legacy Grafana alert notification; detected by shape.',
  );

/** Public endpoints a heartbeat or alert source calls; the secret in the URL is the credential. */
export const inboundRoutes: FastifyPluginAsyncZod = async (app) => {
  const { errorResponses, ...doc } = routeDoc('pingHeartbeat', {
    summary: 'Heartbeat ping',
    tag,
    errors: ['not_found', 'database_unavailable', 'shutting_down'],
  });
  const ping = async (request: { params: { token: string }; em: EntityManager; now: Date }) => {
    const m = await recordHeartbeatPing(request.em, request.params.token, request.now);
    return { ok: true as const, metric_id: m.id, received_at: request.now.toISOString() };
  };
  app.post(
    '/heartbeats/:token',
    { schema: { ...doc, params: TokenParams, response: { 200: Ack, ...errorResponses } } },
    ping,
  );
  app.get(
    '/heartbeats/:token',
    {
      schema: {
        ...doc,
        operationId: 'pingHeartbeatGet',
        params: TokenParams,
        response: { 200: Ack, ...errorResponses },
      },
    },
    ping,
  );

  const receive = async (request: { em: EntityManager; now: Date; body: unknown }, token: string) => {
    const r = await receiveAlertWebhook(request.em, token, request.body, request.now);
    return {
      ok: true as const,
      metric_id: r.metricId,
      received_at: request.now.toISOString(),
      source: r.source,
      alerts: r.received,
      firing: r.firing,
      status: r.status,
      value: r.value,
      reason: r.reason,
    };
  };
  const alertErrors = [
    'invalid_json',
    'validation_failed',
    'payload_too_large',
    'unsupported_media_type',
    'not_found',
    'database_unavailable',
    'shutting_down',
  ] as const;
  {
    const { errorResponses, ...doc } = routeDoc('receiveAlerts', {
      summary: 'Receive alert webhooks',
      tag,
      errors: [...alertErrors],
    });
    app.post(
      '/inbound-alerts/:token',
      { schema: { ...doc, params: TokenParams, body: AlertBody, response: { 200: AlertAck, ...errorResponses } } },
      async (request) => receive(request, request.params.token),
    );
  }
  {
    // The first spelling of the alert URL, which senders are configured with. It shares its
    // template with `GET /v1/alerts/{id}` (paging alerts), so it is declared on that template with
    // the parameter's name, and marked deprecated.
    const { errorResponses, ...doc } = routeDoc('receiveAlertsDeprecated', {
      summary: 'Receive alert webhooks (former URL)',
      tag,
      errors: [...alertErrors],
    });
    const LegacyParams = z.object({
      id: z.string().max(100).describe('The secret of the metric’s alert URL (`al_…`)'),
    });
    app.post(
      '/alerts/:id',
      {
        schema: {
          ...doc,
          deprecated: true,
          params: LegacyParams,
          body: AlertBody,
          response: { 200: AlertAck, ...errorResponses },
        },
      },
      async (request) => receive(request, request.params.id),
    );
  }
};
