import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { ProblemError } from '../../../domain/error-catalog';
import {
  type Choice,
  EMPTY_INCIDENT_FORM,
  INCIDENT_FILTER_STATES,
  type IncidentActionProblem,
  type IncidentFormValues,
  type TimelineItem,
  incidentDetailBody,
  incidentFormBody,
  incidentListBody,
} from '../../../render/console/pages/incidents';
import {
  addIncidentMessage,
  chosenImpacts,
  createIncident,
  deleteIncident,
  getIncident,
  listIncidents,
  publishIncident,
  resolveIncident,
  updateIncident,
} from '../../../usecases/incidents/incidents';
import { type IncidentTemplateView, incidentTemplateForForm } from '../../../usecases/incidents/templates';
import { incidentFromAlert } from '../../../usecases/incidents/from-alert';
import { incidentFromMetric } from '../../../usecases/incidents/from-metric';
import { editIncidentMessage } from '../../../usecases/incidents/message-edits';
import { subscriberPreview } from '../../../usecases/incidents/subscriber-preview';
import {
  IncidentCreateBody,
  IncidentMessageBody,
  IncidentMessagePatchBody,
  IncidentPatchBody,
  IncidentResolveBody,
} from '../../schemas/incidents';
import { type ConsoleViewer, LIVE_SECONDS, redirectWithFlash, requireScope, sendPage } from '../context';
import type { ConsoleDeps } from '../deps';
import { attempt, field, fields, filterOf, flashOf, listQuery, optionalField, validated } from '../forms';
import { customerChoices, serviceChoices } from '../choices';

type IdRequest = { Params: { id: string } };

function formValues(body: unknown): IncidentFormValues {
  return {
    title: field(body, 'title'),
    severity: field(body, 'severity') || 'minor',
    affected_services: fields(body, 'affected_services'),
    visible_to_customer_ids: fields(body, 'visible_to_customer_ids'),
    message_type: field(body, 'initial_message.type') || 'Investigating',
    message_body: field(body, 'initial_message.body'),
    publish: field(body, 'publish') === 'true',
    impacts: impactsOf(body),
    notify: field(body, 'initial_message.notify_subscribers') === 'true',
  };
}

/** The `impact.<service id>` selects of a form that name an impact (the others: from the severity). */
export function impactsOf(body: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries((body as Record<string, unknown> | undefined) ?? {})) {
    if (k.startsWith('impact.') && typeof v === 'string' && v !== '') out[k.slice('impact.'.length)] = v;
  }
  return out;
}

/** The chosen impacts as the API's `service_impacts` (its schema checks the words). */
export function serviceImpactsOf(impacts: Record<string, string>): { service_id: string; impact: string }[] {
  return Object.entries(impacts).map(([service_id, impact]) => ({ service_id, impact }));
}

/** A template's fields as the new-incident form's values: starting from it is one more click. */
function fromTemplate(
  t: IncidentTemplateView & { chosen_impacts: string[] },
  live: readonly Choice[],
): IncidentFormValues {
  const known = new Set(live.map((c) => c.id));
  const chosen = Object.fromEntries(
    t.service_impacts.filter((x) => known.has(x.service_id)).map((x) => [x.service_id, x.impact]),
  );
  return {
    ...EMPTY_INCIDENT_FORM,
    title: t.title,
    severity: t.severity,
    affected_services: t.affected_services.filter((id) => known.has(id)),
    message_type: t.message_type,
    message_body: t.body ?? '',
    // Only impacts the template chose: the others keep following the severity.
    impacts: Object.fromEntries(Object.entries(chosen).filter(([id]) => t.chosen_impacts.includes(id))),
  };
}

/** The incident's timeline: its messages and its changes of state, oldest first. */
function timelineOf(i: Awaited<ReturnType<typeof getIncident>>): TimelineItem[] {
  const steps: TimelineItem[] = [
    { at: i.created_at, label: 'Created as a draft', body: null },
    ...(i.published_at ? [{ at: i.published_at, label: 'Published', body: null }] : []),
    ...(i.resolved_at ? [{ at: i.resolved_at, label: 'Resolved', body: null }] : []),
    ...(i.canceled_at ? [{ at: i.canceled_at, label: 'Canceled', body: null }] : []),
  ];
  const messages = i.messages.map((m) => ({
    at: m.posted_at,
    label: `Message: ${m.type}${m.notify_subscribers ? '' : ' (subscribers not emailed)'}`,
    body: m.body,
  }));
  // Stable: at the same instant a change of state comes before the messages posted with it.
  return [...steps, ...messages]
    .map((x, n) => ({ x, n }))
    .sort((a, b) => Date.parse(a.x.at) - Date.parse(b.x.at) || a.n - b.n)
    .map(({ x }) => x);
}

/** Incidents: list, create, and the detail page with its timeline and actions (API: /v1/incidents). */
export const incidentPages: FastifyPluginAsync<ConsoleDeps> = async (app, deps) => {
  app.get('/incidents', async (request, reply) => {
    const v = requireScope(request, 'read:incidents');
    const state = filterOf(request.query, 'state', INCIDENT_FILTER_STATES);
    const page = await listIncidents(v.ctx, { ...listQuery(request.query), ...(state ? { state } : {}) });
    const services = await serviceChoices(v.ctx);
    return sendPage(reply, v, '/console/incidents', {
      title: 'Incidents',
      flash: flashOf(request.query),
      body: incidentListBody({
        rows: page.items,
        services,
        state,
        nextCursor: page.nextCursor,
        canWrite: v.can('write:incidents'),
        zone: v.timeZone,
      }),
      live: LIVE_SECONDS,
    });
  });

  const sendForm = async (
    reply: FastifyReply,
    v: ConsoleViewer,
    values: IncidentFormValues | ((services: Choice[]) => IncidentFormValues),
    failed?: { problem: IncidentActionProblem['problem']; status: number },
    template?: { id: string; name: string },
  ) => {
    const [services, customers] = [await serviceChoices(v.ctx), await customerChoices(v.ctx)];
    const filled = typeof values === 'function' ? values(services) : values;
    return sendPage(
      reply,
      v,
      '/console/incidents',
      {
        title: 'New incident',
        body: incidentFormBody({
          csrf: v.csrf,
          values: filled,
          services,
          customers,
          problem: failed?.problem,
          template: template ?? null,
        }),
      },
      failed?.status,
    );
  };

  /** `?template=<id>`: the form filled from that template ("Start incident" on the templates page). */
  app.get('/incidents/new', async (request, reply) => {
    const v = requireScope(request, 'write:incidents');
    const templateId = field(request.query, 'template');
    if (!templateId) return sendForm(reply, v, EMPTY_INCIDENT_FORM);
    const t = await incidentTemplateForForm(v.ctx, templateId);
    return sendForm(reply, v, (services) => fromTemplate(t, services), undefined, { id: t.id, name: t.name });
  });

  app.post('/incidents/new', async (request, reply) => {
    const v = requireScope(request, 'write:incidents');
    const b = request.body;
    const values = formValues(b);
    const messageBody = optionalField(b, 'initial_message.body');
    const input = {
      title: values.title,
      severity: values.severity,
      affected_services: values.affected_services,
      ...(values.visible_to_customer_ids.length ? { visible_to_customer_ids: values.visible_to_customer_ids } : {}),
      ...(Object.keys(values.impacts).length ? { service_impacts: serviceImpactsOf(values.impacts) } : {}),
      publish: values.publish,
      ...(messageBody
        ? {
            initial_message: {
              type: values.message_type,
              body: field(b, 'initial_message.body'),
              notify_subscribers: values.notify,
            },
          }
        : {}),
    };
    const r = await attempt(() => createIncident(v.ctx, validated(IncidentCreateBody, input)));
    if (!r.ok) return sendForm(reply, v, values, r);
    return redirectWithFlash(
      reply,
      `/console/incidents/${r.value.id}`,
      r.value.state === 'draft' ? 'Draft incident created.' : 'Incident created and published.',
    );
  });

  const sendDetail = async (
    reply: FastifyReply,
    v: ConsoleViewer,
    id: string,
    flash: string | null,
    failed?: IncidentActionProblem & { status: number },
  ) => {
    const i = await getIncident(v.ctx, id);
    const services = await serviceChoices(v.ctx);
    const detail = {
      ...i,
      affected_services: services.filter((s) => i.affected_services.includes(s.id)),
      affected_ids: i.affected_services,
      services,
      chosen_impacts: await chosenImpacts(v.ctx, id),
      customers: i.visible_to_customer_ids,
      timeline: timelineOf(i),
      ...(i.state === 'draft' ? { preview: await subscriberPreview(v.ctx, deps.statusSite, id) } : {}),
    };
    const body = incidentDetailBody(detail, {
      csrf: v.csrf,
      canWrite: v.can('write:incidents'),
      zone: v.timeZone,
      failed,
    });
    return sendPage(
      reply,
      v,
      '/console/incidents',
      { title: i.title, flash, body, ...(failed ? {} : { live: LIVE_SECONDS }) },
      failed?.status,
    );
  };

  app.get<IdRequest>('/incidents/:id', async (request, reply) =>
    sendDetail(reply, requireScope(request, 'read:incidents'), request.params.id, flashOf(request.query)),
  );

  /** A form of the detail page: success redirects back with `done`; a problem re-renders the page with it next to that form. */
  const action = (
    form: IncidentActionProblem['form'],
    run: (v: ConsoleViewer, id: string, body: unknown) => Promise<unknown>,
    done: string,
    after?: (id: string) => string,
  ) => {
    app.post<IdRequest>(`/incidents/:id/${form}`, async (request, reply) => {
      const v = requireScope(request, 'write:incidents');
      const { id } = request.params;
      const r = await attempt(() => run(v, id, request.body));
      if (r.ok) return redirectWithFlash(reply, after ? after(id) : `/console/incidents/${id}`, done);
      if (r.status === 404) throw new ProblemError('not_found', r.problem.detail);
      const values = {
        type: field(request.body, 'type'),
        body: field(request.body, 'body'),
        message: field(request.body, 'message'),
        notify_subscribers: field(request.body, 'notify_subscribers'),
      };
      const edit =
        form === 'edit'
          ? {
              title: field(request.body, 'title'),
              severity: field(request.body, 'severity'),
              affected_services: fields(request.body, 'affected_services'),
              impacts: impactsOf(request.body),
            }
          : undefined;
      return sendDetail(reply, v, id, null, { form, problem: r.problem, values, edit, status: r.status });
    });
  };

  action('publish', (v, id) => publishIncident(v.ctx, id), 'Incident published.');

  // "Create incident" on a metric's or an alert's page: a draft in customers' words, opened for review before publishing.
  const drafted = 'Draft incident created: check the message customers will read, then publish.';
  app.post<{ Params: { metricId: string } }>('/incidents/from-metric/:metricId', async (request, reply) => {
    const v = requireScope(request, 'write:incidents');
    const i = await incidentFromMetric(v.ctx, request.params.metricId);
    return redirectWithFlash(reply, `/console/incidents/${i.id}`, drafted);
  });
  app.post<{ Params: { alertId: string } }>('/incidents/from-alert/:alertId', async (request, reply) => {
    const v = requireScope(request, 'write:incidents');
    const r = await attempt(() => incidentFromAlert(v.ctx, request.params.alertId));
    if (r.ok) return redirectWithFlash(reply, `/console/incidents/${r.value.id}`, drafted);
    if (r.status === 404) throw new ProblemError('not_found', r.problem.detail);
    // An alert about no service customers see: back to the alert, saying why.
    return redirectWithFlash(
      reply,
      `/console/alerts/${encodeURIComponent(request.params.alertId)}`,
      `No incident drafted: ${r.problem.errors?.[0]?.message ?? r.problem.detail}.`,
    );
  });

  // The internal note (PATCH /v1/incidents/{id} internal_note; empty clears it).
  app.post<IdRequest>('/incidents/:id/note', async (request, reply) => {
    const v = requireScope(request, 'write:incidents');
    const { id } = request.params;
    const note = field(request.body, 'internal_note');
    const r = await attempt(() =>
      updateIncident(v.ctx, id, validated(IncidentPatchBody, { internal_note: note.trim() ? note : null })),
    );
    if (r.ok) return redirectWithFlash(reply, `/console/incidents/${id}`, 'Internal note saved.');
    if (r.status === 404) throw new ProblemError('not_found', r.problem.detail);
    return sendDetail(reply, v, id, null, {
      form: 'note',
      problem: r.problem,
      messageEdit: { messageId: null, problem: r.problem, body: note },
      status: r.status,
    });
  });

  // Edit a message (PATCH /v1/incidents/{id}/messages/{messageId}): subscribers are emailed again only when the box is ticked.
  app.post<{ Params: { id: string; messageId: string } }>(
    '/incidents/:id/messages/:messageId/edit',
    async (request, reply) => {
      const v = requireScope(request, 'write:incidents');
      const { id, messageId } = request.params;
      const body = field(request.body, 'body');
      const r = await attempt(() =>
        editIncidentMessage(
          v.ctx,
          id,
          messageId,
          validated(IncidentMessagePatchBody, {
            body,
            notify_subscribers: field(request.body, 'notify_subscribers') === 'true',
          }),
        ),
      );
      if (r.ok) return redirectWithFlash(reply, `/console/incidents/${id}`, 'Message saved.');
      if (r.status === 404) throw new ProblemError('not_found', r.problem.detail);
      return sendDetail(reply, v, id, null, {
        form: 'message-edit',
        problem: r.problem,
        messageEdit: { messageId, problem: r.problem, body },
        status: r.status,
      });
    },
  );
  action(
    'message',
    (v, id, body) =>
      addIncidentMessage(
        v.ctx,
        id,
        validated(IncidentMessageBody, {
          type: field(body, 'type'),
          body: field(body, 'body'),
          notify_subscribers: field(body, 'notify_subscribers') === 'true',
        }),
      ),
    'Message posted.',
  );
  // Title, severity, services and impacts, of a draft or a published incident (PATCH /v1/incidents/{id}).
  action(
    'edit',
    (v, id, body) =>
      updateIncident(
        v.ctx,
        id,
        validated(IncidentPatchBody, {
          title: field(body, 'title'),
          severity: field(body, 'severity'),
          affected_services: fields(body, 'affected_services'),
          service_impacts: serviceImpactsOf(impactsOf(body)),
        }),
      ),
    'Incident updated.',
  );
  action(
    'resolve',
    (v, id, body) => {
      const message = optionalField(body, 'message');
      return resolveIncident(
        v.ctx,
        id,
        validated(IncidentResolveBody, message ? { message: field(body, 'message') } : {})?.message,
      );
    },
    'Incident resolved.',
  );
  action(
    'delete',
    async (v, id) => {
      // The console deletes drafts only (a published incident is resolved instead); the API's DELETE takes any.
      const i = await getIncident(v.ctx, id);
      if (i.state !== 'draft')
        throw new ProblemError(
          'already_published',
          'Only a draft can be deleted here; resolve a published incident instead.',
        );
      return deleteIncident(v.ctx, id);
    },
    'Draft incident deleted.',
    () => '/console/incidents',
  );
};
