import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { ProblemError } from '../../../../domain/error-catalog';
import type { FormValues } from '../../../../render/console/alerting-parts';
import {
  channelDetailBody,
  channelFormBody,
  channelFormType,
  channelHref,
  channelListBody,
} from '../../../../render/console/alerting-channels';
import type { FormProblem } from '../../../../render/console/forms';
import { testChannelSend } from '../../../../usecases/alerting/channel-tests';
import {
  createChannel,
  deleteChannel,
  getChannel,
  listChannels,
  revealSigningSecret,
  updateChannel,
} from '../../../../usecases/alerting/channels';
import { listSends } from '../../../../usecases/alerting/sends';
import { CHANNEL_TYPES, type ChannelView } from '../../../../usecases/alerting/views';
import { ChannelCreateBody, ChannelPatchBody } from '../../../schemas/alerting';
import { type ConsoleViewer, redirectWithFlash, requireScope, sendPage } from '../../context';
import type { ConsoleDeps } from '../../deps';
import { confirmDeleteRoute } from './confirm-delete';
import { attempt, field, flashOf, listQuery, validated } from '../../forms';
import { alertPorts } from './ports';

const NAV = '/console/alerts';
type IdRequest = { Params: { id: string } };
type Failed = { problem: FormProblem; status: number };

/** The addresses of the textarea: one per line (commas also separate), blanks dropped. */
const addressesOf = (text: string) =>
  text
    .split(/[\n,]/)
    .map((a) => a.trim())
    .filter(Boolean);

/** A Slack app's signing secret: typed, it is set (or replaced); on edit, "remove" ticked with none typed clears it; else unchanged. */
function slackSigningSecret(body: unknown, forPatch: boolean): { signing_secret?: string | null } {
  const typed = field(body, 'signing_secret').trim();
  if (typed) return { signing_secret: typed };
  return forPatch && field(body, 'remove_signing_secret') === 'true' ? { signing_secret: null } : {};
}

/** PagerDuty's or Opsgenie's own endpoint: empty is the vendor's (left out on create, null on edit). */
function apiUrl(body: unknown, forPatch: boolean): { api_url?: string | null } {
  const typed = field(body, 'api_url').trim();
  if (typed) return { api_url: typed };
  return forPatch ? { api_url: null } : {};
}

/** The type's own fields of the form, as the API's create body has them. */
function typeFields(type: string, body: unknown, forPatch: boolean): Record<string, unknown> {
  const secret = (name: string) => {
    const v = field(body, name).trim();
    return forPatch && v === '' ? {} : { [name]: v };
  };
  switch (type) {
    case 'email':
      return { addresses: addressesOf(field(body, 'addresses')) };
    case 'slack':
      return { ...secret('url'), ...slackSigningSecret(body, forPatch) };
    case 'teams':
    case 'discord':
    case 'webhook':
      return secret('url');
    case 'pagerduty':
      return { ...secret('routing_key'), ...apiUrl(body, forPatch) };
    case 'opsgenie':
      return { ...secret('api_key'), region: field(body, 'region') || 'us', ...apiUrl(body, forPatch) };
    default:
      return {};
  }
}

/** What a refused form showed, without its secrets (routing key, API key, signing secret: they are typed again). */
function echo(body: unknown): FormValues {
  const kept = ['name', 'type', 'addresses', 'url', 'region', 'api_url', 'remove_signing_secret', 'enabled'];
  return Object.fromEntries(kept.map((name) => [name, field(body, name)]));
}

function testNotice(r: Awaited<ReturnType<typeof testChannelSend>>): string {
  const answer = r.status_code !== null ? `HTTP ${r.status_code}` : (r.error ?? 'no answer');
  const error = r.error && r.status_code !== null ? ` (${r.error})` : '';
  const said = r.response
    ? ` The receiver answered: ${r.response.replace(/\s+/g, ' ').trim()}`
    : ' The receiver sent no body.';
  return `Test ${r.state === 'succeeded' ? 'sent' : r.state}: ${answer}${error} in ${r.latency_ms} ms.${said}`;
}

/** Notification channels (API: /v1/notification-channels): list, create, edit, delete, and "send test" with the receiver's answer. */
export const channelPages: FastifyPluginAsync<ConsoleDeps> = async (app, deps) => {
  const { tester } = alertPorts(deps);

  app.get('/alerts/channels', async (request, reply) => {
    const v = requireScope(request, 'read:alerts');
    const page = await listChannels(v.ctx, listQuery(request.query, 50));
    return sendPage(reply, v, NAV, {
      title: 'Notification channels',
      flash: flashOf(request.query),
      body: channelListBody({
        rows: page.items,
        nextCursor: page.nextCursor,
        canWrite: v.can('write:alerts'),
        zone: v.timeZone,
      }),
    });
  });

  const sendForm = (
    reply: FastifyReply,
    v: ConsoleViewer,
    values: FormValues,
    channel?: ChannelView,
    failed?: Failed,
  ) =>
    sendPage(
      reply,
      v,
      NAV,
      {
        title: channel ? `Edit channel: ${channel.name}` : 'New notification channel',
        body: channelFormBody({ csrf: v.csrf, values, types: CHANNEL_TYPES, channel, problem: failed?.problem }),
      },
      failed?.status,
    );

  // `?type=` from the type chooser: the form then holds that type's fields only.
  app.get('/alerts/channels/new', async (request, reply) => {
    const asked = (request.query as Record<string, unknown> | undefined)?.type;
    return sendForm(reply, requireScope(request, 'write:alerts'), {
      type: channelFormType(typeof asked === 'string' ? asked : '', CHANNEL_TYPES),
      enabled: 'true',
      region: 'us',
    });
  });

  app.post('/alerts/channels/new', async (request, reply) => {
    const v = requireScope(request, 'write:alerts');
    const b = request.body;
    const type = field(b, 'type');
    const input = {
      name: field(b, 'name'),
      type,
      enabled: field(b, 'enabled') === 'true',
      ...typeFields(type, b, false),
    };
    const r = await attempt(async () => {
      const view = await createChannel(v.ctx, deps.box, validated(ChannelCreateBody, input));
      return { view, secret: view.type === 'webhook' ? await revealSigningSecret(v.ctx, deps.box, view.id) : null };
    });
    if (!r.ok) return sendForm(reply, v, echo(b), undefined, r);
    // The signing secret is shown once, as the API answers it once: in the notice of the next page (a session-bound, one-time cookie).
    const notice = r.value.secret
      ? `Channel created. Its signing secret, shown only now: ${r.value.secret}`
      : 'Channel created. Send a test to check that it arrives.';
    return redirectWithFlash(reply, channelHref(r.value.view.id), notice);
  });

  const sendDetail = async (
    reply: FastifyReply,
    v: ConsoleViewer,
    id: string,
    query: unknown,
    flash: string | null,
    failed?: Failed,
  ) => {
    const channel = await getChannel(v.ctx, id);
    const sends = await listSends(v.ctx, id, listQuery(query, 25));
    if (failed?.status === 503) reply.header('retry-after', '5');
    const body = channelDetailBody({
      channel,
      sends: sends.items,
      nextCursor: sends.nextCursor,
      csrf: v.csrf,
      canWrite: v.can('write:alerts'),
      zone: v.timeZone,
      publicBaseUrl: deps.publicBaseUrl,
      problem: failed?.problem,
    });
    return sendPage(reply, v, NAV, { title: `Channel: ${channel.name}`, flash, body }, failed?.status);
  };

  app.get<IdRequest>('/alerts/channels/:id', async (request, reply) =>
    sendDetail(reply, requireScope(request, 'read:alerts'), request.params.id, request.query, flashOf(request.query)),
  );

  app.get<IdRequest>('/alerts/channels/:id/edit', async (request, reply) => {
    const v = requireScope(request, 'write:alerts');
    const c = await getChannel(v.ctx, request.params.id);
    return sendForm(
      reply,
      v,
      {
        name: c.name,
        enabled: c.enabled ? 'true' : '',
        addresses: (c.settings.addresses ?? []).join('\n'),
        region: c.settings.region ?? 'us',
        api_url: c.settings.api_url ?? '',
      },
      c,
    );
  });

  app.post<IdRequest>('/alerts/channels/:id/edit', async (request, reply) => {
    const v = requireScope(request, 'write:alerts');
    const c = await getChannel(v.ctx, request.params.id);
    const b = request.body;
    const patch = { name: field(b, 'name'), enabled: field(b, 'enabled') === 'true', ...typeFields(c.type, b, true) };
    const r = await attempt(() => updateChannel(v.ctx, deps.box, c.id, validated(ChannelPatchBody, patch)));
    if (!r.ok) return sendForm(reply, v, echo(b), c, r);
    return redirectWithFlash(reply, channelHref(c.id), 'Channel saved.');
  });

  app.post<IdRequest>('/alerts/channels/:id/test', async (request, reply) => {
    const v = requireScope(request, 'write:alerts');
    const { id } = request.params;
    const r = await attempt(() => testChannelSend(v.ctx, tester, id));
    if (r.ok) return redirectWithFlash(reply, channelHref(id), testNotice(r.value));
    if (r.status === 404) throw new ProblemError('not_found', r.problem.detail);
    return sendDetail(reply, v, id, {}, null, r);
  });

  confirmDeleteRoute(app, {
    base: '/alerts/channels',
    list: '/console/alerts/channels',
    nav: NAV,
    noun: 'notification channel',
    load: getChannel,
    consequence:
      'Nothing is sent to it any more, and the one-click links it carried stop working; a policy that names it must be changed first.',
  });

  app.post<IdRequest>('/alerts/channels/:id/delete', async (request, reply) => {
    const v = requireScope(request, 'write:alerts');
    const { id } = request.params;
    const r = await attempt(() => deleteChannel(v.ctx, id));
    if (r.ok) return redirectWithFlash(reply, '/console/alerts/channels', `Channel "${r.value.name}" deleted.`);
    if (r.status === 404) throw new ProblemError('not_found', r.problem.detail);
    return sendDetail(reply, v, id, {}, null, r);
  });
};
