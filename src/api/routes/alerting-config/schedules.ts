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
