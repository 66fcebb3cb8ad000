import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { postMaintenanceMessage } from '../../usecases/maintenances/messages';
import {
  type MaintenancePorts,
  createMaintenance,
  getMaintenance,
  listMaintenances,
  moveMaintenance,
  updateMaintenance,
} from '../../usecases/maintenances/maintenances';
import type { MaintenanceTransition } from '../../usecases/maintenances/transitions';
import { IdempotencyHeaders, idempotentUnit } from '../idempotency';
import { routeDoc } from '../route-doc';
import { CreateWarnings } from '../schemas/create-warnings';
import { BODY_ERRORS, IdParams, pageSchema } from '../schemas/common';
import {
  MaintenanceCreateBody,
  MaintenanceListQuery,
  MaintenanceMessageBody,
  MaintenancePatchBody,
  MaintenanceSchema,
} from '../schemas/maintenances';

const tag = 'Maintenances';

export const maintenanceRoutes: FastifyPluginAsyncZod<{ ports: MaintenancePorts }> = async (app, opts) => {
  {
    const { errorResponses, ...doc } = routeDoc('listMaintenances', {
      summary: 'List maintenance windows',
      tag,
      errors: ['validation_failed'],
    });
    app.get(
      '/maintenances',
      {
        schema: {
          ...doc,
          querystring: MaintenanceListQuery,
          response: { 200: pageSchema(MaintenanceSchema), ...errorResponses },
        },
      },
      async (request) => {
        const page = await listMaintenances(request.orgContext(), request.query);
        return { items: page.items, next_cursor: page.nextCursor };
      },
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('getMaintenance', {
      summary: 'Read a maintenance window',
      tag,
      errors: ['not_found'],
    });
    app.get(
      '/maintenances/:id',
      { schema: { ...doc, params: IdParams, response: { 200: MaintenanceSchema, ...errorResponses } } },
      async (request) => getMaintenance(request.orgContext(), request.params.id),
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('createMaintenance', {
      summary: 'Schedule a maintenance window',
      tag,
      errors: [...BODY_ERRORS, 'unknown_services', 'idempotency_key_reused'],
      checks: [
        '`scheduled_end_at` is after `scheduled_start_at`.',
        '`scheduled_end_at` is in the future: a window that has already ended is refused (record a past outage as an incident).',
      ],
    });
    app.post(
      '/maintenances',
      {
        schema: {
          ...doc,
          headers: IdempotencyHeaders,
          body: MaintenanceCreateBody,
          response: {
            201: MaintenanceSchema.extend({ warnings: CreateWarnings }).meta({ id: 'MaintenanceCreated' }),
            ...errorResponses,
          },
        },
      },
      async (request, reply) =>
        createMaintenance(
          request.orgContext(),
          opts.ports,
          request.body,
          idempotentUnit(request, reply, 'createMaintenance'),
        ),
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('updateMaintenance', {
      summary: 'Edit a maintenance window',
      tag,
      checks: [
        '`scheduled_end_at` is after `scheduled_start_at`, once the patch is applied.',
        'When the patch moves `scheduled_start_at` or `scheduled_end_at`: `scheduled_end_at` is in the future (a window cannot be moved into the past).',
      ],
      errors: [
        ...BODY_ERRORS,
        'not_found',
        'unknown_services',
        'already_started',
        'already_completed',
        'already_canceled',
      ],
    });
    app.patch(
      '/maintenances/:id',
      {
        schema: {
          ...doc,
          params: IdParams,
          body: MaintenancePatchBody,
          response: { 200: MaintenanceSchema, ...errorResponses },
        },
      },
      async (request) => updateMaintenance(request.orgContext(), opts.ports, request.params.id, request.body),
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('addMaintenanceMessage', {
      summary: 'Post an update to the timeline',
      tag,
      errors: [...BODY_ERRORS, 'not_found', 'already_completed', 'already_canceled'],
    });
    app.post(
      '/maintenances/:id/messages',
      {
        schema: {
          ...doc,
          params: IdParams,
          body: MaintenanceMessageBody,
          response: { 200: MaintenanceSchema, ...errorResponses },
        },
      },
      async (request) => postMaintenanceMessage(request.orgContext(), request.params.id, request.body),
    );
  }
  const transitions: [
    Exclude<MaintenanceTransition, 'starting_soon'>,
    string,
    string,
    string,
    ('already_started' | 'already_completed' | 'already_canceled' | 'not_started')[],
  ][] = [
    [
      'start',
      'startMaintenance',
      'Start now (scheduled → in_progress)',
      'Event maintenance.started; system message "Maintenance started."',
      ['already_started', 'already_completed', 'already_canceled'],
    ],
    [
      'complete',
      'completeMaintenance',
      'Complete now (in_progress → completed)',
      'Event maintenance.completed; system message "Maintenance completed."',
      ['not_started', 'already_completed', 'already_canceled'],
    ],
    [
      'cancel',
      'cancelMaintenance',
      'Cancel',
      'From any state but canceled, a completed maintenance included. Event maintenance.canceled; system message "Maintenance canceled."',
      ['already_canceled'],
    ],
  ];
  for (const [transition, operationId, summary, description, conflicts] of transitions) {
    const { errorResponses, ...doc } = routeDoc(operationId, {
      summary,
      tag,
      description,
      errors: ['not_found', ...conflicts],
    });
    app.post(
      `/maintenances/:id/${transition}`,
      { schema: { ...doc, params: IdParams, response: { 200: MaintenanceSchema, ...errorResponses } } },
      async (request) => moveMaintenance(request.orgContext(), opts.ports, request.params.id, transition),
    );
  }
};
