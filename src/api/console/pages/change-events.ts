import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { FieldError } from '../../../domain/error-catalog';
import {
  type ChangeEventFormValues,
  EMPTY_CHANGE_FORM,
  changeEventListBody,
} from '../../../render/console/pages/change-events';
import { CHANGE_KINDS, createChangeEvent, listChangeEvents } from '../../../usecases/events/change-events';
import { ChangeEventCreateBody, presentChangeEvent } from '../../schemas/change-events';
import { type ConsoleViewer, redirectWithFlash, requireScope, sendPage } from '../context';
import type { ConsoleDeps } from '../deps';
import { attempt, field, fields, filterOf, flashOf, listQuery, validated, zonedInstantOf } from '../forms';
import { serviceChoices } from '../choices';

/** The source of a change recorded through this form when the form names none. */
const CONSOLE_SOURCE = 'console';

type Failed = Extract<Awaited<ReturnType<typeof attempt>>, { ok: false }>;

function valuesOf(body: unknown): ChangeEventFormValues {
  return {
    kind: field(body, 'kind'),
    title: field(body, 'title'),
    description: field(body, 'description'),
    service_ids: fields(body, 'service_ids'),
    actor: field(body, 'actor'),
    source: field(body, 'source'),
    occurred_at: field(body, 'occurred_at'),
    link_label: field(body, 'links.0.label'),
    link_url: field(body, 'links.0.url'),
  };
}

/**
 * The form as the API's create body: empty optional fields are left out, as a client would,
 * except who made the change (the signed-in user, `you`, unless the form names someone) and where
 * it came from ("console"), so the list always says who recorded a change by hand.
 */
function inputOf(
  values: ChangeEventFormValues,
  you: string,
  timeZone: string,
): { input: Record<string, unknown>; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const input: Record<string, unknown> = { kind: values.kind, title: values.title, service_ids: values.service_ids };
  if (values.description.trim()) input.description = values.description;
  input.actor = values.actor.trim() ? values.actor : you;
  input.source = values.source.trim() ? values.source : CONSOLE_SOURCE;
  if (values.occurred_at.trim()) {
    const iso = zonedInstantOf(values.occurred_at.trim(), timeZone);
    if (iso) input.occurred_at = iso;
    else
      errors.push({ path: 'occurred_at', message: `Enter a date and time (${timeZone}), or leave it empty for now` });
  }
  if (values.link_label.trim() || values.link_url.trim())
    input.links = [{ label: values.link_label, url: values.link_url.trim() }];
  return { input, errors };
}

/** Change events (deploys, configuration changes…): the paged list, and a form to record one (API: /v1/change-events). */
export const changeEventPages: FastifyPluginAsync<ConsoleDeps> = async (app) => {
  const sendList = async (
    request: FastifyRequest,
    reply: FastifyReply,
    v: ConsoleViewer,
    values: ChangeEventFormValues,
    failed?: Failed,
  ) => {
    const kind = filterOf(request.query, 'kind', CHANGE_KINDS);
    const page = await listChangeEvents(v.ctx, { ...listQuery(request.query), ...(kind ? { kind } : {}) });
    return sendPage(
      reply,
      v,
      '/console/change-events',
      {
        title: 'Changes',
        flash: failed ? null : flashOf(request.query),
        body: changeEventListBody({
          rows: page.items.map(presentChangeEvent),
          services: await serviceChoices(v.ctx),
          kinds: CHANGE_KINDS,
          kind,
          nextCursor: page.nextCursor,
          canWrite: v.can('write:incidents'),
          csrf: v.csrf,
          you: v.session.user.email,
          zone: v.timeZone,
          values,
          problem: failed?.problem,
        }),
      },
      failed?.status,
    );
  };

  app.get('/change-events', async (request, reply) =>
    sendList(request, reply, requireScope(request, 'read:incidents'), EMPTY_CHANGE_FORM),
  );

  app.post('/change-events', async (request, reply) => {
    const v = requireScope(request, 'write:incidents');
    const values = valuesOf(request.body);
    const { input, errors } = inputOf(values, v.session.user.email, v.timeZone);
    const r = await attempt(() => createChangeEvent(v.ctx, validated(ChangeEventCreateBody, input, errors)));
    if (!r.ok) return sendList(request, reply, v, values, r);
    return redirectWithFlash(reply, '/console/change-events', `Change recorded: ${r.value.title}`);
  });
};
