import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  createSchedule,
  deleteSchedule,
  getSchedule,
  listSchedules,
  listShifts,
  onCallNow,
  updateSchedule,
} from '../../../usecases/alerting/schedules';
import { IdempotencyHeaders, idempotentCreate } from '../../idempotency';
import { routeDoc } from '../../route-doc';
import {
  OnCallNowSchema,
  OnCallQuery,
  ScheduleCreateBody,
  SchedulePatchBody,
  ScheduleSchema,
  ShiftsQuery,
  ShiftsSchema,
} from '../../schemas/alerting';
import { BODY_ERRORS, IdParams, ListQuery, pageSchema } from '../../schemas/common';

const tag = 'Alerting';
const USER_CHECKS = [
  'Every participant (`layers.0.rotation.participants.1`) and override `user` (`overrides.0.user`) is the email of an enabled console user of the organization',
  "`shift_hours` only with kind `hourly` (and required there), `handoff_weekday` only with `weekly`; an override's `end_at` after its `start_at`",
];

export const scheduleRoutes: FastifyPluginAsyncZod = async (app) => {
  {
    const { errorResponses, ...doc } = routeDoc('listOnCallSchedules', {
      summary: 'List on-call schedules',
      tag,
      errors: ['validation_failed'],
    });
    app.get(
      '/on-call/schedules',
      { schema: { ...doc, querystring: ListQuery, response: { 200: pageSchema(ScheduleSchema), ...errorResponses } } },
      async (request) => {
        const page = await listSchedules(request.orgContext(), request.query);
        return { items: page.items, next_cursor: page.nextCursor };
      },
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('getOnCallSchedule', {
      summary: 'Read an on-call schedule',
      tag,
      errors: ['not_found'],
    });
    app.get(
      '/on-call/schedules/:id',
      { schema: { ...doc, params: IdParams, response: { 200: ScheduleSchema, ...errorResponses } } },
      async (request) => getSchedule(request.orgContext(), request.params.id),
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('createOnCallSchedule', {
      summary: 'Create an on-call schedule',
      tag,
      description: [
        'Rotations in an IANA `timezone`. Each layer has a `rotation`: `kind` `daily`, `weekly` (on `handoff_weekday`, 1 = Monday, default 1) or `hourly` (`shift_hours`, 1 to 168, counted in elapsed time), a local `handoff_time` (`HH:MM`), the local date of the first handoff `starts_on`, and ordered `participants` (console users by email; the first is on call from the first handoff).',
        'Handoffs keep their local time across daylight-saving changes: a weekly 09:00 Europe/Berlin handoff stays at 09:00. The highest layer (last in the list) with someone on call wins; `overrides` (`user`, `start_at`, `end_at`) win over every layer, the later one among overlapping overrides. Emails are stored lower-cased, override instants in UTC. Accepts an `Idempotency-Key`.',
      ].join('\n\n'),
      checks: USER_CHECKS,
      errors: [...BODY_ERRORS, 'idempotency_key_reused'],
    });
    app.post(
      '/on-call/schedules',
      {
        schema: {
          ...doc,
          headers: IdempotencyHeaders,
          body: ScheduleCreateBody,
          response: { 201: ScheduleSchema, ...errorResponses },
        },
      },
      async (request, reply) => {
        const ctx = request.orgContext();
        return idempotentCreate(request, reply, 'createOnCallSchedule', (em) =>
          createSchedule({ ...ctx, em }, request.body),
        );
      },
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('updateOnCallSchedule', {
      summary: 'Update an on-call schedule',
      tag,
      description:
        'Changes only the fields sent; `layers` and `overrides` are replaced whole (to add an override, send the list with it).',
      checks: USER_CHECKS,
      errors: [...BODY_ERRORS, 'not_found'],
    });
    app.patch(
      '/on-call/schedules/:id',
      {
        schema: {
          ...doc,
          params: IdParams,
          body: SchedulePatchBody,
          response: { 200: ScheduleSchema, ...errorResponses },
        },
      },
      async (request) => updateSchedule(request.orgContext(), request.params.id, request.body),
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('deleteOnCallSchedule', {
      summary: 'Delete an on-call schedule',
      tag,
      description:
        'Soft delete; repeating it answers 200 with the same schedule. Refused with 409 `in_use` while an escalation policy targets it (`referenced_by.escalation_policies`).',
      errors: ['not_found', 'in_use'],
    });
    app.delete(
      '/on-call/schedules/:id',
      { schema: { ...doc, params: IdParams, response: { 200: ScheduleSchema, ...errorResponses } } },
      async (request) => deleteSchedule(request.orgContext(), request.params.id),
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('getOnCallNow', {
      summary: 'Who is on call',
      tag,
      description:
        'Who is on call at `at` (default now): the user, whether an override or a layer put them there, and the bounds of that shift (cut where an override or a higher layer takes over). Nobody on call answers `user: null`.',
      errors: ['validation_failed', 'not_found'],
    });
    app.get(
      '/on-call/schedules/:id/on-call',
      {
        schema: {
          ...doc,
          params: IdParams,
          querystring: OnCallQuery,
          response: { 200: OnCallNowSchema, ...errorResponses },
        },
      },
      async (request) => onCallNow(request.orgContext(), request.params.id, request.query.at),
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('listOnCallShifts', {
      summary: 'List shifts of an on-call schedule',
      tag,
      description:
        "Who is on call over `[from, to)` (default: now to 14 days on), after layers and overrides: contiguous shifts, oldest first, clipped to the window; the same person continuing from the same layer is one shift; a gap is time nobody covers. A bounded window, not a cursor page: at most 93 days and 1,000 shifts (`truncated: true` then: ask again from the last shift's `end`).",
      checks: ['`to` after `from`, and at most 93 days after it (`query.to`)'],
      errors: ['validation_failed', 'not_found'],
    });
    app.get(
      '/on-call/schedules/:id/shifts',
      {
        schema: {
          ...doc,
          params: IdParams,
          querystring: ShiftsQuery,
          response: { 200: ShiftsSchema, ...errorResponses },
        },
      },
      async (request) =>
        listShifts(request.orgContext(), request.params.id, { from: request.query.from, to: request.query.to }),
    );
  }
};
