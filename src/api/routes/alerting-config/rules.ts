import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { createRule, deleteRule, getRule, listRules, updateRule } from '../../../usecases/alerting/rules';
import { IdempotencyHeaders, idempotentCreate } from '../../idempotency';
import { routeDoc } from '../../route-doc';
import { RuleCreateBody, RulePatchBody, RuleSchema } from '../../schemas/alerting';
import { BODY_ERRORS, IdParams, ListQuery, pageSchema } from '../../schemas/common';

const tag = 'Alerting';
const RULE_CHECKS = [
  '`subject_id` names a live subject of the kind in the organization; required for metric_status and status_page_status, null for sla_review_overdue',
  '`escalation_policy_id` names a live escalation policy of the organization',
  '`include_degraded` only for metric_status, service_status and status_page_status; `settings.reminder_hours` only for sla_review_overdue',
];

export const ruleRoutes: FastifyPluginAsyncZod = async (app) => {
  {
    const { errorResponses, ...doc } = routeDoc('listAlertRules', {
      summary: 'List alert rules',
      tag,
      errors: ['validation_failed'],
    });
    app.get(
      '/alert-rules',
      { schema: { ...doc, querystring: ListQuery, response: { 200: pageSchema(RuleSchema), ...errorResponses } } },
      async (request) => {
        const page = await listRules(request.orgContext(), request.query);
        return { items: page.items, next_cursor: page.nextCursor };
      },
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('getAlertRule', {
      summary: 'Read an alert rule',
      tag,
      errors: ['not_found'],
    });
    app.get(
      '/alert-rules/:id',
      { schema: { ...doc, params: IdParams, response: { 200: RuleSchema, ...errorResponses } } },
      async (request) => getRule(request.orgContext(), request.params.id),
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('createAlertRule', {
      summary: 'Create an alert rule',
      tag,
      checks: RULE_CHECKS,
      errors: [...BODY_ERRORS, 'idempotency_key_reused'],
    });
    app.post(
      '/alert-rules',
      {
        schema: {
          ...doc,
          headers: IdempotencyHeaders,
          body: RuleCreateBody,
          response: { 201: RuleSchema, ...errorResponses },
        },
      },
      async (request, reply) => {
        const ctx = request.orgContext();
        return idempotentCreate(request, reply, 'createAlertRule', (em) => createRule({ ...ctx, em }, request.body));
      },
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('updateAlertRule', {
      summary: 'Update an alert rule',
      tag,
      checks: RULE_CHECKS,
      errors: [...BODY_ERRORS, 'not_found'],
    });
    app.patch(
      '/alert-rules/:id',
      { schema: { ...doc, params: IdParams, body: RulePatchBody, response: { 200: RuleSchema, ...errorResponses } } },
      async (request) => updateRule(request.orgContext(), request.params.id, request.body),
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('deleteAlertRule', {
      summary: 'Delete an alert rule',
      tag,
      errors: ['not_found'],
    });
    app.delete(
      '/alert-rules/:id',
      { schema: { ...doc, params: IdParams, response: { 200: RuleSchema, ...errorResponses } } },
      async (request) => deleteRule(request.orgContext(), request.params.id),
    );
  }
};
