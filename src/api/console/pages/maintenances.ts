import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { FieldError } from '../../../domain/error-catalog';
import { ProblemError } from '../../../domain/error-catalog';
import { type TimelineItem, temporalWorkflowUrl } from '../../../render/console/parts';
import {
  MAINTENANCE_FILTER_STATES,
  type MaintenanceActionProblem,
  type MaintenanceFormValues,
  maintenanceDetailBody,
  maintenanceFormBody,
  maintenanceListBody,
} from '../../../render/console/pages/maintenances';
import { type MaintenancePorts, createMaintenance, getMaintenance, listMaintenances, moveMaintenance, updateMaintenance } from '../../../usecases/maintenances/maintenances';
import type { MaintenanceView } from '../../../usecases/maintenances/view';
import { MaintenanceCreateBody, MaintenancePatchBody } from '../../schemas/maintenances';
import { type ConsoleViewer, redirectWithFlash, requireScope, sendPage } from '../context';
import type { ConsoleDeps } from '../deps';
import { attempt, field, fields, filterOf, flashOf, listQuery, utcInstantOf, validated } from '../forms';
import { serviceChoices } from '../choices';

type IdRequest = { Params: { id: string } };
type TimeField = 'scheduled_start_at' | 'scheduled_end_at';

/** The datetime-local fields of a form as ISO instants; an unreadable one becomes an error next to its field. */
function instantsOf(body: unknown, names: readonly TimeField[]): { values: Partial<Record<TimeField, string>>; errors: FieldError[] } {
  const values: Partial<Record<TimeField, string>> = {};
  const errors: FieldError[] = [];
  for (const name of names) {
    const iso = utcInstantOf(field(body, name).trim());
    if (iso) values[name] = iso;
    else errors.push({ path: name, message: 'Enter a date and time (UTC)' });
  }
  return { values, errors };
}

function timelineOf(m: MaintenanceView): TimelineItem[] {
  const steps: TimelineItem[] = [{ at: m.created_at, label: 'Scheduled', body: null }];
  const messages = m.messages.map((x) => ({ at: x.posted_at, label: x.type, body: x.body }));
  return [...steps, ...messages].map((x, n) => ({ x, n })).sort((a, b) => Date.parse(a.x.at) - Date.parse(b.x.at) || a.n - b.n).map(({ x }) => x);
}

const TRANSITIONS = {
  start: 'Maintenance started.',
  complete: 'Maintenance completed.',
  cancel: 'Maintenance canceled.',
} as const;

/** Maintenance windows: list, schedule, and the detail page with reschedule, start, complete and cancel (API: /v1/maintenances). */
export const maintenancePages: FastifyPluginAsync<ConsoleDeps> = async (app, deps) => {
  const ports: MaintenancePorts = { scheduler: deps.maintenanceScheduler };
  const workflowUrl = (id: string) => temporalWorkflowUrl(deps.temporalUiUrl, `maintenance:${id}`);

  app.get('/maintenances', async (request, reply) => {
    const v = requireScope(request, 'read:incidents');
    const state = filterOf(request.query, 'state', MAINTENANCE_FILTER_STATES);
    const page = await listMaintenances(v.ctx, { ...listQuery(request.query), ...(state ? { state } : {}) });
    const services = await serviceChoices(v.ctx);
    return sendPage(reply, v, '/console/maintenances', {
      title: 'Maintenance',
      flash: flashOf(request.query),
      body: maintenanceListBody({ rows: page.items, services, state, nextCursor: page.nextCursor, canWrite: v.can('write:incidents') }),
    });
  });

  const sendForm = async (reply: FastifyReply, v: ConsoleViewer, values: MaintenanceFormValues, failed?: { problem: MaintenanceActionProblem['problem']; status: number }) =>
    sendPage(reply, v, '/console/maintenances', { title: 'Schedule maintenance', body: maintenanceFormBody({ csrf: v.csrf, values, services: await serviceChoices(v.ctx), problem: failed?.problem }) }, failed?.status);

  app.get('/maintenances/new', async (request, reply) =>
    sendForm(reply, requireScope(request, 'write:incidents'), { title: '', description: '', scheduled_start_at: '', scheduled_end_at: '', affected_services: [] }),
  );

  app.post('/maintenances/new', async (request, reply) => {
    const v = requireScope(request, 'write:incidents');
    const b = request.body;
    const values: MaintenanceFormValues = {
      title: field(b, 'title'),
      description: field(b, 'description'),
      scheduled_start_at: field(b, 'scheduled_start_at'),
      scheduled_end_at: field(b, 'scheduled_end_at'),
      affected_services: fields(b, 'affected_services'),
    };
    const times = instantsOf(b, ['scheduled_start_at', 'scheduled_end_at']);
    const description = values.description.trim() ? values.description : null;
    const r = await attempt(() =>
      createMaintenance(v.ctx, ports, validated(MaintenanceCreateBody, { title: values.title, description, affected_services: values.affected_services, ...times.values }, times.errors)),
    );
    if (!r.ok) return sendForm(reply, v, values, r);
    return redirectWithFlash(reply, `/console/maintenances/${r.value.id}`, 'Maintenance scheduled.');
  });

  const sendDetail = async (reply: FastifyReply, v: ConsoleViewer, id: string, flash: string | null, failed?: MaintenanceActionProblem & { status: number }) => {
    const m = await getMaintenance(v.ctx, id);
    const services = await serviceChoices(v.ctx);
    const detail = {
      ...m,
      affected_services: services.filter((s) => m.affected_services.includes(s.id)),
      affected_ids: m.affected_services,
      timeline: timelineOf(m),
      workflowUrl: workflowUrl(m.id),
    };
    return sendPage(reply, v, '/console/maintenances', { title: m.title, flash, body: maintenanceDetailBody(detail, { csrf: v.csrf, canWrite: v.can('write:incidents'), failed }) }, failed?.status);
  };

  app.get<IdRequest>('/maintenances/:id', async (request, reply) => sendDetail(reply, requireScope(request, 'read:incidents'), request.params.id, flashOf(request.query)));

  const action = (form: MaintenanceActionProblem['form'], run: (v: ConsoleViewer, id: string, body: unknown) => Promise<unknown>, done: string) => {
    app.post<IdRequest>(`/maintenances/:id/${form}`, async (request, reply) => {
      const v = requireScope(request, 'write:incidents');
      const { id } = request.params;
      const r = await attempt(() => run(v, id, request.body));
      if (r.ok) return redirectWithFlash(reply, `/console/maintenances/${id}`, done);
      if (r.status === 404) throw new ProblemError('not_found', r.problem.detail);
      const values = { scheduled_start_at: field(request.body, 'scheduled_start_at'), scheduled_end_at: field(request.body, 'scheduled_end_at') };
      return sendDetail(reply, v, id, null, { form, problem: r.problem, values, status: r.status });
    });
  };

  action(
    'reschedule',
    (v, id, body) => {
      // The start field is offered only while the maintenance is scheduled: a form without it moves the end only.
      const names: TimeField[] = (body as Record<string, unknown> | undefined)?.scheduled_start_at !== undefined ? ['scheduled_start_at', 'scheduled_end_at'] : ['scheduled_end_at'];
      const times = instantsOf(body, names);
      return updateMaintenance(v.ctx, ports, id, validated(MaintenancePatchBody, times.values, times.errors));
    },
    'New times saved.',
  );
  for (const transition of ['start', 'complete', 'cancel'] as const) {
    action(transition, (v, id) => moveMaintenance(v.ctx, ports, id, transition), TRANSITIONS[transition]);
  }
};
