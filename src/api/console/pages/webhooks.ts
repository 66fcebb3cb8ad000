import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { ProblemError } from '../../../domain/error-catalog';
import type { FormProblem } from '../../../render/console/forms';
import {
  EMPTY_WEBHOOK_FORM,
  type WebhookFormValues,
  webhookActions,
  webhookDeleteBody,
  webhookFormBody,
  webhookSecretBody,
} from '../../../render/console/pages/webhook-form';
import {
  deliveryDetailBody,
  deliveryHref,
  webhookDetailBody,
  webhookHref,
  webhookListBody,
} from '../../../render/console/pages/webhooks';
import { getDelivery, listDeliveries, redeliver } from '../../../usecases/webhooks/deliveries';
import { sendTestDelivery } from '../../../usecases/webhooks/test-delivery';
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listWebhooks,
  revealWebhookSecret,
  rotateWebhookSecret,
  updateWebhook,
} from '../../../usecases/webhooks/subscriptions';
import { DELIVERY_STATES, type DeliveryState } from '../../../usecases/webhooks/views';
import { WebhookCreateBody, WebhookPatchBody } from '../../schemas/webhooks';
import { type ConsoleViewer, redirectWithFlash, requireScope, sendPage } from '../context';
import type { ConsoleDeps } from '../deps';
import { attempt, field, fields, flashOf, listQuery, validated } from '../forms';

const NAV = '/console/webhooks';
type IdRequest = { Params: { id: string } };

/** The delivery-state filter: '' for all, 400 for a state the API's listWebhookDeliveries does not take. */
function stateOf(query: unknown): DeliveryState | '' {
  const s = (query as { state?: unknown } | undefined)?.state;
  if (typeof s !== 'string' || s === '') return '';
  if (!(DELIVERY_STATES as readonly string[]).includes(s)) {
    throw new ProblemError('validation_failed', 'The state is not one deliveries have.', {
      errors: [{ path: 'query.state', message: `Expected one of ${DELIVERY_STATES.join(', ')}` }],
    });
  }
  return s as DeliveryState;
}

function formValues(body: unknown): WebhookFormValues {
  return {
    url: field(body, 'url').trim(),
    description: field(body, 'description'),
    event_types: fields(body, 'event_types'),
    enabled: field(body, 'enabled') === 'true',
    secret: field(body, 'secret').trim(),
  };
}

/** A 404 of the use case is the page's 404; any other problem is shown on the page. */
function notFoundOf(r: { status: number; problem: FormProblem }): void {
  if (r.status === 404) throw new ProblemError('not_found', r.problem.detail);
}

/** Webhook subscriptions: list, create (secret once), edit, send test, rotate, disable/enable, delete; the delivery log and Redeliver. */
export const webhookPages: FastifyPluginAsync<ConsoleDeps> = async (app, deps) => {
  async function deliveryPage(
    v: ConsoleViewer,
    webhookId: string,
    deliveryId: string,
    problem: FormProblem | null = null,
  ) {
    const webhook = await getWebhook(v.ctx, webhookId);
    const delivery = await getDelivery(v.ctx, webhookId, deliveryId);
    const body = deliveryDetailBody({
      webhook,
      delivery,
      csrf: v.csrf,
      canRedeliver: v.can('write:config'),
      temporalUiUrl: deps.temporalUiUrl,
      problem,
      zone: v.timeZone,
    });
    return { title: `Delivery: ${delivery.event_type}`, body };
  }

  const sendDetail = async (
    reply: FastifyReply,
    v: ConsoleViewer,
    id: string,
    query: unknown,
    failed?: { problem: FormProblem; status: number },
  ) => {
    const webhook = await getWebhook(v.ctx, id);
    const state = stateOf(query);
    const page = await listDeliveries(v.ctx, webhook.id, { ...listQuery(query, 50), ...(state ? { state } : {}) });
    const actions = v.can('write:config') ? webhookActions({ webhook, csrf: v.csrf }) : '';
    const body = webhookDetailBody({
      webhook,
      deliveries: page.items,
      nextCursor: page.nextCursor,
      stateFilter: state,
      states: DELIVERY_STATES,
      actions,
      problem: failed?.problem ?? null,
      zone: v.timeZone,
    });
    return sendPage(
      reply,
      v,
      NAV,
      { title: `Webhook: ${webhook.url}`, flash: failed ? null : flashOf(query), body },
      failed?.status,
    );
  };

  app.get('/webhooks', async (request, reply) => {
    const v = requireScope(request, 'read:config');
    const page = await listWebhooks(v.ctx, listQuery(request.query, 50));
    return sendPage(reply, v, NAV, {
      title: 'Webhooks',
      flash: flashOf(request.query),
      body: webhookListBody(page.items, page.nextCursor, v.can('write:config'), v.timeZone),
    });
  });

  app.get('/webhooks/new', async (request, reply) => {
    const v = requireScope(request, 'write:config');
    return sendPage(reply, v, NAV, {
      title: 'New webhook',
      body: webhookFormBody({ csrf: v.csrf, values: EMPTY_WEBHOOK_FORM }),
    });
  });

  // The API's createWebhook; the answer shows the secret once (a page, not a redirect: it must not be stored anywhere to show it later).
  app.post('/webhooks/new', async (request, reply) => {
    const v = requireScope(request, 'write:config');
    const values = formValues(request.body);
    const input = {
      url: values.url,
      event_types: values.event_types,
      description: values.description.trim() ? values.description : null,
      enabled: values.enabled,
      ...(values.secret ? { secret: values.secret } : {}),
    };
    const r = await attempt(async () => {
      const view = await createWebhook(v.ctx, deps.box, validated(WebhookCreateBody, input));
      return { view, secret: await revealWebhookSecret(v.ctx, deps.box, view.id) };
    });
    if (!r.ok)
      return sendPage(
        reply,
        v,
        NAV,
        { title: 'New webhook', body: webhookFormBody({ csrf: v.csrf, values, problem: r.problem }) },
        r.status,
      );
    return sendPage(
      reply,
      v,
      NAV,
      {
        title: 'Webhook created',
        body: webhookSecretBody({ webhook: r.value.view, secret: r.value.secret, rotated: false, zone: v.timeZone }),
      },
      201,
    );
  });

  app.get<IdRequest>('/webhooks/:id', async (request, reply) =>
    sendDetail(reply, requireScope(request, 'read:config'), request.params.id, request.query),
  );

  app.get<IdRequest>('/webhooks/:id/edit', async (request, reply) => {
    const v = requireScope(request, 'write:config');
    const w = await getWebhook(v.ctx, request.params.id);
    const values = {
      url: w.url,
      description: w.description ?? '',
      event_types: w.event_types,
      enabled: w.enabled,
      secret: '',
    };
    return sendPage(reply, v, NAV, {
      title: `Edit webhook`,
      body: webhookFormBody({ csrf: v.csrf, values, existing: w }),
    });
  });

  app.post<IdRequest>('/webhooks/:id/edit', async (request, reply) => {
    const v = requireScope(request, 'write:config');
    const w = await getWebhook(v.ctx, request.params.id);
    const values = formValues(request.body);
    const patch = {
      url: values.url,
      event_types: values.event_types,
      description: values.description.trim() ? values.description : null,
    };
    const r = await attempt(() => updateWebhook(v.ctx, w.id, validated(WebhookPatchBody, patch)));
    if (!r.ok) {
      notFoundOf(r);
      return sendPage(
        reply,
        v,
        NAV,
        { title: 'Edit webhook', body: webhookFormBody({ csrf: v.csrf, values, existing: w, problem: r.problem }) },
        r.status,
      );
    }
    return redirectWithFlash(
      reply,
      webhookHref(w.id),
      w.config_key
        ? 'Webhook saved. It is managed by config as code: the next apply overwrites this edit.'
        : 'Webhook saved.',
    );
  });

  // "Send test": the API's testWebhook, a webhook.test event for this webhook alone.
  app.post<IdRequest>('/webhooks/:id/test', async (request, reply) => {
    const v = requireScope(request, 'write:config');
    const w = await getWebhook(v.ctx, request.params.id);
    const r = await attempt(() =>
      sendTestDelivery(v.ctx, { starter: deps.webhookStarter }, w.id, `console:${v.session.user.id}`),
    );
    if (r.ok) return redirectWithFlash(reply, deliveryHref(w.id, r.value.id), 'Test delivery queued');
    notFoundOf(r);
    return sendDetail(reply, v, w.id, {}, r);
  });

  app.post<IdRequest>('/webhooks/:id/rotate-secret', async (request, reply) => {
    const v = requireScope(request, 'write:config');
    const r = await attempt(() => rotateWebhookSecret(v.ctx, deps.box, request.params.id));
    if (!r.ok) {
      notFoundOf(r);
      return sendDetail(reply, v, request.params.id, {}, r);
    }
    return sendPage(reply, v, NAV, {
      title: 'Secret rotated',
      body: webhookSecretBody({ webhook: r.value.view, secret: r.value.secret, rotated: true, zone: v.timeZone }),
    });
  });

  for (const [action, enabled] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    app.post<IdRequest>(`/webhooks/:id/${action}`, async (request, reply) => {
      const v = requireScope(request, 'write:config');
      const r = await attempt(() => updateWebhook(v.ctx, request.params.id, validated(WebhookPatchBody, { enabled })));
      if (r.ok)
        return redirectWithFlash(
          reply,
          webhookHref(r.value.id),
          enabled
            ? 'Webhook enabled: new events are delivered.'
            : 'Webhook disabled: no new deliveries; retries stop at their next attempt.',
        );
      notFoundOf(r);
      return sendDetail(reply, v, request.params.id, {}, r);
    });
  }

  app.get<IdRequest>('/webhooks/:id/delete', async (request, reply) => {
    const v = requireScope(request, 'write:config');
    const webhook = await getWebhook(v.ctx, request.params.id);
    return sendPage(reply, v, NAV, { title: 'Delete webhook?', body: webhookDeleteBody({ csrf: v.csrf, webhook }) });
  });

  app.post<IdRequest>('/webhooks/:id/delete', async (request, reply) => {
    const v = requireScope(request, 'write:config');
    const webhook = await getWebhook(v.ctx, request.params.id);
    const r = await attempt(() => deleteWebhook(v.ctx, webhook.id));
    if (r.ok) return redirectWithFlash(reply, NAV, `Webhook to ${webhook.url} deleted.`);
    return sendPage(
      reply,
      v,
      NAV,
      { title: 'Delete webhook?', body: webhookDeleteBody({ csrf: v.csrf, webhook, problem: r.problem }) },
      r.status,
    );
  });

  app.get<{ Params: { id: string; deliveryId: string } }>(
    '/webhooks/:id/deliveries/:deliveryId',
    async (request, reply) => {
      const v = requireScope(request, 'read:config');
      return sendPage(reply, v, NAV, {
        ...(await deliveryPage(v, request.params.id, request.params.deliveryId)),
        flash: flashOf(request.query),
      });
    },
  );

  // The API's redeliverWebhookDelivery: a new delivery of the same event, started at once when a starter is wired.
  app.post<{ Params: { id: string; deliveryId: string } }>(
    '/webhooks/:id/deliveries/:deliveryId/redeliver',
    async (request, reply) => {
      const v = requireScope(request, 'write:config');
      const { id, deliveryId } = request.params;
      const done = await attempt(() => redeliver(v.ctx, { starter: deps.webhookStarter }, id, deliveryId));
      if (done.ok)
        return redirectWithFlash(
          reply,
          deliveryHref(id, done.value.id),
          'Queued a new delivery of the same event (same webhook-id).',
        );
      if (done.status === 404) throw new ProblemError('not_found', done.problem.detail);
      return sendPage(reply, v, NAV, await deliveryPage(v, id, deliveryId, done.problem), done.status);
    },
  );
};
