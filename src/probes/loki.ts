/**
 * Loki probe: the scalar result of a LogQL metric query (instant query, GET /loki/api/v1/query),
 * not rescaled, unit null. A scalar, or a vector of exactly one series, gives the value.
 * Decisions (spec silent):
 * - URL from `url`, else the variable named by `url_ref` (unset: loki_error with the variable name,
 *   there being no dedicated code; not an http(s) URL: invalid_url). May carry a path prefix.
 * - `auth_ref` names a variable holding the whole Authorization header value ("Basic …",
 *   "Bearer …"); unset or blank: loki_auth_ref_missing; a line break in it: header_ref_invalid.
 *   The agent's LOKI_TENANT_ID, when set, goes out as X-Scope-OrgID (multi-tenant Loki), but only
 *   to the origin of the agent's LOKI_SERVER_URL (./fixed-credentials): a URL elsewhere, or any URL
 *   while LOKI_SERVER_URL is unset, is queried without it, as Prometheus does with its credentials.
 * - Timeout `timeout_ms` (else ctx.defaultTimeoutMs) and the probe deadline: loki_timeout; a 504
 *   (Loki's own query timeout) too. 401/403 loki_unauthorized; 400/422 loki_query_error with
 *   Loki's error text (plain text, ≤ 200 chars); other 5xx loki_server_error; 404 or a body that
 *   is not a Loki answer loki_bad_response; other statuses (429…) loki_error with the status.
 * - A log query answers `streams`: loki_not_aggregation. Network failures: loki_unreachable.
 */
import type { SourceConfigOf } from '../domain/source-config';
import { type ApiAnswer, apiUrl, callJsonApi, isHeaderSafe, networkFailure, short } from './api-json';
import { fixedCredentialsFor } from './fixed-credentials';
import { readInstantResult } from './instant-query-result';
import { measured, noValue, type Probe, type ProbeOutcome } from './types';

export const LOKI_TENANT_ENV = 'LOKI_TENANT_ID';
/** The agent's own Loki: the one server LOKI_TENANT_ID is sent to. */
export const LOKI_SERVER_ENV = 'LOKI_SERVER_URL';

type LokiConfig = SourceConfigOf<'loki'>;

export const lokiProbe: Probe<LokiConfig> = async (config, ctx) => {
  const base = lokiBase(config, (name) => ctx.env(name));
  if (!(base instanceof URL)) return base;
  const headers: Record<string, string> = {};
  if (config.auth_ref !== undefined) {
    const auth = ctx.env(config.auth_ref)?.trim();
    if (!auth) return noValue('loki_auth_ref_missing', { auth_ref: config.auth_ref });
    if (!isHeaderSafe(auth))
      return noValue('header_ref_invalid', { header: 'Authorization', header_ref: config.auth_ref });
    headers.authorization = auth;
  }
  const tenant = fixedCredentialsFor(ctx, LOKI_SERVER_ENV, base)(LOKI_TENANT_ENV)?.trim();
  if (tenant) {
    if (!isHeaderSafe(tenant))
      return noValue('header_ref_invalid', { header: 'X-Scope-OrgID', header_ref: LOKI_TENANT_ENV });
    headers['x-scope-orgid'] = tenant;
  }
  const url = apiUrl(base, 'loki/api/v1/query');
  url.searchParams.set('query', config.query);
  const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(config.timeout_ms ?? ctx.defaultTimeoutMs)]);
  try {
    const answer = await callJsonApi(url, { method: 'GET', headers, signal });
    return outcomeOf(answer);
  } catch (err) {
    if (signal.aborted) return noValue('loki_timeout');
    const failure = networkFailure(err);
    return failure.code
      ? noValue('loki_unreachable', { cause: failure.code })
      : noValue('loki_error', { error: failure.name });
  }
};

function lokiBase(config: LokiConfig, env: (name: string) => string | undefined): URL | ProbeOutcome {
  const raw = config.url ?? (config.url_ref !== undefined ? env(config.url_ref)?.trim() : undefined);
  if (!raw) return noValue('loki_error', { url_ref: config.url_ref ?? null, problem: 'url_ref_unset' });
  try {
    const url = new URL(raw);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url;
  } catch {
    // falls through
  }
  return noValue('invalid_url', { url_ref: config.url_ref ?? null });
}

function outcomeOf({ status, json, malformed, plainText }: ApiAnswer): ProbeOutcome {
  if (status === 401 || status === 403) return noValue('loki_unauthorized', { status });
  if (status === 400 || status === 422)
    return noValue('loki_query_error', { status, error: errorText(json, plainText) });
  if (status === 504) return noValue('loki_timeout', { status });
  if (status >= 500) return noValue('loki_server_error', { status });
  if (status === 404) return noValue('loki_bad_response', { status });
  if (status < 200 || status > 299) return noValue('loki_error', { status });
  const body = (typeof json === 'object' && json !== null ? json : {}) as Record<string, unknown>;
  if (malformed || body.status !== 'success')
    return noValue('loki_bad_response', { status, problem: malformed ? 'not_json' : 'not_success' });
  const result = readInstantResult(body.data);
  switch (result.kind) {
    case 'value':
      return Number.isFinite(result.value)
        ? measured(result.value, null, 'Result of the LogQL query')
        : noValue('non_finite_value');
    case 'empty':
      return noValue('loki_no_data');
    case 'multiple':
      return noValue('loki_multiple_series', { series: result.series });
    case 'other':
      return result.resultType === 'streams'
        ? noValue('loki_not_aggregation')
        : noValue('loki_bad_response', { result_type: short(result.resultType, 32) });
    case 'malformed':
      return noValue('loki_bad_response', { status, problem: 'unexpected_result' });
  }
}

/** Loki writes errors as plain text; gateways in front of it may answer JSON. */
function errorText(json: unknown, plainText: string | null): string | null {
  if (typeof json === 'object' && json !== null) {
    const o = json as Record<string, unknown>;
    return short(o.error) ?? short(o.message);
  }
  return short(plainText?.trim());
}
