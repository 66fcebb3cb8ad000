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
      description: 'Newest first; filters `service_id`, `status`, `agent_id`.',
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
      description:
        'Status, `current_value` (null while no_data), `reason`, `reason_label`, `reason_hint`, the last sample time and the latest samples.',
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
      description:
        'Newest first. Each flip is dated when the change began (the first of the rounds that confirmed it: confirmation never hides downtime), with `confirmed_at`, how many consecutive rounds confirmed it and every location’s vote in each of those rounds. Flips rebuilt from imported or late history carry no rounds.',
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
      description:
        'source_config is validated by the same rules as the probe test. Thresholds are required except for manual and alert metrics. Without agent_id, HTTP/TCP/DNS/TLS/ping checks run from the cloud on a Temporal Schedule; other types need an agent. Heartbeat and alert metrics answer their inbound URL once.',
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
      description: 'Changes only the fields sent; the agent picks up the change at once.',
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
      description: 'Soft delete; repeating it answers 200 with the same metric. 409 in_use while an SLO measures it.',
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
      description:
        'Manual metrics only: the status holds until set again. The metric shows the worse of it and what open incidents on its service say (critical/major → unhealthy, minor → degraded); a change is a status flip and a `metric.status_changed` event.',
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
      description:
        'History from before `SAMPLE_MAX_AGE` (e.g. from another monitoring tool): 1–50,000 samples per call (body up to 16 MiB), evaluated against the metric’s thresholds like live samples and stored as imported. ' +
        'Idempotent on (metric, `sampled_at`): a sample already stored is accepted again but stores and counts nothing. Samples stamped more than 60 s ahead of the server’s clock (`sampled_in_future`) or older than the sample retention (`METRIC_SAMPLE_RETENTION_DAYS`, 400 days by default: `sampled_before_retention`) are rejected one by one. ' +
        'The metric’s status flips are rebuilt from the earliest new sample on, so timelines, uptime, SLOs and statements see the history; historical flips send no `metric.status_changed` event, and the metric’s latest outcome moves only when a sample is newer than its `last_sample_at`.',
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
