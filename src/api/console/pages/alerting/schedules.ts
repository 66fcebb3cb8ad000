import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { FieldError } from '../../../../domain/error-catalog';
import { ProblemError } from '../../../../domain/error-catalog';
import type { FormValues } from '../../../../render/console/alerting-parts';
import { slotCount } from '../../../../render/console/alerting-parts';
import {
  SCHEDULE_NAME_FIELD,
  isBlankLayer,
  isBlankOverride,
  scheduleDetailBody,
  scheduleFormBody,
  scheduleHref,
  scheduleListBody,
} from '../../../../render/console/alerting-schedules';
import type { FormProblem } from '../../../../render/console/forms';
import {
  createSchedule,
  deleteSchedule,
  getSchedule,
  listSchedules,
  listShifts,
  onCallNow,
  updateSchedule,
} from '../../../../usecases/alerting/schedules';
import type { ScheduleView } from '../../../../usecases/alerting/views';
import { ScheduleCreateBody, SchedulePatchBody } from '../../../schemas/alerting';
import { type ConsoleViewer, redirectWithFlash, requireScope, sendPage } from '../../context';
import type { ConsoleDeps } from '../../deps';
import { confirmDeleteRoute } from './confirm-delete';
import { attempt, field, flashOf, listQuery, validated, zonedInstantOf } from '../../forms';
import { instantToLocalInput } from '../../../../domain/local-time-input';
import { consoleUserEmails, linesOf, slotPath, wholeOr, withFormPaths } from './form-slots';

const NAV = '/console/on-call';
type IdRequest = { Params: { id: string } };
type Failed = { problem: FormProblem; status: number };

/** The schedule the form describes, in the API's shape, with the form slot of each layer and override (override times read in the viewer's `zone`). */
function scheduleOf(body: FormValues, zone: string) {
  const f = (name: string) => field(body, name);
  const layers: unknown[] = [];
  const layerSlots: number[] = [];
  for (let i = 0; i < slotCount(body, 'layers'); i++) {
    if (isBlankLayer(body, i)) continue;
    const r = (n: string) => f(`layers.${i}.rotation.${n}`);
    const kind = r('kind');
    layers.push({
      name: f(`layers.${i}.name`),
      rotation: {
        kind,
        handoff_time: r('handoff_time').trim(),
        starts_on: r('starts_on').trim(),
        participants: linesOf(r('participants')),
        // Each rotation's own field only: the form shows both, the API refuses the other kind's.
        ...(kind === 'hourly' ? { shift_hours: wholeOr(r('shift_hours')) } : {}),
        ...(kind === 'weekly' ? { handoff_weekday: wholeOr(r('handoff_weekday')) } : {}),
      },
    });
    layerSlots.push(i);
  }
  const overrides: unknown[] = [];
  const overrideSlots: number[] = [];
  const extra: FieldError[] = [];
  for (let i = 0; i < slotCount(body, 'overrides'); i++) {
    if (isBlankOverride(body, i)) continue;
    const at = (n: 'start_at' | 'end_at') => {
      const iso = zonedInstantOf(f(`overrides.${i}.${n}`).trim(), zone);
      if (!iso) extra.push({ path: `overrides.${overrides.length}.${n}`, message: `Enter a date and time (${zone})` });
      return iso ?? '';
    };
    overrides.push({ user: f(`overrides.${i}.user`).trim(), start_at: at('start_at'), end_at: at('end_at') });
    overrideSlots.push(i);
  }
  const rename = (path: string) =>
    path === 'name' ? SCHEDULE_NAME_FIELD : slotPath(slotPath(path, 'layers', layerSlots), 'overrides', overrideSlots);
  return { input: { name: f(SCHEDULE_NAME_FIELD), timezone: f('timezone').trim(), layers, overrides }, extra, rename };
}

/** The form of a stored schedule (override instants as datetime-local wall times in the viewer's `zone`). */
function valuesOf(s: ScheduleView, zone: string): Record<string, string> {
  const out: Record<string, string> = { [SCHEDULE_NAME_FIELD]: s.name, timezone: s.timezone };
  s.layers.forEach((l, i) => {
    const r = l.rotation;
    Object.assign(out, {
      [`layers.${i}.name`]: l.name,
      [`layers.${i}.rotation.kind`]: r.kind,
      [`layers.${i}.rotation.handoff_time`]: r.handoff_time,
      [`layers.${i}.rotation.handoff_weekday`]: String(r.handoff_weekday ?? 1),
      [`layers.${i}.rotation.shift_hours`]: r.shift_hours === undefined ? '' : String(r.shift_hours),
      [`layers.${i}.rotation.starts_on`]: r.starts_on,
      [`layers.${i}.rotation.participants`]: r.participants.join('\n'),
    });
  });
  s.overrides.forEach((o, i) =>
    Object.assign(out, {
      [`overrides.${i}.user`]: o.user,
      [`overrides.${i}.start_at`]: instantToLocalInput(o.start_at, zone),
      [`overrides.${i}.end_at`]: instantToLocalInput(o.end_at, zone),
    }),
  );
  return out;
}

/** One more layer slot, filled with a weekly 09:00 Monday rotation from today, to add a layer by naming it and its people. */
function withNewLayer(values: Record<string, string>, now: Date): Record<string, string> {
  const i = slotCount(values, 'layers');
  return {
    ...values,
    [`layers.${i}.rotation.kind`]: 'weekly',
    [`layers.${i}.rotation.handoff_time`]: '09:00',
    [`layers.${i}.rotation.handoff_weekday`]: '1',
    [`layers.${i}.rotation.starts_on`]: now.toISOString().slice(0, 10),
  };
}

/** On-call schedules (API: /v1/on-call/schedules): who is on call now, the next 14 days of shifts, create and edit. */
export const schedulePages: FastifyPluginAsync<ConsoleDeps> = async (app) => {
  app.get('/on-call', async (request, reply) => {
    const v = requireScope(request, 'read:alerts');
    const page = await listSchedules(v.ctx, listQuery(request.query, 50));
    const rows = [];
    for (const schedule of page.items) rows.push({ schedule, now: await onCallNow(v.ctx, schedule.id) });
    return sendPage(reply, v, NAV, {
      title: 'On call',
      flash: flashOf(request.query),
      body: scheduleListBody({ rows, nextCursor: page.nextCursor, canWrite: v.can('write:alerts'), zone: v.timeZone }),
    });
  });

  const sendForm = async (
    reply: FastifyReply,
    v: ConsoleViewer,
    values: FormValues,
    schedule?: ScheduleView,
    failed?: Failed,
  ) =>
    sendPage(
      reply,
      v,
      NAV,
      {
        title: schedule ? `Edit schedule: ${schedule.name}` : 'New on-call schedule',
        body: scheduleFormBody({
          csrf: v.csrf,
          values,
          users: await consoleUserEmails(v.ctx),
          zone: v.timeZone,
          schedule,
          problem: failed?.problem,
        }),
      },
      failed?.status,
    );

  app.get('/on-call/schedules/new', async (request, reply) => {
    const v = requireScope(request, 'write:alerts');
    // A first layer named Primary, and a second one to fill in or leave out.
    return sendForm(
      reply,
      v,
      withNewLayer({ ...withNewLayer({ timezone: 'UTC' }, v.ctx.now), 'layers.0.name': 'Primary' }, v.ctx.now),
    );
  });

  app.post('/on-call/schedules/new', async (request, reply) => {
    const v = requireScope(request, 'write:alerts');
    const b = request.body as FormValues;
    const { input, extra, rename } = scheduleOf(b, v.timeZone);
    const r = await attempt(() =>
      withFormPaths(() => createSchedule(v.ctx, validated(ScheduleCreateBody, input, extra)), rename),
    );
    if (!r.ok) return sendForm(reply, v, b, undefined, r);
    return redirectWithFlash(reply, scheduleHref(r.value.id), 'Schedule created.');
  });

  const sendDetail = async (
    reply: FastifyReply,
    v: ConsoleViewer,
    id: string,
    flash: string | null,
    failed?: Failed,
  ) => {
    const schedule = await getSchedule(v.ctx, id);
    const [now, shifts] = [await onCallNow(v.ctx, id), await listShifts(v.ctx, id, {})];
    const body = scheduleDetailBody({
      schedule,
      now,
      shifts: shifts.items,
      truncated: shifts.truncated,
      csrf: v.csrf,
      canWrite: v.can('write:alerts'),
      problem: failed?.problem,
    });
    return sendPage(reply, v, NAV, { title: `Schedule: ${schedule.name}`, flash, body }, failed?.status);
  };

  app.get<IdRequest>('/on-call/schedules/:id', async (request, reply) =>
    sendDetail(reply, requireScope(request, 'read:alerts'), request.params.id, flashOf(request.query)),
  );

  app.get<IdRequest>('/on-call/schedules/:id/edit', async (request, reply) => {
    const v = requireScope(request, 'write:alerts');
    const s = await getSchedule(v.ctx, request.params.id);
    return sendForm(reply, v, withNewLayer(valuesOf(s, v.timeZone), v.ctx.now), s);
  });

  app.post<IdRequest>('/on-call/schedules/:id/edit', async (request, reply) => {
    const v = requireScope(request, 'write:alerts');
    const s = await getSchedule(v.ctx, request.params.id);
    const b = request.body as FormValues;
    const { input, extra, rename } = scheduleOf(b, v.timeZone);
    const r = await attempt(() =>
      withFormPaths(() => updateSchedule(v.ctx, s.id, validated(SchedulePatchBody, input, extra)), rename),
    );
    if (!r.ok) return sendForm(reply, v, b, s, r);
    return redirectWithFlash(reply, scheduleHref(s.id), 'Schedule saved.');
  });

  confirmDeleteRoute(app, {
    base: '/on-call/schedules',
    list: '/console/on-call',
    nav: NAV,
    noun: 'on-call schedule',
    load: getSchedule,
    consequence: 'Nobody is on call through it any more; a policy that names it must be changed first.',
  });

  app.post<IdRequest>('/on-call/schedules/:id/delete', async (request, reply) => {
    const v = requireScope(request, 'write:alerts');
    const { id } = request.params;
    const r = await attempt(() => deleteSchedule(v.ctx, id));
    if (r.ok) return redirectWithFlash(reply, '/console/on-call', `Schedule "${r.value.name}" deleted.`);
    if (r.status === 404) throw new ProblemError('not_found', r.problem.detail);
    return sendDetail(reply, v, id, null, r);
  });
};
