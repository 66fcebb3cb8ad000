import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  type MetricPorts,
  createMetric,
  deleteMetric,
  getMetric,
  listMetrics,
  setManualStatus,
  updateMetric,
} from '../../usecases/metrics/metrics';
import { routeDoc } from '../route-doc';
import { BODY_ERRORS, IdParams, ListQuery, pageSchema } from '../schemas/common';
import {
  ManualStatusBody,
  MetricCreateBody,
  MetricCreatedSchema,
  MetricDetailSchema,
  MetricFlipSchema,
  MetricListQuery,
  MetricPatchBody,
  MetricSamplesImportAnswer,
  MetricSamplesImportBody,
  MetricSchema,
} from '../schemas/metrics';
import { importSamples } from '../../usecases/metrics/import';
import { listMetricFlips } from '../../usecases/metrics/flips';
import { inboundUrl } from '../../usecases/metrics/inbound';

const tag = 'Metrics';

/** 50,000 samples with long reasons fit (~300 bytes each). */
const IMPORT_BODY_LIMIT = 16 * 1_048_576;

export const metricRoutes: FastifyPluginAsyncZod<{
  ports: MetricPorts;
  publicBaseUrl: string;
  sampleRetentionDays?: number;
}> = async (app, opts) => {
  {
    const { errorResponses, ...doc } = routeDoc('listMetrics', {
      summary: 'List metrics',
      tag,
      errors: ['validation_failed'],
    });
    app.get(
      '/metrics',
      {
        schema: {
          ...doc,
          querystring: MetricListQuery,
          response: { 200: pageSchema(MetricSchema), ...errorResponses },
        },
      },
      async (request) => {
        const page = await listMetrics(request.orgContext(), request.query);
        return { items: page.items, next_cursor: page.nextCursor };
      },
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('getMetric', {
      summary: 'Read a metric',
      tag,
      errors: ['not_found'],
    });
    app.get(
      '/metrics/:id',
      { schema: { ...doc, params: IdParams, response: { 200: MetricDetailSchema, ...errorResponses } } },
      async (request) => getMetric(request.orgContext(), request.params.id),
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('listMetricFlips', {
      summary: 'List a metric’s status flips',
      tag,
      errors: ['not_found', 'validation_failed'],
    });
    app.get(
      '/metrics/:id/flips',
      {
        schema: {
          ...doc,
          params: IdParams,
          querystring: ListQuery,
          response: { 200: pageSchema(MetricFlipSchema), ...errorResponses },
        },
      },
      async (request) => listMetricFlips(request.orgContext(), request.params.id, request.query),
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('createMetric', {
      summary: 'Create a metric',
      tag,
      errors: [...BODY_ERRORS, 'quota_exceeded'],
      checks: [
        '`source_config` by the rules of its `source_type` (the same as the probe test); `errors` paths start with `source_config.`.',
        'All four threshold fields for every type but manual and alert, which take none.',
        '`service_id` names a live service of the organization; `agent_id` a live, unrevoked agent of it; manual, heartbeat and alert metrics (fed by hand or by their inbound URL) take no `agent_id`; http, tcp, dns, tls_cert and icmp (and mtls_http) run from the cloud without one; every other type needs one.',
      ],
    });
    app.post(
      '/metrics',
      { schema: { ...doc, body: MetricCreateBody, response: { 201: MetricCreatedSchema, ...errorResponses } } },
      async (request, reply) => {
        const { view, inbound } = await createMetric(request.orgContext(), opts.ports, request.body);
        reply.code(201);
        return { ...view, inbound_url: inbound ? inboundUrl(opts.publicBaseUrl, inbound) : null };
      },
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('updateMetric', {
      summary: 'Update a metric',
      tag,
      errors: [...BODY_ERRORS, 'not_found', 'item_suspended_plan'],
      checks: [
        'Once the patch is applied: `source_config` by the rules of its `source_type` (the same as the probe test); `errors` paths start with `source_config.`.',
        'All four threshold fields for every type but manual and alert, which take none.',
        '`service_id` names a live service of the organization; `agent_id` a live, unrevoked agent of it; manual, heartbeat and alert metrics (fed by hand or by their inbound URL) take no `agent_id`; http, tcp, dns, tls_cert and icmp (and mtls_http) run from the cloud without one; every other type needs one.',
      ],
    });
    app.patch(
      '/metrics/:id',
      {
        schema: { ...doc, params: IdParams, body: MetricPatchBody, response: { 200: MetricSchema, ...errorResponses } },
      },
      async (request) => updateMetric(request.orgContext(), opts.ports, request.params.id, request.body),
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('deleteMetric', {
      summary: 'Delete a metric',
      tag,
      errors: ['not_found', 'in_use'],
    });
    app.delete(
      '/metrics/:id',
      { schema: { ...doc, params: IdParams, response: { 200: MetricSchema, ...errorResponses } } },
      async (request) => deleteMetric(request.orgContext(), opts.ports, request.params.id),
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('setMetricStatus', {
      summary: 'Set a manual metric’s status',
      tag,
      errors: [...BODY_ERRORS, 'not_found'],
      checks: ['The metric is a manual one (`errors` path `params.id`).'],
    });
    app.post(
      '/metrics/:id/status',
      {
        schema: {
          ...doc,
          params: IdParams,
          body: ManualStatusBody,
          response: { 200: MetricSchema, ...errorResponses },
        },
      },
      async (request) => {
        return setManualStatus(request.orgContext(), request.params.id, request.body.status);
      },
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('importMetricSamples', {
      summary: 'Import a metric’s history',
      tag,
      errors: [...BODY_ERRORS, 'not_found'],
    });
    app.post(
      '/metrics/:id/samples/import',
      {
        bodyLimit: IMPORT_BODY_LIMIT,
        schema: {
          ...doc,
          params: IdParams,
          body: MetricSamplesImportBody,
          response: { 200: MetricSamplesImportAnswer, ...errorResponses },
        },
      },
      async (request) =>
        importSamples(request.orgContext(), request.params.id, request.body.samples, opts.sampleRetentionDays),
    );
  }
};
