import type { FastifyPluginAsync } from 'fastify';
import { ProblemError } from '../../../domain/error-catalog';
import { isUuid } from '../../../domain/ids';
import { isTestableSourceType } from '../../../domain/source-types';
import { HEALTH_STATUSES, type HealthStatus } from '../../../domain/thresholds';
import {
  type ConsoleMetric,
  type MetricDetailView,
  type MetricFilters,
  type ProbeTestOutcome,
  metricDetailBody,
  metricHref,
  metricListBody,
  statusText,
} from '../../../render/console/pages/metrics';
import {
  type LocationChoice,
  type MeasurementFormValues,
  type MetricLocationsView,
  measurementValues,
} from '../../../render/console/pages/metric-locations';
import { listLocations } from '../../../usecases/agents/locations';
import { listMetricFlips } from '../../../usecases/metrics/flips';
import {
  MANUAL_STATUSES,
  getMetric,
  listMetrics,
  setManualStatus,
  updateMetric,
} from '../../../usecases/metrics/metrics';
import { MetricPatchBody } from '../../schemas/metrics';
import type { FormProblem } from '../../../render/console/forms';
import type { MetricView } from '../../../usecases/metrics/view';
import { pollProbeTest, runProbeTest } from '../../../usecases/probe-tests/run';
import { getService, listServices } from '../../../usecases/services/services';
import { getAgent } from '../../../usecases/agents/agents';
import { type ConsoleViewer, LIVE_SECONDS, redirectWithFlash, requireScope, sendPage } from '../context';
import type { ConsoleDeps } from '../deps';
import { attempt, field, flashOf, listQuery, validated } from '../forms';
import { metricFormPages } from './metric-forms';
import { createIncidentButton } from '../../../render/console/pages/incident-buttons';
import {
  AGENT_WAIT_SECONDS,
  canTest,
  measurementBody,
  measurementFormValues,
  outcomeOf,
  requireProbeTestScope,
} from './metric-shared';

const NAV = '/console/metrics';

/** A filter of the list read from the query string: '' when absent, 400 when malformed (as the API's listMetrics). */
function filtersOf(query: unknown): MetricFilters {
  const q = (query ?? {}) as Record<string, unknown>;
  const str = (k: string) => (typeof q[k] === 'string' ? q[k].trim() : '');
  const filters = { service_id: str('service_id'), status: str('status'), agent_id: str('agent_id') };
  const errors: { path: string; message: string }[] = [];
  if (filters.service_id && !isUuid(filters.service_id))
    errors.push({ path: 'query.service_id', message: 'Expected a UUID' });
  if (filters.agent_id && !isUuid(filters.agent_id))
    errors.push({ path: 'query.agent_id', message: 'Expected a UUID' });
  if (filters.status && !(HEALTH_STATUSES as readonly string[]).includes(filters.status))
    errors.push({ path: 'query.status', message: `Expected one of ${HEALTH_STATUSES.join(', ')}` });
  if (errors.length)
    throw new ProblemError('validation_failed', 'The filters are not ones this list takes.', { errors });
  return filters;
}

/** The names of the services `ids` name; a service no longer readable maps to null. */
async function serviceNames(
  v: ConsoleViewer,
  ids: string[],
  known: Map<string, string>,
): Promise<Map<string, string | null>> {
  const names = new Map<string, string | null>();
  for (const id of new Set(ids)) {
    if (known.has(id)) names.set(id, known.get(id)!);
    else {
      const found = await attempt(() => getService(v.ctx, id));
      names.set(id, found.ok ? found.value.name : null);
    }
  }
  return names;
}

function consoleMetric(m: MetricView, serviceName: string | null): ConsoleMetric {
  return { ...m, service_name: serviceName };
}

/** The metric's own probe test: its type, configuration, thresholds and agent (spec §2.2's ProbeTestRequest). */
function probeTestBody(m: MetricView): Record<string, unknown> {
  return {
    agent_id: m.agent_id,
    source_type: m.source_type,
    source_config: m.source_config,
    thresholds: m.thresholds,
    ...(m.agent_id ? { wait_seconds: AGENT_WAIT_SECONDS } : {}),
  };
}

/** Flips shown on the metric's page (newest first); the API lists the rest. */
const FLIPS_SHOWN = 10;

/** The form's PATCH body (the API's MetricPatch): no location ticked is the default (null); an agent metric keeps its agent. */
function measurementPatch(values: MeasurementFormValues, mode: MetricView['mode']) {
  const { body, own } = measurementBody(values, mode);
  return validated(MetricPatchBody, body, own);
}

/** Metrics: the list with its filters, one metric with its history, "Test this probe" and the manual status. */
export const metricPages: FastifyPluginAsync<ConsoleDeps> = async (app, deps) => {
  // Create, edit, delete, pause and resume.
  await app.register(metricFormPages, deps);

  /** The metric's locations, confirmation and flips, and (for write:metrics) the form that changes them. */
  async function locationsView(
    v: ConsoleViewer,
    m: Awaited<ReturnType<typeof getMetric>>,
    form?: { values: MeasurementFormValues; problem: FormProblem },
  ): Promise<MetricLocationsView> {
    const flips = await listMetricFlips(v.ctx, m.id, { limit: FLIPS_SHOWN });
    const labels = new Map<string, string>();
    for (const r of m.location_readings) if (r.label) labels.set(r.location, r.label);
    let choices: LocationChoice[] = [];
    const editable = v.can('write:metrics');
    if (editable && m.mode === 'cloud') {
      const listed = await listLocations(v.ctx, deps.locationTaskQueue ?? 'vigil', { limit: 200 });
      choices = listed.items.map((l) => ({ id: l.id, label: l.label, kind: l.kind, status: l.status }));
      for (const l of listed.items) if (!labels.has(l.id)) labels.set(l.id, l.label);
    }
    return {
      metricId: m.id,
      mode: m.mode,
      unit: m.unit,
      locations: m.locations,
      confirmation: m.confirmation,
      readings: m.location_readings,
      pending: m.confirmation_pending,
      flips: flips.items,
      moreFlips: flips.next_cursor !== null,
      labels,
      form: editable
        ? {
            csrf: v.csrf,
            choices,
            values: form?.values ?? measurementValues(m.locations, m.confirmation),
            problem: form?.problem ?? null,
          }
        : null,
      zone: v.timeZone,
    };
  }

  async function detailPage(
    v: ConsoleViewer,
    id: string,
    extra: Pick<MetricDetailView, 'test' | 'manual'> & {
      measurement?: { values: MeasurementFormValues; problem: FormProblem };
    } = {},
  ): Promise<{ title: string; body: string }> {
    const m = await getMetric(v.ctx, id, 30);
    const { history, location_readings: _readings, confirmation_pending: _pending, ...view } = m;
    const names = await serviceNames(v, [m.service_id], new Map());
    const agentName = m.agent_id ? ((await getAgent(v.ctx, m.agent_id).catch(() => null))?.name ?? null) : null;
    const body = metricDetailBody({
      metric: { ...consoleMetric(view, names.get(m.service_id) ?? null), agent_name: agentName },
      history,
      csrf: v.csrf,
      canTest: canTest(v),
      testable: isTestableSourceType(m.source_type),
      canSetStatus: v.can('write:metrics'),
      manualStatuses: MANUAL_STATUSES,
      temporalUiUrl: deps.temporalUiUrl,
      test: extra.test,
      manual: extra.manual,
      locations: await locationsView(v, m, extra.measurement),
      canEdit: v.can('write:metrics'),
      zone: v.timeZone,
    });
    const draft = v.can('write:incidents') ? createIncidentButton({ from: 'metric', id: m.id, csrf: v.csrf }) : '';
    return { title: `Metric: ${m.name}`, body: `${draft}${body}` };
  }

  app.get('/metrics', async (request, reply) => {
    const v = requireScope(request, 'read:metrics');
    const filters = filtersOf(request.query);
    const q = listQuery(request.query, 50);
    const page = await listMetrics(v.ctx, {
      ...q,
      ...(filters.service_id ? { service_id: filters.service_id } : {}),
      ...(filters.status ? { status: filters.status } : {}),
      ...(filters.agent_id ? { agent_id: filters.agent_id } : {}),
    });
    // The filter offers the organization's services (the first 200; a service further down is still
    // reachable through its metrics' links).
    const services = (await listServices(v.ctx, { limit: 200 })).items.map((s) => ({ id: s.id, name: s.name }));
    const known = new Map(services.map((s) => [s.id, s.name]));
    const names = await serviceNames(
      v,
      [...page.items.map((m) => m.service_id), ...(filters.service_id ? [filters.service_id] : [])],
      known,
    );
    // A filtered service beyond the first 200 is still offered (selected) by the filter.
    const filtered = filters.service_id ? names.get(filters.service_id) : undefined;
    if (filtered && !known.has(filters.service_id)) services.push({ id: filters.service_id, name: filtered });
    const body = metricListBody({
      metrics: page.items.map((m) => consoleMetric(m, names.get(m.service_id) ?? null)),
      nextCursor: page.nextCursor,
      filters,
      services,
      statuses: HEALTH_STATUSES,
      canCreate: v.can('write:metrics'),
      zone: v.timeZone,
    });
    return sendPage(reply, v, NAV, { title: 'Metrics', flash: flashOf(request.query), body, live: LIVE_SECONDS });
  });

  app.get<{ Params: { id: string } }>('/metrics/:id', async (request, reply) => {
    const v = requireScope(request, 'read:metrics');
    return sendPage(reply, v, NAV, {
      ...(await detailPage(v, request.params.id)),
      flash: flashOf(request.query),
      live: LIVE_SECONDS,
    });
  });

  // "Test this probe": the API's POST /v1/metrics/test with the metric's own definition. Nothing is
  // stored, so the answer is shown at once (no redirect); a test its agent has not answered yet
  // links to its result.
  app.post<{ Params: { id: string } }>('/metrics/:id/test', async (request, reply) => {
    const v = requireProbeTestScope(request);
    requireScope(request, 'read:metrics');
    const m = await getMetric(v.ctx, request.params.id, 0);
    const ran = await attempt(() => runProbeTest(v.ctx, deps.probeTests, probeTestBody(m)));
    const test: ProbeTestOutcome = ran.ok ? outcomeOf(m.id, ran.value) : { kind: 'problem', problem: ran.problem };
    return sendPage(reply, v, NAV, await detailPage(v, m.id, { test }), ran.ok ? 200 : ran.status);
  });

  app.get<{ Params: { id: string; jobId: string } }>('/metrics/:id/test/:jobId', async (request, reply) => {
    const v = requireProbeTestScope(request);
    requireScope(request, 'read:metrics');
    const m = await getMetric(v.ctx, request.params.id, 0);
    const polled = await attempt(() => pollProbeTest(v.ctx, request.params.jobId));
    // An unknown job is the page's 404; a test that failed or expired is shown on the metric.
    if (!polled.ok && polled.status === 404)
      throw new ProblemError('not_found', 'No such probe test in this organization.');
    const test: ProbeTestOutcome = polled.ok
      ? outcomeOf(m.id, polled.value)
      : { kind: 'problem', problem: polled.problem };
    return sendPage(reply, v, NAV, await detailPage(v, m.id, { test }), polled.ok ? 200 : polled.status);
  });

  // Locations and confirmation, through the API's PATCH /v1/metrics/{id} (same body schema, same checks).
  app.post<{ Params: { id: string } }>('/metrics/:id/measurement', async (request, reply) => {
    const v = requireScope(request, 'write:metrics');
    const values = measurementFormValues(request.body);
    const done = await attempt(async () => {
      const m = await getMetric(v.ctx, request.params.id, 0);
      if (m.mode === 'push')
        throw new ProblemError(
          'validation_failed',
          `${m.source_type} metrics are pushed to Vigil: no location measures them.`,
          { errors: [{ path: 'confirmation', message: 'Not for pushed metrics' }] },
        );
      return updateMetric(v.ctx, { scheduler: deps.metricScheduler }, m.id, measurementPatch(values, m.mode));
    });
    if (done.ok) return redirectWithFlash(reply, metricHref(done.value.id), 'Locations and confirmation saved.');
    if (done.status === 404) throw new ProblemError('not_found', done.problem.detail);
    return sendPage(
      reply,
      v,
      NAV,
      await detailPage(v, request.params.id, { measurement: { values, problem: done.problem } }),
      done.status,
    );
  });

  app.post<{ Params: { id: string } }>('/metrics/:id/status', async (request, reply) => {
    const v = requireScope(request, 'write:metrics');
    const status = field(request.body, 'status');
    const done = await attempt(async () => {
      // The API's ManualStatus body: one of the three statuses (validation_failed, path `status`).
      if (!(MANUAL_STATUSES as readonly string[]).includes(status)) {
        throw new ProblemError('validation_failed', 'The status is not one a manual metric takes.', {
          errors: [{ path: 'status', message: `Expected one of ${MANUAL_STATUSES.join(', ')}` }],
        });
      }
      return setManualStatus(v.ctx, request.params.id, status as HealthStatus);
    });
    if (done.ok) return redirectWithFlash(reply, metricHref(done.value.id), `Status set to ${statusText(status)}.`);
    if (done.status === 404) throw new ProblemError('not_found', done.problem.detail);
    return sendPage(
      reply,
      v,
      NAV,
      await detailPage(v, request.params.id, { manual: { problem: done.problem, status } }),
      done.status,
    );
  });
};
