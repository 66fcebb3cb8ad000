import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { type FieldError, ProblemError } from '../../../domain/error-catalog';
import { isPushSourceType, isSourceType, sourceTypeRow } from '../../../domain/source-types';
import type { FormProblem } from '../../../render/console/forms';
import { type MetricFormValues, metricDeleteBody, metricFormBody } from '../../../render/console/pages/metric-form';
import { sourceConfigFromForm, sourceFormValues } from '../../../render/console/pages/metric-form-fields';
import { thresholdValuesOf, thresholdsBody } from '../../../render/console/pages/metric-form-thresholds';
import { measurementValues } from '../../../render/console/pages/metric-locations';
import { type ProbeTestOutcome, metricHref, probeOutcomeBlock } from '../../../render/console/pages/metrics';
import { listAgents } from '../../../usecases/agents/agents';
import { listLocations } from '../../../usecases/agents/locations';
import {
  createMetric,
  definitionErrors,
  deleteMetric,
  getMetric,
  placementProblem,
  updateMetric,
} from '../../../usecases/metrics/metrics';
import { inboundUrl } from '../../../usecases/metrics/inbound';
import { pollProbeTest, runProbeTest } from '../../../usecases/probe-tests/run';
import { listServices } from '../../../usecases/services/services';
import { MetricCreateBody, MetricPatchBody } from '../../schemas/metrics';
import { type ConsoleViewer, redirectWithFlash, requireScope, sendPage } from '../context';
import type { ConsoleDeps } from '../deps';
import { attempt, field, flashOf, validated } from '../forms';
import {
  AGENT_WAIT_SECONDS,
  canTest,
  measurementBody,
  measurementFormValues,
  outcomeOf,
  requireProbeTestScope,
} from './metric-shared';

const NAV = '/console/metrics';
const NEW_TEST_POLL = '/console/metrics/tests';

/** The form as posted (strings as typed, so a refused form shows them again). */
function formValues(body: unknown, sourceType: string): MetricFormValues {
  const get = (name: string) => field(body, name);
  const source: Record<string, string> = {};
  for (const [k, val] of Object.entries((body ?? {}) as Record<string, unknown>))
    if (k.startsWith('source_config.') && typeof val === 'string') source[k] = val;
  return {
    service_id: get('service_id'),
    name: get('name'),
    source_type: sourceType,
    interval_seconds: get('interval_seconds').trim(),
    agent_id: get('agent_id'),
    unit: get('unit').trim(),
    source,
    thresholds: {
      healthy_operation: get('thresholds.healthy_operation'),
      healthy_value: get('thresholds.healthy_value'),
      unhealthy_operation: get('thresholds.unhealthy_operation'),
      unhealthy_value: get('thresholds.unhealthy_value'),
    },
    measurement: measurementFormValues(body),
  };
}

function storedValues(m: Awaited<ReturnType<typeof getMetric>>): MetricFormValues {
  return {
    service_id: m.service_id,
    name: m.name,
    source_type: m.source_type,
    interval_seconds: String(m.interval_seconds),
    agent_id: m.agent_id ?? '',
    unit: m.unit ?? '',
    source: sourceFormValues(m.source_type, m.source_config),
    thresholds: thresholdValuesOf(m.thresholds),
    measurement: measurementValues(m.locations, m.confirmation),
  };
}

/**
 * The form as the API's body (create, or the PATCH of every field the form holds), with every
 * problem found at once: the body schema's, the type's own source_config and threshold rules
 * (definitionErrors: the validators the API runs), and what the form could not read.
 */
function draftOf(v: MetricFormValues, creating: boolean): { body: Record<string, unknown>; extra: FieldError[] } {
  const own: FieldError[] = [];
  const source = sourceConfigFromForm(v.source_type, (name) => v.source[name] ?? '');
  own.push(...source.errors);
  const rule = sourceTypeRow(v.source_type)?.thresholds;
  const given = thresholdsBody(v.thresholds);
  // An HTTP check with all four left empty is an up/down check: no thresholds at all.
  const refused = rule === 'refused' || (rule === 'optional' && Object.keys(given).length === 0);
  const thresholds = refused ? null : given;
  const push = isPushSourceType(v.source_type);
  const measurement = push ? { body: {}, own: [] } : measurementBody(v.measurement, v.agent_id ? 'agent' : 'cloud');
  own.push(...measurement.own);
  const interval = /^\d+$/.test(v.interval_seconds) ? Number(v.interval_seconds) : v.interval_seconds || undefined;
  const body: Record<string, unknown> = {
    service_id: v.service_id,
    name: v.name,
    ...(creating ? { source_type: v.source_type } : {}),
    source_config: source.config,
    ...(refused ? (creating ? {} : { thresholds: null }) : { thresholds }),
    ...(push || interval === undefined ? {} : { interval_seconds: interval }),
    ...(push ? {} : { agent_id: v.agent_id || null }),
    unit: v.unit || null,
    ...measurement.body,
  };
  const typed: FieldError[] = isSourceType(v.source_type)
    ? definitionErrors(v.source_type, source.config, thresholds).errors
    : [{ path: 'source_type', message: 'Choose a type from the list' }];
  const placement = isSourceType(v.source_type) ? placementProblem(v.source_type, !!v.agent_id) : null;
  if (placement) typed.push({ path: 'agent_id', message: placement });
  const mine = new Set(own.map((e) => e.path));
  return { body, extra: [...own, ...typed.filter((e) => !mine.has(e.path))] };
}

const createBody = (v: MetricFormValues) => {
  const d = draftOf(v, true);
  return validated(MetricCreateBody, d.body, d.extra);
};
const patchBody = (v: MetricFormValues) => {
  const d = draftOf(v, false);
  return validated(MetricPatchBody, d.body, d.extra);
};

/** Test this probe with the form's settings (the API's testProbe: same body, same checks); nothing is stored. */
async function testForm(
  v: ConsoleViewer,
  deps: ConsoleDeps,
  values: MetricFormValues,
  metricId: string | null,
): Promise<{ outcome: ProbeTestOutcome; status: number }> {
  const source = sourceConfigFromForm(values.source_type, (name) => values.source[name] ?? '');
  const thresholds = thresholdsBody(values.thresholds);
  const ran = await attempt(async () => {
    if (source.errors.length)
      throw new ProblemError('validation_failed', source.errors.map((e) => `${e.path}: ${e.message}`).join('; '), {
        errors: source.errors,
      });
    return runProbeTest(v.ctx, deps.probeTests, {
      agent_id: values.agent_id || null,
      source_type: values.source_type,
      source_config: source.config,
      ...(Object.keys(thresholds).length ? { thresholds } : {}),
      ...(values.agent_id ? { wait_seconds: AGENT_WAIT_SECONDS } : {}),
    });
  });
  if (ran.ok)
    return {
      outcome: outcomeOf(metricId ?? '', ran.value, metricId ? `${metricHref(metricId)}/test` : NEW_TEST_POLL),
      status: 200,
    };
  return { outcome: { kind: 'problem', problem: ran.problem }, status: ran.status };
}

/** Metrics' configuration: create and edit forms for every type, Test this probe before saving, delete, pause and resume. */
export const metricFormPages: FastifyPluginAsync<ConsoleDeps> = async (app, deps) => {
  async function formPage(
    reply: FastifyReply,
    v: ConsoleViewer,
    o: {
      metricId?: string;
      configKey?: string | null;
      values: MetricFormValues;
      problem?: FormProblem | null;
      test?: ProbeTestOutcome | null;
    },
    status = 200,
  ) {
    const services = (await listServices(v.ctx, { limit: 200 })).items.map((s) => ({ id: s.id, name: s.name }));
    const agents = (await listAgents(v.ctx, { limit: 200 })).items
      .filter((a) => a.status !== 'revoked')
      .map((a) => ({ id: a.id, name: a.name }));
    const locations = (await listLocations(v.ctx, deps.locationTaskQueue ?? 'vigil', { limit: 200 })).items;
    const body = metricFormBody({
      metricId: o.metricId,
      storedConfigKey: o.configKey ?? null,
      csrf: v.csrf,
      services,
      agents,
      locationChoices: locations.map((l) => ({ id: l.id, label: l.label, kind: l.kind, status: l.status })),
      labels: new Map(locations.map((l) => [l.id, l.label])),
      values: o.values,
      problem: o.problem ?? null,
      canTest: canTest(v),
      test: o.test ?? null,
      temporalUiUrl: deps.temporalUiUrl,
      zone: v.timeZone,
    });
    return sendPage(reply, v, NAV, { title: o.metricId ? `Edit ${o.values.name}` : 'New metric', body }, status);
  }

  app.get('/metrics/new', async (request, reply) => {
    const v = requireScope(request, 'write:metrics');
    const q = (request.query ?? {}) as Record<string, unknown>;
    // `?type=` from the picker; `?source_type=` as older links say it.
    const asked = typeof q.type === 'string' ? q.type : q.source_type;
    const type = typeof asked === 'string' && isSourceType(asked) ? asked : 'http';
    const values = formValues(
      {
        service_id: typeof q.service_id === 'string' ? q.service_id : '',
        'confirmation.quorum': 'majority',
        'confirmation.failures': '2',
        'confirmation.recoveries': '2',
      },
      type,
    );
    return formPage(reply, v, { values });
  });

  app.post('/metrics/new', async (request, reply) => {
    const v = requireScope(request, 'write:metrics');
    const values = formValues(request.body, field(request.body, 'source_type'));
    if (field(request.body, '_action') === 'test') {
      requireProbeTestScope(request);
      const t = await testForm(v, deps, values, null);
      return formPage(reply, v, { values, test: t.outcome }, t.status);
    }
    const done = await attempt(() => createMetric(v.ctx, { scheduler: deps.metricScheduler }, createBody(values)));
    if (done.ok) {
      const { view, inbound } = done.value;
      const url = inbound
        ? ` Its ${inbound.kind === 'heartbeats' ? 'ping' : 'webhook'} URL, shown only now: ${inboundUrl(deps.publicBaseUrl, inbound)}`
        : '';
      return redirectWithFlash(reply, metricHref(view.id), `Created ${view.name}.${url}`);
    }
    return formPage(reply, v, { values, problem: done.problem }, done.status);
  });

  // A new metric's agent probe test that had not answered yet.
  app.get<{ Params: { jobId: string } }>('/metrics/tests/:jobId', async (request, reply) => {
    const v = requireProbeTestScope(request);
    const polled = await attempt(() => pollProbeTest(v.ctx, request.params.jobId));
    if (!polled.ok && polled.status === 404)
      throw new ProblemError('not_found', 'No such probe test in this organization.');
    const outcome: ProbeTestOutcome = polled.ok
      ? outcomeOf('', polled.value, NEW_TEST_POLL)
      : { kind: 'problem', problem: polled.problem };
    return sendPage(
      reply,
      v,
      NAV,
      {
        title: 'Probe test',
        body: `<p><a href="/console/metrics">All metrics</a></p>${probeOutcomeBlock(outcome, deps.temporalUiUrl, v.timeZone)}`,
      },
      polled.ok ? 200 : polled.status,
    );
  });

  app.get<{ Params: { id: string } }>('/metrics/:id/edit', async (request, reply) => {
    const v = requireScope(request, 'write:metrics');
    const m = await getMetric(v.ctx, request.params.id, 0);
    return formPage(reply, v, { metricId: m.id, configKey: m.config_key, values: storedValues(m) });
  });

  app.post<{ Params: { id: string } }>('/metrics/:id/edit', async (request, reply) => {
    const v = requireScope(request, 'write:metrics');
    const m = await getMetric(v.ctx, request.params.id, 0);
    const values = formValues(request.body, m.source_type);
    if (field(request.body, '_action') === 'test') {
      requireProbeTestScope(request);
      const t = await testForm(v, deps, values, m.id);
      return formPage(reply, v, { metricId: m.id, configKey: m.config_key, values, test: t.outcome }, t.status);
    }
    const done = await attempt(() => updateMetric(v.ctx, { scheduler: deps.metricScheduler }, m.id, patchBody(values)));
    if (done.ok) return redirectWithFlash(reply, metricHref(m.id), `Saved ${done.value.name}.`);
    if (done.status === 404) throw new ProblemError('not_found', done.problem.detail);
    return formPage(reply, v, { metricId: m.id, configKey: m.config_key, values, problem: done.problem }, done.status);
  });

  app.get<{ Params: { id: string } }>('/metrics/:id/delete', async (request, reply) => {
    const v = requireScope(request, 'write:metrics');
    const m = await getMetric(v.ctx, request.params.id, 0);
    return sendPage(reply, v, NAV, {
      title: `Delete ${m.name}`,
      flash: flashOf(request.query),
      body: metricDeleteBody({ metric: m, problem: null, csrf: v.csrf }),
    });
  });

  app.post<{ Params: { id: string } }>('/metrics/:id/delete', async (request, reply) => {
    const v = requireScope(request, 'write:metrics');
    const m = await getMetric(v.ctx, request.params.id, 0);
    const done = await attempt(async () => {
      if (field(request.body, 'confirm') !== 'yes')
        throw new ProblemError('validation_failed', 'Tick the box to confirm the delete.', {
          errors: [{ path: 'confirm', message: 'Tick the box to confirm that the metric goes' }],
        });
      return deleteMetric(v.ctx, { scheduler: deps.metricScheduler }, m.id);
    });
    if (done.ok) return redirectWithFlash(reply, '/console/metrics', `Deleted ${m.name}.`);
    return sendPage(
      reply,
      v,
      NAV,
      { title: `Delete ${m.name}`, body: metricDeleteBody({ metric: m, problem: done.problem, csrf: v.csrf }) },
      done.status,
    );
  });

  // The API's PATCH /v1/metrics/{id} with `paused`.
  for (const [verb, paused] of [
    ['pause', true],
    ['resume', false],
  ] as const) {
    app.post<{ Params: { id: string } }>(`/metrics/:id/${verb}`, async (request, reply) => {
      const v = requireScope(request, 'write:metrics');
      const m = await updateMetric(v.ctx, { scheduler: deps.metricScheduler }, request.params.id, { paused });
      return redirectWithFlash(
        reply,
        metricHref(m.id),
        paused ? `Paused ${m.name}: it is not checked until resumed.` : `Resumed ${m.name}.`,
      );
    });
  }
};
