import type { FastifyPluginAsync } from 'fastify';
import { ProblemError } from '../../../domain/error-catalog';
import type { FormProblem } from '../../../render/console/forms';
import { deliveryDetailBody, deliveryHref, webhookDetailBody, webhookListBody } from '../../../render/console/pages/webhooks';
import { getDelivery, listDeliveries, redeliver } from '../../../usecases/webhooks/deliveries';
import { getWebhook, listWebhooks } from '../../../usecases/webhooks/subscriptions';
import { DELIVERY_STATES, type DeliveryState } from '../../../usecases/webhooks/views';
import { type ConsoleViewer, redirectWithFlash, requireScope, sendPage } from '../context';
import type { ConsoleDeps } from '../deps';
import { attempt, flashOf, listQuery } from '../forms';

const NAV = '/console/webhooks';

/** The delivery-state filter: '' for all, 400 for a state the API's listWebhookDeliveries does not take. */
function stateOf(query: unknown): DeliveryState | '' {
  const s = (query as { state?: unknown } | undefined)?.state;
  if (typeof s !== 'string' || s === '') return '';
  if (!(DELIVERY_STATES as readonly string[]).includes(s)) {
    throw new ProblemError('validation_failed', 'The state is not one deliveries have.', { errors: [{ path: 'query.state', message: `Expected one of ${DELIVERY_STATES.join(', ')}` }] });
  }
  return s as DeliveryState;
}

/** Webhook subscriptions, each with its delivery log; a delivery with its attempts and Redeliver. */
export const webhookPages: FastifyPluginAsync<ConsoleDeps> = async (app, deps) => {
  async function deliveryPage(v: ConsoleViewer, webhookId: string, deliveryId: string, problem: FormProblem | null = null) {
    const webhook = await getWebhook(v.ctx, webhookId);
    const delivery = await getDelivery(v.ctx, webhookId, deliveryId);
    const body = deliveryDetailBody({ webhook, delivery, csrf: v.csrf, canRedeliver: v.can('write:config'), temporalUiUrl: deps.temporalUiUrl, problem });
    return { title: `Delivery: ${delivery.event_type}`, body };
  }

  app.get('/webhooks', async (request, reply) => {
    const v = requireScope(request, 'read:config');
    const page = await listWebhooks(v.ctx, listQuery(request.query, 50));
    return sendPage(reply, v, NAV, { title: 'Webhooks', flash: flashOf(request.query), body: webhookListBody(page.items, page.nextCursor) });
  });

  app.get<{ Params: { id: string } }>('/webhooks/:id', async (request, reply) => {
    const v = requireScope(request, 'read:config');
    const webhook = await getWebhook(v.ctx, request.params.id);
    const state = stateOf(request.query);
    const page = await listDeliveries(v.ctx, webhook.id, { ...listQuery(request.query, 50), ...(state ? { state } : {}) });
    const body = webhookDetailBody({ webhook, deliveries: page.items, nextCursor: page.nextCursor, stateFilter: state, states: DELIVERY_STATES });
    return sendPage(reply, v, NAV, { title: `Webhook: ${webhook.url}`, flash: flashOf(request.query), body });
  });

  app.get<{ Params: { id: string; deliveryId: string } }>('/webhooks/:id/deliveries/:deliveryId', async (request, reply) => {
    const v = requireScope(request, 'read:config');
    return sendPage(reply, v, NAV, { ...(await deliveryPage(v, request.params.id, request.params.deliveryId)), flash: flashOf(request.query) });
  });

  // The API's redeliverWebhookDelivery: a new delivery of the same event, started at once when a starter is wired.
  app.post<{ Params: { id: string; deliveryId: string } }>('/webhooks/:id/deliveries/:deliveryId/redeliver', async (request, reply) => {
    const v = requireScope(request, 'write:config');
    const { id, deliveryId } = request.params;
    const done = await attempt(() => redeliver(v.ctx, { starter: deps.webhookStarter }, id, deliveryId));
    if (done.ok) return redirectWithFlash(reply, deliveryHref(id, done.value.id), 'Queued a new delivery of the same event (same webhook-id).');
    if (done.status === 404) throw new ProblemError('not_found', done.problem.detail);
    return sendPage(reply, v, NAV, await deliveryPage(v, id, deliveryId, done.problem), done.status);
  });
};
