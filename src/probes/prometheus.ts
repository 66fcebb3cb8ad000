/**
 * Prometheus probe: the scalar result of an instant PromQL query (GET /api/v1/query), not
 * rescaled, unit null. A scalar, or a vector of exactly one series, gives the value.
 * Decisions (spec silent):
 * - Server: `server_url`, else the agent's PROMETHEUS_SERVER_URL (http or https, may carry a path
 *   prefix). Only that variable may carry `user:password@` (sent as Basic auth); together with
 *   PROMETHEUS_BEARER_TOKEN that is prometheus_auth_conflict. PROMETHEUS_TENANT_ID is sent as
 *   X-Scope-OrgID (Mimir, Cortex, Thanos). Values with control characters: prometheus_headers_invalid.
 *   The token and tenant go only to the origin of PROMETHEUS_SERVER_URL (./fixed-credentials): a
 *   `server_url` elsewhere is queried without them.
 * - The request may take `ctx.defaultTimeoutMs` (the config has no timeout); no redirects.
 * - 401/403 Unauthorized; 400/422 BadQuery (Prometheus' errorType and error text in metadata);
 *   5xx PromUpstream; any other status, a body that is not a Prometheus answer, or a
 *   `"status": "error"` answer on 2xx: prom_bad_response.
 * - A range vector (`up[5m]`) or a string result is BadQuery: it is not one instant value.
 * - An unresolvable hostname is DNS; other network failures keep their code (ECONNREFUSED…).
 */
import type { SourceConfigOf } from '../domain/source-config';
import { apiUrl, callJsonApi, isHeaderSafe, networkFailure, short } from './api-json';
import { fixedCredentialsFor } from './fixed-credentials';
import { readInstantResult } from './instant-query-result';
import { measured, noValue, readSetting, type Probe, type ProbeContext, type ProbeOutcome } from './types';

export const PROMETHEUS_ENV = {
  serverUrl: 'PROMETHEUS_SERVER_URL',
  bearerToken: 'PROMETHEUS_BEARER_TOKEN',
  tenantId: 'PROMETHEUS_TENANT_ID',
} as const;

type Target = { url: URL; headers: Record<string, string> } | { failure: ProbeOutcome };

export const prometheusProbe: Probe<SourceConfigOf<'prometheus'>> = async (config, ctx) => {
  const target = resolveTarget(config.server_url, ctx);
  if ('failure' in target) return target.failure;
  const url = apiUrl(target.url, 'api/v1/query');
  url.searchParams.set('query', config.query);
  const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(ctx.defaultTimeoutMs)]);
  try {
    const answer = await callJsonApi(url, { method: 'GET', headers: target.headers, signal });
    return outcomeOf(answer.status, answer.json, answer.malformed);
  } catch (err) {
    if (signal.aborted) return noValue('ETIMEDOUT');
    const failure = networkFailure(err);
    if (!failure.code) return noValue('AgentInternal', { error: failure.name });
    return noValue(failure.code === 'ENOTFOUND' ? 'DNS' : failure.code, { host: target.url.hostname });
  }
};

function resolveTarget(serverUrl: string | undefined, ctx: ProbeContext): Target {
  const raw = serverUrl ?? readSetting(ctx, PROMETHEUS_ENV.serverUrl)?.trim();
  if (!raw) return { failure: noValue('prometheus_url_missing', { variable: PROMETHEUS_ENV.serverUrl }) };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { failure: noValue('invalid_prometheus_url') };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { failure: noValue('invalid_prometheus_url', { protocol: url.protocol }) };
  const headers: Record<string, string> = {};
  // The agent's Prometheus credentials go only to the agent's own Prometheus: a `server_url` in the
  // config (chosen by whoever may write metrics) elsewhere gets none of them.
  const fixed = fixedCredentialsFor(ctx, PROMETHEUS_ENV.serverUrl, url);
  const token = fixed(PROMETHEUS_ENV.bearerToken)?.trim();
  const tenant = fixed(PROMETHEUS_ENV.tenantId)?.trim();
  const basic = url.username !== '' || url.password !== '';
  if (basic && token)
    return {
      failure: noValue('prometheus_auth_conflict', {
        variables: `${PROMETHEUS_ENV.serverUrl} credentials, ${PROMETHEUS_ENV.bearerToken}`,
      }),
    };
  if (token) headers.authorization = `Bearer ${token}`;
  if (basic)
    headers.authorization = `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`;
  if (tenant) headers['x-scope-orgid'] = tenant;
  for (const [variable, value] of [
    [PROMETHEUS_ENV.bearerToken, token],
    [PROMETHEUS_ENV.tenantId, tenant],
  ] as const) {
    if (value && !isHeaderSafe(value)) return { failure: noValue('prometheus_headers_invalid', { variable }) };
  }
  return { url, headers };
}

function outcomeOf(status: number, json: unknown, malformed: boolean): ProbeOutcome {
  const body = (typeof json === 'object' && json !== null ? json : {}) as Record<string, unknown>;
  if (status === 401 || status === 403) return noValue('Unauthorized', { status });
  if (status === 400 || status === 422) {
    return noValue('BadQuery', { status, error_type: short(body.errorType, 64), error: short(body.error) });
  }
  if (status >= 500) return noValue('PromUpstream', { status, error_type: short(body.errorType, 64) });
  if (status < 200 || status > 299) return noValue('prom_bad_response', { status });
  if (malformed || body.status !== 'success')
    return noValue('prom_bad_response', { status, problem: malformed ? 'not_json' : 'not_success' });
  const result = readInstantResult(body.data);
  switch (result.kind) {
    case 'value':
      return Number.isFinite(result.value)
        ? measured(result.value, null, 'Result of the PromQL query')
        : noValue('non_finite_value');
    case 'empty':
      return noValue('no_data_for_query');
    case 'multiple':
      return noValue('prom_multiple_series', { series: result.series });
    case 'other':
      return noValue('BadQuery', { result_type: short(result.resultType, 32) });
    case 'malformed':
      return noValue('prom_bad_response', { status, problem: 'unexpected_result' });
  }
}
