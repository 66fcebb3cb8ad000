/**
 * Elasticsearch/OpenSearch probe: the value of the named aggregation of one search (POST
 * /<index>/_search with the config's body and `size: 0`, so no document comes back), not
 * rescaled, unit null. Which field gives the value: see es-aggregation.ts (`value`, a single
 * percentile, or `doc_count` of a single-bucket aggregation).
 * Decisions (spec silent):
 * - `auth_ref` names a variable holding the whole Authorization header value ("ApiKey …",
 *   "Basic …", "Bearer …"); unset or blank: es_auth_ref_missing; a line break: header_ref_invalid.
 * - Timeout `timeout_ms` (else ctx.defaultTimeoutMs), the probe deadline, a 504 and a 200 with
 *   `timed_out: true` (partial results) are es_timeout. 401/403 es_unauthorized; 400/422
 *   es_query_error (error type and reason in metadata); 404 with an Elasticsearch error body
 *   es_index_not_found; other 5xx es_server_error; 429 es_error; anything that is not a search
 *   answer es_bad_response. Network failures: es_unreachable. No redirects.
 */
import type { SourceConfigOf } from '../domain/source-config';
import { type ApiAnswer, callJsonApi, isHeaderSafe, networkFailure, short } from './api-json';
import { aggregationValue } from './es-aggregation';
import { measured, noValue, type Probe, type ProbeOutcome } from './types';

type EsConfig = SourceConfigOf<'elasticsearch'>;

const MAX_NAMES = 20;

export const elasticsearchProbe: Probe<EsConfig> = async (config, ctx) => {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (config.auth_ref !== undefined) {
    const auth = ctx.env(config.auth_ref)?.trim();
    if (!auth) return noValue('es_auth_ref_missing', { auth_ref: config.auth_ref });
    if (!isHeaderSafe(auth))
      return noValue('header_ref_invalid', { header: 'Authorization', header_ref: config.auth_ref });
    headers.authorization = auth;
  }
  const url = searchUrl(config.url, config.index);
  const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(config.timeout_ms ?? ctx.defaultTimeoutMs)]);
  try {
    const answer = await callJsonApi(url, {
      method: 'POST',
      headers,
      body: JSON.stringify({ ...config.query, size: 0 }),
      signal,
    });
    return outcomeOf(answer, config.aggregation);
  } catch (err) {
    if (signal.aborted) return noValue('es_timeout');
    const failure = networkFailure(err);
    return failure.code
      ? noValue('es_unreachable', { cause: failure.code })
      : noValue('es_error', { error: failure.name });
  }
};

/** `<url>/<index>/_search`, keeping a path prefix; the index (pattern) is one encoded path segment. */
function searchUrl(base: string, index: string): URL {
  const url = new URL(base);
  const prefix = url.pathname.endsWith('/') ? url.pathname : `${url.pathname}/`;
  url.pathname = `${prefix}${encodeURIComponent(index).replace(/%2C/gi, ',')}/_search`;
  url.search = '';
  url.hash = '';
  return url;
}

function outcomeOf({ status, json, malformed }: ApiAnswer, name: string): ProbeOutcome {
  const body = (typeof json === 'object' && json !== null && !Array.isArray(json) ? json : {}) as Record<
    string,
    unknown
  >;
  const error = esError(body);
  if (status === 401 || status === 403) return noValue('es_unauthorized', { status, ...error });
  if (status === 400 || status === 422) return noValue('es_query_error', { status, ...error });
  if (status === 404 && !malformed && body.error !== undefined)
    return noValue('es_index_not_found', { status, ...error });
  if (status === 504 || status === 408) return noValue('es_timeout', { status });
  if (status === 429) return noValue('es_error', { status, ...error });
  if (status >= 500) return noValue('es_server_error', { status, ...error });
  if (status < 200 || status > 299 || malformed) return noValue('es_bad_response', { status });
  if (body.timed_out === true) return noValue('es_timeout', { partial_results: true });
  if (!('hits' in body) && !('aggregations' in body))
    return noValue('es_bad_response', { status, problem: 'not_a_search_response' });
  const agg = aggregationValue(body.aggregations, name);
  switch (agg.kind) {
    case 'value':
      return Number.isFinite(agg.value)
        ? measured(agg.value, null, `Value of aggregation ${name}`)
        : noValue('non_finite_value');
    case 'null':
      return noValue('es_no_data');
    case 'not_found':
      return noValue('es_agg_not_found', { available: agg.available.slice(0, MAX_NAMES).join(', ').slice(0, 500) });
    case 'unsupported':
      return noValue('es_agg_unsupported', { shape: agg.shape });
  }
}

/** `{ error: { type, reason }, status }` as Elasticsearch and OpenSearch write errors. */
function esError(body: Record<string, unknown>): Record<string, string> {
  const e = body.error;
  if (typeof e === 'string') return { error: short(e) ?? '' };
  if (typeof e !== 'object' || e === null) return {};
  const { type, reason } = e as Record<string, unknown>;
  const out: Record<string, string> = {};
  if (short(type, 64)) out.error_type = short(type, 64)!;
  if (short(reason)) out.error = short(reason)!;
  return out;
}
