import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { createPolicy, deletePolicy, getPolicy, listPolicies, updatePolicy } from '../../../usecases/alerting/policies';
import { IdempotencyHeaders, idempotentCreate } from '../../idempotency';
import { routeDoc } from '../../route-doc';
import { PolicyCreateBody, PolicyPatchBody, PolicySchema } from '../../schemas/alerting';
import { BODY_ERRORS, IdParams, ListQuery, pageSchema } from '../../schemas/common';

const tag = 'Alerting';
const TARGET_CHECKS = [
  'Every `channel` and `schedule` target names a live notification channel or on-call schedule of the organization (`levels.0.targets.1.id`)',
  'Every `user` target is an enabled console user of the organization (`levels.0.targets.2.email`)',
  'A level names each target once',
];

export const policyRoutes: FastifyPluginAsyncZod = async (app) => {
  {
    const { errorResponses, ...doc } = routeDoc('listEscalationPolicies', {
      summary: 'List escalation policies',
      tag,
      errors: ['validation_failed'],
    });
    app.get(
      '/escalation-policies',
      { schema: { ...doc, querystring: ListQuery, response: { 200: pageSchema(PolicySchema), ...errorResponses } } },
      async (request) => {
        const page = await listPolicies(request.orgContext(), request.query);
        return { items: page.items, next_cursor: page.nextCursor };
      },
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('getEscalationPolicy', {
      summary: 'Read an escalation policy',
      tag,
      errors: ['not_found'],
    });
    app.get(
      '/escalation-policies/:id',
      { schema: { ...doc, params: IdParams, response: { 200: PolicySchema, ...errorResponses } } },
      async (request) => getPolicy(request.orgContext(), request.params.id),
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('createEscalationPolicy', {
      summary: 'Create an escalation policy',
      tag,
      checks: TARGET_CHECKS,
      errors: [...BODY_ERRORS, 'idempotency_key_reused'],
    });
    app.post(
      '/escalation-policies',
      {
        schema: {
          ...doc,
          headers: IdempotencyHeaders,
          body: PolicyCreateBody,
          response: { 201: PolicySchema, ...errorResponses },
        },
      },
      async (request, reply) => {
        const ctx = request.orgContext();
        return idempotentCreate(request, reply, 'createEscalationPolicy', (em) =>
          createPolicy({ ...ctx, em }, request.body),
        );
      },
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('updateEscalationPolicy', {
      summary: 'Update an escalation policy',
      tag,
      checks: TARGET_CHECKS,
      errors: [...BODY_ERRORS, 'not_found'],
    });
    app.patch(
      '/escalation-policies/:id',
      {
        schema: { ...doc, params: IdParams, body: PolicyPatchBody, response: { 200: PolicySchema, ...errorResponses } },
      },
      async (request) => updatePolicy(request.orgContext(), request.params.id, request.body),
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('deleteEscalationPolicy', {
      summary: 'Delete an escalation policy',
      tag,
      errors: ['not_found', 'in_use'],
    });
    app.delete(
      '/escalation-policies/:id',
      { schema: { ...doc, params: IdParams, response: { 200: PolicySchema, ...errorResponses } } },
      async (request) => deletePolicy(request.orgContext(), request.params.id),
    );
  }
};
