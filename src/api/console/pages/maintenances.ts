import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { FieldError } from '../../../domain/error-catalog';
import { ProblemError } from '../../../domain/error-catalog';
import { localInputToInstant } from '../../../domain/local-time-input';
import { type TimelineItem, temporalWorkflowUrl } from '../../../render/console/parts';
import {
  MAINTENANCE_FILTER_STATES,
  type MaintenanceActionProblem,
  type MaintenanceFormValues,
  maintenanceCancelBody,
  maintenanceDetailBody,
  maintenanceFormBody,
  maintenanceListBody,
} from '../../../render/console/pages/maintenances';
import {
  type MaintenancePorts,
  createMaintenance,
  getMaintenance,
  listMaintenances,
  moveMaintenance,
  updateMaintenance,
} from '../../../usecases/maintenances/maintenances';
import { postMaintenanceMessage } from '../../../usecases/maintenances/messages';
import type { MaintenanceView } from '../../../usecases/maintenances/view';
import { MaintenanceCreateBody, MaintenanceMessageBody, MaintenancePatchBody } from '../../schemas/maintenances';
import { type ConsoleViewer, redirectWithFlash, requireScope, sendPage } from '../context';
import type { ConsoleDeps } from '../deps';
import { attempt, field, fields, filterOf, flashOf, listQuery, validated } from '../forms';
import { serviceChoices } from '../choices';
import { maintenanceWorkflowId } from '../../../domain/workflow-ids';

type IdRequest = { Params: { id: string } };
type TimeField = 'scheduled_start_at' | 'scheduled_end_at';

/**
 * The datetime-local fields of a form, read as wall times in the viewer's zone, as ISO instants;
 * an unreadable one becomes an error next to its field. `notes` say when a time was skipped or
 * repeated by a clock change, and how it was read.
 */
function instantsOf(
  body: unknown,
  names: readonly TimeField[],
  zone: string,
): { values: Partial<Record<TimeField, string>>; errors: FieldError[]; notes: string[] } {
  const values: Partial<Record<TimeField, string>> = {};
  const errors: FieldError[] = [];
  const notes: string[] = [];
  for (const name of names) {
    const read = localInputToInstant(field(body, name), zone);
    if (!read.ok) {
      errors.push({ path: name, message: `Enter a date and time (${zone})` });
      continue;
    }
    values[name] = read.instant.toISOString();
    if (read.note) notes.push(read.note.text);
  }
  return { values, errors, notes };
}

const withNotes = (done: string, notes: readonly string[]) => [done, ...notes].join(' ');

const TIMELINE_LABELS: Record<string, (m: MaintenanceView['messages'][number]) => string> = {
  update: (m) => (m.notify_subscribers ? 'Update (emailed to subscribers)' : 'Update (not emailed)'),
  reschedule: () => 'Rescheduled',
};

function timelineOf(m: MaintenanceView): TimelineItem[] {
  const steps: TimelineItem[] = [{ at: m.created_at, label: 'Scheduled', body: null }];
  const messages = m.messages.map((x) => ({
    at: x.posted_at,
    label: TIMELINE_LABELS[x.kind]?.(x) ?? x.type,
    body: x.body,
  }));
  return [...steps, ...messages]
    .map((x, n) => ({ x, n }))
    .sort((a, b) => Date.parse(a.x.at) - Date.parse(b.x.at) || a.n - b.n)
    .map(({ x }) => x);
}

const TRANSITIONS = {
  start: 'Maintenance started.',
  complete: 'Maintenance completed.',
  cancel: 'Maintenance canceled.',
} as const;

/** Maintenance windows: list, schedule, and the detail page with reschedule, start, complete and cancel (API: /v1/maintenances). */
export const maintenancePages: FastifyPluginAsync<ConsoleDeps> = async (app, deps) => {
  const ports: MaintenancePorts = { scheduler: deps.maintenanceScheduler };
  const workflowUrl = (id: string) => temporalWorkflowUrl(deps.temporalUiUrl, maintenanceWorkflowId(id));

  app.get('/maintenances', async (request, reply) => {
    const v = requireScope(request, 'read:incidents');
    const state = filterOf(request.query, 'state', MAINTENANCE_FILTER_STATES);
    const page = await listMaintenances(v.ctx, { ...listQuery(request.query), ...(state ? { state } : {}) });
    const services = await serviceChoices(v.ctx);
    return sendPage(reply, v, '/console/maintenances', {
      title: 'Maintenance',
      flash: flashOf(request.query),
      body: maintenanceListBody({
        rows: page.items,
        services,
        state,
        nextCursor: page.nextCursor,
        canWrite: v.can('write:incidents'),
        zone: v.timeZone,
      }),
    });
  });

  const sendForm = async (
    reply: FastifyReply,
    v: ConsoleViewer,
    values: MaintenanceFormValues,
    failed?: { problem: MaintenanceActionProblem['problem']; status: number },
  ) =>
    sendPage(
      reply,
      v,
      '/console/maintenances',
      {
        title: 'Schedule maintenance',
        body: maintenanceFormBody({
          csrf: v.csrf,
          values,
          services: await serviceChoices(v.ctx),
          zone: v.timeZone,
          problem: failed?.problem,
        }),
      },
      failed?.status,
    );

  app.get('/maintenances/new', async (request, reply) =>
    sendForm(reply, requireScope(request, 'write:incidents'), {
      title: '',
      description: '',
      scheduled_start_at: '',
      scheduled_end_at: '',
      affected_services: [],
    }),
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
    const times = instantsOf(b, ['scheduled_start_at', 'scheduled_end_at'], v.timeZone);
    const description = values.description.trim() ? values.description : null;
    const r = await attempt(() =>
      createMaintenance(
        v.ctx,
        ports,
        validated(
          MaintenanceCreateBody,
          { title: values.title, description, affected_services: values.affected_services, ...times.values },
          times.errors,
        ),
      ),
    );
    if (!r.ok) return sendForm(reply, v, values, r);
    return redirectWithFlash(
      reply,
      `/console/maintenances/${r.value.id}`,
      withNotes('Maintenance scheduled.', times.notes),
    );
  });

  const sendDetail = async (
    reply: FastifyReply,
    v: ConsoleViewer,
    id: string,
    flash: string | null,
    failed?: MaintenanceActionProblem & { status: number },
  ) => {
    const m = await getMaintenance(v.ctx, id);
    const services = await serviceChoices(v.ctx);
    const detail = {
      ...m,
      affected_services: services.filter((s) => m.affected_services.includes(s.id)),
      affected_ids: m.affected_services,
      timeline: timelineOf(m),
      workflowUrl: workflowUrl(m.id),
    };
    return sendPage(
      reply,
      v,
      '/console/maintenances',
      {
        title: m.title,
        flash,
        body: maintenanceDetailBody(detail, {
          csrf: v.csrf,
          canWrite: v.can('write:incidents'),
          zone: v.timeZone,
          failed,
        }),
      },
      failed?.status,
    );
  };

  app.get<IdRequest>('/maintenances/:id', async (request, reply) =>
    sendDetail(reply, requireScope(request, 'read:incidents'), request.params.id, flashOf(request.query)),
  );

  /** A form posted to `/maintenances/:id/<form>`: post/redirect/get, or the detail page again with the problem next to the form. */
  const action = (
    form: MaintenanceActionProblem['form'],
    run: (v: ConsoleViewer, id: string, body: unknown) => Promise<string>,
  ) => {
    app.post<IdRequest>(`/maintenances/:id/${form}`, async (request, reply) => {
      const v = requireScope(request, 'write:incidents');
      const { id } = request.params;
      const r = await attempt(() => run(v, id, request.body));
      if (r.ok) return redirectWithFlash(reply, `/console/maintenances/${id}`, r.value);
      if (r.status === 404) throw new ProblemError('not_found', r.problem.detail);
      const b = request.body;
      const values = {
        scheduled_start_at: field(b, 'scheduled_start_at'),
        scheduled_end_at: field(b, 'scheduled_end_at'),
        body: field(b, 'body'),
        notify_subscribers: field(b, 'notify_subscribers'),
      };
      return sendDetail(reply, v, id, null, { form, problem: r.problem, values, status: r.status });
    });
  };

  action('reschedule', async (v, id, body) => {
    // The start field is offered only while the maintenance is scheduled: a form without it moves the end only.
    const names: TimeField[] =
      (body as Record<string, unknown> | undefined)?.scheduled_start_at !== undefined
        ? ['scheduled_start_at', 'scheduled_end_at']
        : ['scheduled_end_at'];
    const times = instantsOf(body, names, v.timeZone);
    await updateMaintenance(v.ctx, ports, id, validated(MaintenancePatchBody, times.values, times.errors));
    return withNotes('New times saved.', times.notes);
  });
  action('messages', async (v, id, body) => {
    // An unticked checkbox sends nothing: no field means no email.
    const notify = field(body, 'notify_subscribers') === 'true';
    await postMaintenanceMessage(
      v.ctx,
      id,
      validated(MaintenanceMessageBody, { body: field(body, 'body'), notify_subscribers: notify }),
    );
    return notify ? 'Update posted; subscribers are being emailed.' : 'Update posted (no email).';
  });
  for (const transition of ['start', 'complete', 'cancel'] as const) {
    action(transition, async (v, id) => {
      await moveMaintenance(v.ctx, ports, id, transition);
      return TRANSITIONS[transition];
    });
  }

  // Canceling asks first: the detail page links here, and this page's button posts the cancel.
  app.get<IdRequest>('/maintenances/:id/cancel', async (request, reply) => {
    const v = requireScope(request, 'write:incidents');
    const m = await getMaintenance(v.ctx, request.params.id);
    if (m.state === 'canceled')
      return redirectWithFlash(reply, `/console/maintenances/${m.id}`, 'The maintenance is already canceled.');
    return sendPage(reply, v, '/console/maintenances', {
      title: `Cancel ${m.title}?`,
      body: maintenanceCancelBody(m, { csrf: v.csrf, zone: v.timeZone }),
    });
  });
};
