import type { ServerResponse } from 'node:http';
import type { SourceConfigOf } from '../../src/domain/source-config';
import { getFreePort } from '../../src/launchers/free-port';
import { elasticsearchProbe } from '../../src/probes/elasticsearch';
import type { ProbeContext } from '../../src/probes/types';
import { type ApiServer, type RecordedRequest, sendJson, sendText, startApiServer } from '../support/probe-http-api';

/**
 * Elasticsearch cannot run here, so a loopback server answers POST /<index>/_search over three
 * documents with the response and error formats Elasticsearch documents (search API, metric and
 * bucket aggregations, `{ error: { root_cause, type, reason }, status }`), computing the few
 * aggregations the tests use. API-key auth as with security enabled.
 */
const API_KEY = 'ApiKey cHJvYmU6c2VjcmV0';
const OTHER_KEY = 'ApiKey b3RoZXI6a2V5';
const DOCS = [
  { service: 'api', latency: 10, status: 200 },
  { service: 'api', latency: 30, status: 500 },
  { service: 'web', latency: 20, status: 200 },
];
type Doc = (typeof DOCS)[number];
type Json = Record<string, unknown>;

const esError = (status: number, type: string, reason: string, extra: Json = {}) => ({
  error: { root_cause: [{ type, reason, ...extra }], type, reason, ...extra },
  status,
});

class BadRequest extends Error {}

function matches(doc: Doc, query: Json | undefined): boolean {
  if (query === undefined || 'match_all' in query) return true;
  if ('term' in query) {
    const [field, wanted] = Object.entries(query.term as Json)[0]!;
    const value = typeof wanted === 'object' && wanted !== null ? (wanted as Json).value : wanted;
    return (doc as Json)[field] === value;
  }
  throw new BadRequest(`unknown query [${Object.keys(query)[0]}]`);
}

function aggregate(docs: Doc[], spec: Json): Json {
  const [type, params] = Object.entries(spec).find(([k]) => k !== 'aggs' && k !== 'aggregations') as [string, Json];
  const values = docs.map((d) => (d as Json)[params.field as string] as number);
  switch (type) {
    case 'avg':
      return { value: values.length ? values.reduce((a, b) => a + b, 0) / values.length : null };
    case 'sum':
      return { value: values.reduce((a, b) => a + b, 0) };
    case 'max':
      return { value: values.length ? Math.max(...values) : null };
    case 'value_count':
      return { value: values.length };
    case 'cardinality':
      return { value: new Set(values).size };
    case 'percentiles': {
      const sorted = [...values].sort((a, b) => a - b);
      const percents = (params.percents as number[] | undefined) ?? [50];
      return {
        values: Object.fromEntries(
          percents.map((p) => [
            p.toFixed(1),
            sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : null,
          ]),
        ),
      };
    }
    case 'stats':
      return {
        count: values.length,
        min: Math.min(...values),
        max: Math.max(...values),
        avg: values.reduce((a, b) => a + b, 0) / values.length,
        sum: values.reduce((a, b) => a + b, 0),
      };
    case 'filter':
      return { doc_count: docs.filter((d) => matches(d, params)).length };
    case 'terms': {
      const counts = new Map<unknown, number>();
      for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
      return {
        doc_count_error_upper_bound: 0,
        sum_other_doc_count: 0,
        buckets: [...counts].map(([key, doc_count]) => ({ key, doc_count })),
      };
    }
    default:
      throw new BadRequest(`Unknown aggregation type [${type}]`);
  }
}

async function elasticsearch(req: RecordedRequest, res: ServerResponse): Promise<void> {
  const headers = { 'x-elastic-product': 'Elasticsearch' };
  const path = new URL(req.path, 'http://es').pathname;
  if (path.startsWith('/kibana/')) return sendText(res, 200, '<!doctype html><title>Kibana</title>', 'text/html');
  const m = /^\/([^/]+)\/_search$/.exec(path);
  if (!m || req.method !== 'POST')
    return sendJson(res, 405, esError(405, 'illegal_argument_exception', 'unsupported in this test server'), headers);
  if (req.headers.authorization === OTHER_KEY) {
    return sendJson(
      res,
      403,
      esError(
        403,
        'security_exception',
        'action [indices:data/read/search] is unauthorized for API key id [other] of user [other] on indices [logs-app]',
      ),
      headers,
    );
  }
  if (req.headers.authorization !== API_KEY) {
    return sendJson(
      res,
      401,
      esError(401, 'security_exception', `missing authentication credentials for REST request [${path}]`),
      { ...headers, 'www-authenticate': 'ApiKey' },
    );
  }
  const indices = decodeURIComponent(m[1]!).split(',');
  if (indices.includes('broken')) {
    return sendJson(
      res,
      503,
      {
        error: {
          root_cause: [],
          type: 'search_phase_execution_exception',
          reason: 'all shards failed',
          phase: 'query',
          grouped: true,
          failed_shards: [],
        },
        status: 503,
      },
      headers,
    );
  }
  if (indices.includes('busy')) {
    return sendJson(
      res,
      429,
      esError(
        429,
        'es_rejected_execution_exception',
        'rejected execution of search on EsThreadPoolExecutor[name = node/search, queue capacity = 1000]',
      ),
      headers,
    );
  }
  if (indices.includes('slow')) await new Promise((r) => setTimeout(r, 2_000).unref());
  const missing = indices.find((i) => !i.includes('*') && !['logs-app', 'slow', 'partial'].includes(i));
  if (missing) {
    return sendJson(
      res,
      404,
      esError(404, 'index_not_found_exception', `no such index [${missing}]`, {
        'resource.type': 'index_or_alias',
        'resource.id': missing,
        index_uuid: '_na_',
        index: missing,
      }),
      headers,
    );
  }
  const hasDocs = indices.some(
    (i) => i === 'logs-app' || (i.includes('*') && new RegExp(`^${i.replace(/\*/g, '.*')}$`).test('logs-app')),
  );
  const body = JSON.parse(req.body || '{}') as Json;
  try {
    const docs = (hasDocs ? DOCS : []).filter((d) => matches(d, body.query as Json | undefined));
    const aggs = (body.aggs ?? body.aggregations ?? {}) as Record<string, Json>;
    const aggregations = Object.fromEntries(Object.entries(aggs).map(([name, spec]) => [name, aggregate(docs, spec)]));
    const size = typeof body.size === 'number' ? body.size : 10;
    sendJson(
      res,
      200,
      {
        took: 2,
        timed_out: indices.includes('partial'),
        _shards: { total: 1, successful: 1, skipped: 0, failed: 0 },
        hits: {
          total: { value: docs.length, relation: 'eq' },
          max_score: null,
          hits: docs.slice(0, size).map((d, i) => ({ _index: 'logs-app', _id: String(i), _score: 1, _source: d })),
        },
        ...(Object.keys(aggregations).length ? { aggregations } : {}),
      },
      headers,
    );
  } catch (err) {
    if (!(err instanceof BadRequest)) throw err;
    sendJson(res, 400, esError(400, 'parsing_exception', err.message, { line: 1, col: 10 }), headers);
  }
}

type EsConfig = SourceConfigOf<'elasticsearch'>;
const avgLatency = { aggs: { avg_latency: { avg: { field: 'latency' } } } };

describe('elasticsearch probe against an Elasticsearch-format API', () => {
  let server: ApiServer;
  const env: Record<string, string> = { ES_AUTH: API_KEY };
  const ctxWith = (vars: Record<string, string> = env, signal = new AbortController().signal): ProbeContext => ({
    env: (name) => vars[name],
    mode: 'agent',
    signal,
    defaultTimeoutMs: 5_000,
  });
  const search = (extra: Partial<EsConfig> = {}, vars = env) =>
    elasticsearchProbe(
      {
        url: server.url,
        index: 'logs-app',
        query: avgLatency,
        aggregation: 'avg_latency',
        auth_ref: 'ES_AUTH',
        ...extra,
      },
      ctxWith(vars),
    );

  beforeAll(async () => {
    server = await startApiServer(elasticsearch);
  });

  afterAll(async () => {
    await server?.close();
  });

  describe('measures', () => {
    it('the value of a single-value metric aggregation, unit null, with size 0', async () => {
      expect(await search()).toEqual({
        value: 20,
        unit: null,
        value_description: 'Value of aggregation avg_latency',
        reason: null,
      });
      const sent = server.requests.at(-1)!;
      expect(sent).toMatchObject({ method: 'POST', path: '/logs-app/_search' });
      expect(sent.headers).toMatchObject({ authorization: API_KEY, 'content-type': 'application/json' });
      expect(JSON.parse(sent.body)).toEqual({ ...avgLatency, size: 0 });
    });

    it('sum, max, value_count and cardinality, with a query filtering the documents', async () => {
      const aggs = {
        aggs: {
          total: { sum: { field: 'latency' } },
          worst: { max: { field: 'latency' } },
          n: { value_count: { field: 'latency' } },
          services: { cardinality: { field: 'service' } },
        },
      };
      expect((await search({ query: aggs, aggregation: 'total' })).value).toBe(60);
      expect((await search({ query: aggs, aggregation: 'worst' })).value).toBe(30);
      expect((await search({ query: aggs, aggregation: 'n' })).value).toBe(3);
      expect((await search({ query: aggs, aggregation: 'services' })).value).toBe(2);
      expect((await search({ query: { query: { term: { service: 'api' } }, ...avgLatency } })).value).toBe(20);
      expect((await search({ query: { query: { term: { service: { value: 'web' } } }, ...avgLatency } })).value).toBe(
        20,
      );
    });

    it('a percentiles aggregation asked for one percent', async () => {
      expect(
        (
          await search({
            query: { aggs: { p99: { percentiles: { field: 'latency', percents: [99] } } } },
            aggregation: 'p99',
          })
        ).value,
      ).toBe(30);
    });

    it('doc_count of a single-bucket aggregation (filter)', async () => {
      expect(
        (await search({ query: { aggs: { errors: { filter: { term: { status: 500 } } } } }, aggregation: 'errors' }))
          .value,
      ).toBe(1);
    });

    it('an index pattern and a list of indices', async () => {
      expect((await search({ index: 'logs-*' })).value).toBe(20);
      expect((await search({ index: 'logs-*,other-*' })).value).toBe(20);
      expect(server.requests.at(-1)!.path).toBe('/logs-*,other-*/_search');
    });
  });

  describe('no value', () => {
    it('es_no_data when no document matches (null value)', async () => {
      expect((await search({ query: { query: { term: { service: 'none' } }, ...avgLatency } })).reason).toBe(
        'es_no_data',
      );
      expect((await search({ index: 'nothing-*' })).reason).toBe('es_no_data');
    });

    it('es_agg_not_found, listing the aggregations present', async () => {
      const aggs = { aggs: { total: { sum: { field: 'latency' } }, worst: { max: { field: 'latency' } } } };
      expect(await search({ query: aggs, aggregation: 'avg_latency' })).toMatchObject({
        reason: 'es_agg_not_found',
        metadata: { available: 'total, worst' },
      });
      expect(await search({ query: { query: { match_all: {} } } })).toMatchObject({
        reason: 'es_agg_not_found',
        metadata: { available: '' },
      });
    });

    it('es_agg_unsupported for buckets, stats and several percentiles', async () => {
      expect(
        await search({ query: { aggs: { by: { terms: { field: 'service' } } } }, aggregation: 'by' }),
      ).toMatchObject({ reason: 'es_agg_unsupported', metadata: { shape: 'buckets' } });
      expect(await search({ query: { aggs: { s: { stats: { field: 'latency' } } } }, aggregation: 's' })).toMatchObject(
        { reason: 'es_agg_unsupported', metadata: { shape: 'multi_value' } },
      );
      expect(
        (
          await search({
            query: { aggs: { p: { percentiles: { field: 'latency', percents: [50, 99] } } } },
            aggregation: 'p',
          })
        ).reason,
      ).toBe('es_agg_unsupported');
    });

    it('es_index_not_found (404)', async () => {
      expect(await search({ index: 'nope' })).toMatchObject({
        reason: 'es_index_not_found',
        metadata: { status: 404, error_type: 'index_not_found_exception' },
      });
    });

    it('es_query_error (400) with the error type and reason', async () => {
      expect(await search({ query: { query: { nope: {} }, ...avgLatency } })).toMatchObject({
        reason: 'es_query_error',
        metadata: { status: 400, error_type: 'parsing_exception', error: 'unknown query [nope]' },
      });
    });

    it('es_unauthorized for a missing or wrong key (401) and a key without the privilege (403)', async () => {
      expect(await search({ auth_ref: undefined })).toMatchObject({
        reason: 'es_unauthorized',
        metadata: { status: 401, error_type: 'security_exception' },
      });
      expect(await search({}, { ES_AUTH: 'ApiKey d3Jvbmc=' })).toMatchObject({
        reason: 'es_unauthorized',
        metadata: { status: 401 },
      });
      expect(await search({}, { ES_AUTH: OTHER_KEY })).toMatchObject({
        reason: 'es_unauthorized',
        metadata: { status: 403 },
      });
    });

    it('es_server_error (503 all shards failed)', async () => {
      expect(await search({ index: 'broken' })).toMatchObject({
        reason: 'es_server_error',
        metadata: { status: 503, error_type: 'search_phase_execution_exception' },
      });
    });

    it('es_timeout for timeout_ms, the probe deadline and partial results (timed_out)', async () => {
      // The slow index answers (a success) only after 2 s: a timeout reason shows the probe gave up first, without a wall-clock bound.
      expect((await search({ index: 'slow', timeout_ms: 200 })).reason).toBe('es_timeout');
      const deadline = await elasticsearchProbe(
        { url: server.url, index: 'slow', query: avgLatency, aggregation: 'avg_latency', auth_ref: 'ES_AUTH' },
        ctxWith(env, AbortSignal.timeout(200)),
      );
      expect(deadline.reason).toBe('es_timeout');
      expect(await search({ index: 'partial' })).toMatchObject({
        reason: 'es_timeout',
        metadata: { partial_results: true },
      });
    });

    it('es_error for a status without its own code (429 rejected execution)', async () => {
      expect(await search({ index: 'busy' })).toMatchObject({
        reason: 'es_error',
        metadata: { status: 429, error_type: 'es_rejected_execution_exception' },
      });
    });

    it('es_bad_response for a URL that is not the cluster API', async () => {
      expect(await search({ url: `${server.url}/kibana/` })).toMatchObject({
        reason: 'es_bad_response',
        metadata: { status: 200 },
      });
    });

    it('es_unreachable when nothing listens', async () => {
      const port = await getFreePort();
      expect(await search({ url: `http://127.0.0.1:${port}` })).toMatchObject({
        reason: 'es_unreachable',
        metadata: { cause: 'ECONNREFUSED' },
      });
    });
  });

  describe('agent configuration', () => {
    it('es_auth_ref_missing when the variable is unset, naming it', async () => {
      expect(await search({}, {})).toMatchObject({ reason: 'es_auth_ref_missing', metadata: { auth_ref: 'ES_AUTH' } });
    });

    it('header_ref_invalid when the variable holds a line break', async () => {
      expect((await search({}, { ES_AUTH: `${API_KEY}\nX-Evil: 1` })).reason).toBe('header_ref_invalid');
    });

    it('never puts documents or credentials in the outcome', async () => {
      const outcome = await search({ query: { aggs: { by: { terms: { field: 'service' } } } }, aggregation: 'by' });
      expect(JSON.stringify(outcome)).not.toMatch(/ApiKey|api|web/);
    });
  });
});
