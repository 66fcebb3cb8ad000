import type { FastifyRequest } from 'fastify';
import { type FieldError, ProblemError } from '../../../domain/error-catalog';
import type { MeasurementFormValues } from '../../../render/console/pages/metric-locations';
import { type ProbeTestOutcome, metricHref } from '../../../render/console/pages/metrics';
import type { MetricView } from '../../../usecases/metrics/view';
import type { ProbeTestAnswer } from '../../../usecases/probe-tests/present';
import { type ConsoleViewer, viewer } from '../context';
import { field, fields } from '../forms';

/** What the metric page and the metric forms share: the probe test's scope and answer, and the locations and confirmation fields. */

/**
 * How long "Test this probe" waits for an agent before answering with the pending test and its
 * link (the API's `wait_seconds`; a cloud test always waits for its probe).
 */
export const AGENT_WAIT_SECONDS = 10;

/** The probe test's scope: write:metrics or write:config, as the API's testProbe and getProbeTest. */
export function requireProbeTestScope(request: FastifyRequest): ConsoleViewer {
  const v = viewer(request);
  if (!v.can('write:metrics') && !v.can('write:config'))
    throw new ProblemError(
      'forbidden',
      `Your role (${v.role}) cannot do this: it needs write:metrics or write:config.`,
    );
  return v;
}

export const canTest = (v: ConsoleViewer) => v.can('write:metrics') || v.can('write:config');

/** A probe test's answer as shown; a pending one links to `pollBase/<job id>`. */
export function outcomeOf(
  metricId: string,
  answer: ProbeTestAnswer,
  pollBase = `${metricHref(metricId)}/test`,
): ProbeTestOutcome {
  if (answer.status === 200) return { kind: 'result', result: answer.body };
  const p = answer.body;
  return {
    kind: 'pending',
    jobId: p.job_id,
    state: p.status,
    expiresAt: p.expires_at,
    detail: p.detail,
    pollHref: `${pollBase}/${encodeURIComponent(p.job_id)}`,
  };
}

/** The locations and confirmation form as posted. */
export function measurementFormValues(body: unknown): MeasurementFormValues {
  return {
    locations: fields(body, 'locations'),
    quorum: field(body, 'confirmation.quorum'),
    failures: field(body, 'confirmation.failures').trim(),
    recoveries: field(body, 'confirmation.recoveries').trim(),
    recheck: field(body, 'confirmation.recheck') === 'true',
  };
}

/** The locations and confirmation fields as the API's body (`locations` for cloud metrics only), and what the form itself could not read. */
export function measurementBody(
  values: MeasurementFormValues,
  mode: MetricView['mode'],
): { body: Record<string, unknown>; own: FieldError[] } {
  const own: FieldError[] = [];
  const count = (name: 'failures' | 'recoveries') => {
    const raw = values[name];
    if (/^\d{1,3}$/.test(raw)) return Number(raw);
    own.push({ path: `confirmation.${name}`, message: 'A whole number of rounds from 1 to 10' });
    return raw;
  };
  const quorum = /^\d{1,3}$/.test(values.quorum) ? Number(values.quorum) : values.quorum;
  const confirmation = {
    quorum,
    failures: count('failures'),
    recoveries: count('recoveries'),
    recheck: values.recheck,
  };
  return {
    body: {
      ...(mode === 'cloud' ? { locations: values.locations.length ? values.locations : null } : {}),
      confirmation,
    },
    own,
  };
}
