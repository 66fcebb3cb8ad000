import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { ProblemError } from '../../../domain/error-catalog';
import {
  EMPTY_TEMPLATE_FORM,
  type TemplateFormValues,
  templateFormBody,
  templateHref,
  templateListBody,
  templateReadBody,
} from '../../../render/console/pages/incident-templates';
import type { FormProblem } from '../../../render/console/forms';
import {
  createIncidentTemplate,
  deleteIncidentTemplate,
  incidentTemplateForForm,
  listIncidentTemplates,
  updateIncidentTemplate,
} from '../../../usecases/incidents/templates';
import { IncidentTemplateCreateBody, IncidentTemplatePatchBody } from '../../schemas/incident-templates';
import { serviceChoices } from '../choices';
import { type ConsoleViewer, redirectWithFlash, requireScope, sendPage } from '../context';
import type { ConsoleDeps } from '../deps';
import { attempt, field, fields, flashOf, listQuery, optionalField, validated } from '../forms';
import { impactsOf, serviceImpactsOf } from './incidents';

const NAV = '/console/incidents';
type IdRequest = { Params: { id: string } };

function formValues(body: unknown): TemplateFormValues {
  return {
    name: field(body, 'name'),
    title: field(body, 'title'),
    body: field(body, 'body'),
    severity: field(body, 'severity') || 'minor',
    message_type: field(body, 'message_type') || 'Investigating',
    affected_services: fields(body, 'affected_services'),
    impacts: impactsOf(body),
  };
}

/** The API body of the form (an empty message: none). */
function inputOf(body: unknown, x: TemplateFormValues) {
  return {
    name: x.name,
    title: x.title,
    body: optionalField(body, 'body') ? x.body : null,
    severity: x.severity,
    message_type: x.message_type,
    affected_services: x.affected_services,
    service_impacts: serviceImpactsOf(x.impacts),
  };
}

/** Incident templates: list, create, edit, delete; "Start incident" opens /console/incidents/new filled from one (API: /v1/incident-templates). */
export const incidentTemplatePages: FastifyPluginAsync<ConsoleDeps> = async (app) => {
  app.get('/incident-templates', async (request, reply) => {
    const v = requireScope(request, 'read:incidents');
    const page = await listIncidentTemplates(v.ctx, listQuery(request.query));
    const services = await serviceChoices(v.ctx);
    return sendPage(reply, v, NAV, {
      title: 'Incident templates',
      flash: flashOf(request.query),
      body: templateListBody({
        rows: page.items,
        services,
        nextCursor: page.nextCursor,
        canWrite: v.can('write:incidents'),
      }),
    });
  });

  const sendForm = async (
    reply: FastifyReply,
    v: ConsoleViewer,
    values: TemplateFormValues,
    o: { id?: string; problem?: FormProblem; status?: number; flash?: string | null } = {},
  ) => {
    const services = await serviceChoices(v.ctx);
    const existing = o.id ? await incidentTemplateForForm(v.ctx, o.id) : null;
    const title = existing ? `Incident template: ${existing.name}` : 'New incident template';
    return sendPage(
      reply,
      v,
      NAV,
      {
        title,
        flash: o.flash ?? null,
        body: templateFormBody({
          csrf: v.csrf,
          values,
          services,
          zone: v.timeZone,
          existing,
          problem: o.problem ?? null,
        }),
      },
      o.status,
    );
  };

  app.get('/incident-templates/new', async (request, reply) =>
    sendForm(reply, requireScope(request, 'write:incidents'), EMPTY_TEMPLATE_FORM),
  );

  app.post('/incident-templates/new', async (request, reply) => {
    const v = requireScope(request, 'write:incidents');
    const values = formValues(request.body);
    const r = await attempt(() =>
      createIncidentTemplate(v.ctx, validated(IncidentTemplateCreateBody, inputOf(request.body, values))),
    );
    if (!r.ok) return sendForm(reply, v, values, { problem: r.problem, status: r.status });
    return redirectWithFlash(reply, '/console/incident-templates', `Template "${r.value.name}" created.`);
  });

  app.get<IdRequest>('/incident-templates/:id', async (request, reply) => {
    const v = requireScope(request, 'read:incidents');
    const t = await incidentTemplateForForm(v.ctx, request.params.id);
    if (!v.can('write:incidents')) {
      return sendPage(reply, v, NAV, {
        title: `Incident template: ${t.name}`,
        flash: flashOf(request.query),
        body: templateReadBody(t, await serviceChoices(v.ctx), v.timeZone),
      });
    }
    const impacts = Object.fromEntries(
      t.service_impacts.filter((x) => t.chosen_impacts.includes(x.service_id)).map((x) => [x.service_id, x.impact]),
    );
    const values = {
      name: t.name,
      title: t.title,
      body: t.body ?? '',
      severity: t.severity,
      message_type: t.message_type,
      affected_services: t.affected_services,
      impacts,
    };
    return sendForm(reply, v, values, { id: t.id, flash: flashOf(request.query) });
  });

  app.post<IdRequest>('/incident-templates/:id', async (request, reply) => {
    const v = requireScope(request, 'write:incidents');
    const { id } = request.params;
    const values = formValues(request.body);
    const r = await attempt(() =>
      updateIncidentTemplate(v.ctx, id, validated(IncidentTemplatePatchBody, inputOf(request.body, values))),
    );
    if (!r.ok) {
      if (r.status === 404) throw new ProblemError('not_found', r.problem.detail);
      return sendForm(reply, v, values, { id, problem: r.problem, status: r.status });
    }
    return redirectWithFlash(reply, templateHref(r.value.id), 'Template saved.');
  });

  app.post<IdRequest>('/incident-templates/:id/delete', async (request, reply) => {
    const v = requireScope(request, 'write:incidents');
    const t = await deleteIncidentTemplate(v.ctx, request.params.id);
    return redirectWithFlash(reply, '/console/incident-templates', `Template "${t.name}" deleted.`);
  });
};
