import { gzipSync } from 'node:zlib';
import { OtlpReceiver } from '../../src/agent/otlp-receiver';
import type { OtlpQuery } from '../../src/agent/otlp-aggregate';

/**
 * A real receiver on 127.0.0.1:<free port>, fed OTLP/HTTP JSON export requests as the
 * OpenTelemetry spec encodes them (camelCase, 64-bit integers as strings, enums as integers),
 * posted with fetch. Aggregations are read back with an explicit `now`.
 */

const T0 = Date.now();
const ns = (ms: number) => (BigInt(Math.round(ms)) * 1_000_000n).toString();
const attr = (key: string, value: string) => ({ key, value: { stringValue: value } });
const CUMULATIVE = 2;
const DELTA = 1;

function exportRequest(metrics: object[]) {
  return {
    resourceMetrics: [
      {
        resource: { attributes: [attr('service.name', 'checkout')] },
        scopeMetrics: [{ scope: { name: 'vigil-test', version: '1.0.0' }, metrics }],
      },
    ],
  };
}

const gauge = (name: string, unit: string, points: Array<[number, number | string, string?]>) => ({
  name,
  unit,
  description: '',
  gauge: {
    dataPoints: points.map(([agoS, v, queue]) => ({
      timeUnixNano: ns(T0 - agoS * 1000),
      ...(typeof v === 'string' ? { asInt: v } : { asDouble: v }),
      attributes: queue ? [attr('queue', queue)] : [],
    })),
  },
});

let receiver: OtlpReceiver;
let url: string;

async function post(
  body: unknown,
  headers: Record<string, string> = { 'Content-Type': 'application/json' },
  target = url,
) {
  const res = await fetch(target, {
    method: 'POST',
    headers,
    body: typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body),
  });
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    body: (await res.json()) as Record<string, unknown>,
  };
}

const q = (metric: string, aggregation: OtlpQuery['aggregation'], extra: Partial<OtlpQuery> = {}): OtlpQuery => ({
  metric,
  aggregation,
  window_seconds: 120,
  ...extra,
});

beforeAll(async () => {
  receiver = new OtlpReceiver({ env: {}, port: 0 });
  const { port } = await receiver.start();
  url = `http://127.0.0.1:${port}/v1/metrics`;
});
afterAll(() => receiver.stop());

describe('OTLP receiver: gauge points', () => {
  beforeAll(async () => {
    const res = await post(
      exportRequest([
        gauge('queue.depth', '{item}', [
          [40, 10, 'a'],
          [30, '20', 'a'],
          [20, 30, 'b'],
          [10, '40', 'a'],
        ]),
      ]),
    );
    expect(res).toEqual({ status: 200, type: 'application/json', body: {} });
  });

  it.each([
    ['mean', 25],
    ['sum', 100],
    ['last', 40],
    ['p50', 25],
    ['p90', 37],
    ['p95', 38.5],
    ['p99', 39.7],
  ] as const)('answers %s over the window in the instrument unit', (aggregation, expected) => {
    const o = receiver.value(q('queue.depth', aggregation), T0);
    expect(o).toMatchObject({ unit: '{item}', reason: null });
    expect(o.value).toBeCloseTo(expected, 9);
  });

  it('answers count as the number of data points, without a unit', () => {
    expect(receiver.value(q('queue.depth', 'count'), T0)).toMatchObject({ value: 4, unit: null, reason: null });
  });

  it('keeps only points whose attributes match the filter (resource attributes included)', () => {
    expect(
      receiver.value(q('queue.depth', 'mean', { attributes: { queue: 'a', 'service.name': 'checkout' } }), T0).value,
    ).toBeCloseTo(70 / 3, 9);
    expect(receiver.value(q('queue.depth', 'count', { attributes: { queue: 'b' } }), T0).value).toBe(1);
    expect(receiver.value(q('queue.depth', 'count', { attributes: { queue: 'c' } }), T0).reason).toBe(
      'otlp_no_samples',
    );
  });

  it('counts only points inside window_seconds', () => {
    expect(receiver.value(q('queue.depth', 'count', { window_seconds: 25 }), T0).value).toBe(2);
  });

  it('answers otlp_stale when the newest point is older than stale_seconds', () => {
    const o = receiver.value(q('queue.depth', 'last', { window_seconds: 60, stale_seconds: 60 }), T0 + 600_000);
    expect(o).toMatchObject({ value: null, reason: 'otlp_stale', metadata: { newest_sample_age_s: 610 } });
  });

  it('answers otlp_no_samples when the points are fresh enough but outside the window', () => {
    const o = receiver.value(q('queue.depth', 'last', { window_seconds: 60, stale_seconds: 600 }), T0 + 300_000);
    expect(o).toMatchObject({ value: null, reason: 'otlp_no_samples' });
  });

  it('answers otlp_no_samples for a metric never received', () => {
    expect(receiver.value(q('never.sent', 'mean'), T0).reason).toBe('otlp_no_samples');
  });

  it('answers invalid_config for a query out of shape', () => {
    expect(receiver.value({ ...q('queue.depth', 'mean'), aggregation: 'p42' as 'p50' }, T0)).toMatchObject({
      reason: 'invalid_config',
      metadata: { path: 'aggregation' },
    });
  });
});

describe('OTLP receiver: sums', () => {
  it('reads a cumulative monotonic counter: sum is the increase in the window, last the running total', async () => {
    const start = ns(T0 - 3_600_000);
    const points = [
      [50, '100'],
      [30, '130'],
      [10, '175'],
    ].map(([ago, v]) => ({ startTimeUnixNano: start, timeUnixNano: ns(T0 - Number(ago) * 1000), asInt: v }));
    await post(
      exportRequest([
        {
          name: 'http.requests',
          unit: '{request}',
          sum: { aggregationTemporality: CUMULATIVE, isMonotonic: true, dataPoints: points },
        },
      ]),
    );
    expect(receiver.value(q('http.requests', 'sum', { window_seconds: 40 }), T0).value).toBe(75);
    expect(receiver.value(q('http.requests', 'sum'), T0).value).toBe(175);
    expect(receiver.value(q('http.requests', 'last'), T0)).toMatchObject({ value: 175, unit: '{request}' });
  });

  it('adds delta sums as sent', async () => {
    const points = [
      [20, 3.5],
      [10, 4],
    ].map(([ago, v]) => ({ timeUnixNano: ns(T0 - ago! * 1000), asDouble: v }));
    await post(
      exportRequest([
        {
          name: 'bytes.sent',
          unit: 'By',
          sum: { aggregationTemporality: DELTA, isMonotonic: true, dataPoints: points },
        },
      ]),
    );
    expect(receiver.value(q('bytes.sent', 'sum'), T0)).toMatchObject({ value: 7.5, unit: 'By' });
  });
});

describe('OTLP receiver: histograms and summaries', () => {
  const bounds = [10, 50, 100];
  const histPoint = (agoS: number, counts: number[], sum: number, extra: object = {}) => ({
    timeUnixNano: ns(T0 - agoS * 1000),
    count: String(counts.reduce((a, b) => a + b, 0)),
    sum,
    bucketCounts: counts.map(String),
    explicitBounds: bounds,
    ...extra,
  });

  beforeAll(async () => {
    const start = ns(T0 - 3_600_000);
    await post(
      exportRequest([
        {
          name: 'http.server.duration',
          unit: 'ms',
          histogram: {
            aggregationTemporality: DELTA,
            dataPoints: [histPoint(20, [2, 6, 2, 0], 300), histPoint(10, [0, 4, 4, 0], 420)],
          },
        },
        {
          name: 'db.duration',
          unit: 'ms',
          histogram: {
            aggregationTemporality: CUMULATIVE,
            dataPoints: [
              histPoint(50, [1, 1, 0, 0], 30, { startTimeUnixNano: start }),
              histPoint(10, [1, 3, 2, 0], 250, { startTimeUnixNano: start }),
            ],
          },
        },
        {
          name: 'rpc.duration',
          unit: 's',
          exponentialHistogram: {
            aggregationTemporality: DELTA,
            dataPoints: [
              {
                timeUnixNano: ns(T0 - 5000),
                count: '4',
                sum: 2,
                scale: 3,
                zeroCount: '0',
                positive: { offset: 1, bucketCounts: ['1', '3'] },
              },
            ],
          },
        },
        {
          name: 'gc.pause',
          unit: 'ms',
          summary: {
            dataPoints: [
              {
                timeUnixNano: ns(T0 - 5000),
                count: '10',
                sum: 55,
                quantileValues: [
                  { quantile: 0.99, value: 12 },
                  { quantile: 0.5, value: 4 },
                ],
              },
            ],
          },
        },
      ]),
    );
  });

  it.each([
    ['p50', 38],
    ['p90', 85],
    ['p99', 98.5],
    ['count', 18],
    ['sum', 720],
    ['mean', 40],
    ['last', 52.5],
  ] as const)('answers %s from explicit buckets merged over the window', (aggregation, expected) => {
    const o = receiver.value(q('http.server.duration', aggregation), T0);
    expect(o.reason).toBeNull();
    expect(o.value).toBeCloseTo(expected, 9);
  });

  it("turns cumulative histogram points into the window's observations", () => {
    expect(receiver.value(q('db.duration', 'count', { window_seconds: 30 }), T0).value).toBe(4);
    expect(receiver.value(q('db.duration', 'sum', { window_seconds: 30 }), T0).value).toBe(220);
    expect(receiver.value(q('db.duration', 'count'), T0).value).toBe(6);
  });

  it('answers mean, count and sum on exponential histograms, otlp_aggregation_unavailable for quantiles', () => {
    expect(receiver.value(q('rpc.duration', 'mean'), T0)).toMatchObject({ value: 0.5, unit: 's' });
    expect(receiver.value(q('rpc.duration', 'count'), T0).value).toBe(4);
    expect(receiver.value(q('rpc.duration', 'p95'), T0)).toMatchObject({
      value: null,
      reason: 'otlp_aggregation_unavailable',
    });
  });

  it('answers a quantile a summary reports, otlp_aggregation_unavailable for one it does not', () => {
    expect(receiver.value(q('gc.pause', 'p99'), T0).value).toBe(12);
    expect(receiver.value(q('gc.pause', 'mean'), T0).value).toBe(5.5);
    expect(receiver.value(q('gc.pause', 'p90'), T0).reason).toBe('otlp_aggregation_unavailable');
  });
});

describe('OTLP receiver: requests it refuses', () => {
  let strict: OtlpReceiver;
  let strictUrl: string;
  beforeAll(async () => {
    strict = new OtlpReceiver({ env: {}, port: 0 });
    strictUrl = `http://127.0.0.1:${(await strict.start()).port}/v1/metrics`;
  });
  afterAll(() => strict.stop());

  it('answers 415 with a JSON error to a protobuf body', async () => {
    const res = await post(
      Buffer.from([0x0a, 0x02, 0x08, 0x01]),
      { 'Content-Type': 'application/x-protobuf' },
      strictUrl,
    );
    expect(res).toMatchObject({ status: 415, type: 'application/json', body: { reason: 'otlp_invalid_json' } });
    expect(res.body.message).toMatch(/http\/json/);
  });

  it('answers 400 otlp_invalid_json to a body that is not JSON', async () => {
    const res = await post('{"resourceMetrics": [', undefined, strictUrl);
    expect(res).toMatchObject({ status: 400, body: { code: 3, reason: 'otlp_invalid_json' } });
  });

  it('answers 400 otlp_malformed_payload without a resourceMetrics array, and metrics with no samples then say so', async () => {
    const res = await post({ resourceSpans: [] }, undefined, strictUrl);
    expect(res).toMatchObject({ status: 400, body: { reason: 'otlp_malformed_payload' } });
    expect(strict.value(q('checkout.latency', 'mean'), Date.now()).reason).toBe('otlp_malformed_payload');
  });

  it('lands the readable points of a request and reports the others as a partial success', async () => {
    const bad = {
      name: 'half.ok',
      gauge: { dataPoints: [{ timeUnixNano: ns(T0 - 1000), asInt: '7' }, { timeUnixNano: ns(T0 - 500) }] },
    };
    const res = await post(exportRequest([bad]), undefined, strictUrl);
    expect(res).toMatchObject({ status: 200, body: { partialSuccess: { rejectedDataPoints: '1' } } });
    expect(strict.value(q('half.ok', 'last'), T0).value).toBe(7);
  });

  it('accepts a gzip body', async () => {
    const body = gzipSync(JSON.stringify(exportRequest([gauge('zipped', '1', [[1, 3]])])));
    const res = await post(body, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' }, strictUrl);
    expect(res.status).toBe(200);
    expect(strict.value(q('zipped', 'last'), T0).value).toBe(3);
  });

  it('answers 404 on other paths and 405 to other methods', async () => {
    expect((await post({}, undefined, strictUrl.replace('/v1/metrics', '/v1/traces'))).status).toBe(404);
    const res = await fetch(strictUrl);
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
  });
});

describe('OTLP receiver disabled by VIGIL_OTLP_DISABLE', () => {
  it('opens no port and answers otlp_receiver_disabled', async () => {
    const off = new OtlpReceiver({ env: { VIGIL_OTLP_DISABLE: 'true' }, port: 0 });
    expect(await off.start()).toEqual({ port: null });
    expect(off.value(q('queue.depth', 'mean'), T0)).toMatchObject({ value: null, reason: 'otlp_receiver_disabled' });
    await off.stop();
  });

  it('answers push_source_init_failed when the port is taken', async () => {
    const port = Number(new URL(url).port);
    const clash = new OtlpReceiver({ env: {}, host: '127.0.0.1', port });
    await expect(clash.start()).rejects.toMatchObject({ code: 'EADDRINUSE' });
    expect(clash.value(q('queue.depth', 'mean'), T0)).toMatchObject({
      reason: 'push_source_init_failed',
      metadata: { error: 'EADDRINUSE' },
    });
  });
});
