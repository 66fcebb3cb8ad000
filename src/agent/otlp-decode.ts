/**
 * Reads an OTLP/HTTP JSON metrics export request (ExportMetricsServiceRequest in the protobuf
 * JSON mapping: camelCase fields, 64-bit integers as strings or numbers, enums as integers or
 * names) into flat data points. Pure: no I/O, no clock.
 *
 * resourceMetrics → scopeMetrics → metrics → gauge | sum | histogram | exponentialHistogram |
 * summary → dataPoints. A point's attributes are its resource's attributes overlaid with its own.
 * A point that cannot be read (no numeric value, bad counts, no timestamp) is rejected and counted;
 * the rest of the request still lands (OTLP partial success). Points flagged
 * FLAG_NO_RECORDED_VALUE are skipped without counting as rejected.
 */

export type OtlpAttributes = Readonly<Record<string, string>>;

interface PointBase {
  /** Nanoseconds since the epoch, as a decimal string (exact). */
  timeNs: string;
  timeMs: number;
  /** startTimeUnixNano as a decimal string, or null when absent/zero. */
  startNs: string | null;
  attributes: OtlpAttributes;
}

export interface NumberPoint extends PointBase {
  kind: 'number';
  value: number;
  /** Sum with cumulative temporality: value is a running total since startNs. */
  cumulative: boolean;
  monotonic: boolean;
}

export interface HistogramPoint extends PointBase {
  kind: 'histogram';
  cumulative: boolean;
  count: number;
  sum: number | null;
  bounds: number[];
  bucketCounts: number[];
}

export interface ExponentialHistogramPoint extends PointBase {
  kind: 'exponential_histogram';
  cumulative: boolean;
  count: number;
  sum: number | null;
}

export interface SummaryPoint extends PointBase {
  kind: 'summary';
  /** OTLP summaries are cumulative by definition. */
  cumulative: true;
  count: number;
  sum: number | null;
  quantiles: Array<{ quantile: number; value: number }>;
}

export type OtlpPoint = NumberPoint | HistogramPoint | ExponentialHistogramPoint | SummaryPoint;

export interface DecodedPoint {
  metric: string;
  unit: string | null;
  point: OtlpPoint;
}

export type DecodeResult =
  | { ok: true; points: DecodedPoint[]; rejected: number; firstError: string | null }
  | { ok: false; reason: 'otlp_malformed_payload'; message: string };

const FLAG_NO_RECORDED_VALUE = 1;
const CUMULATIVE = new Set<unknown>([2, '2', 'AGGREGATION_TEMPORALITY_CUMULATIVE']);

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

class PointError extends Error {}

/** A double in the protobuf JSON mapping: a number, a numeric string, "NaN", "Infinity", "-Infinity". */
export function readDouble(v: unknown): number | null {
  if (typeof v === 'number') return v;
  if (typeof v !== 'string' || v.trim() === '') return null;
  if (v === 'NaN') return NaN;
  if (v === 'Infinity') return Infinity;
  if (v === '-Infinity') return -Infinity;
  const n = Number(v);
  return Number.isNaN(n) ? null : n;
}

/** An int64/uint64 in the protobuf JSON mapping: an integer number or a decimal string. */
export function readInt(v: unknown): number | null {
  if (typeof v === 'number') return Number.isInteger(v) ? v : null;
  if (typeof v === 'string' && /^-?\d+$/.test(v)) return Number(v);
  return null;
}

/** A fixed64 nanosecond timestamp as an exact decimal string, or null when absent or zero. */
function readNanos(v: unknown): string | null {
  let s: string | null = null;
  if (typeof v === 'string' && /^\d+$/.test(v)) s = v.replace(/^0+(?=\d)/, '');
  else if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) s = String(v);
  else if (typeof v === 'number' && Number.isFinite(v) && v >= 0) s = BigInt(Math.round(v)).toString();
  return s === null || s === '0' ? null : s;
}

const nanosToMs = (ns: string): number => Number(BigInt(ns) / 1_000_000n);

/** AnyValue → string: strings as is, ints as decimal, doubles via String, booleans true/false, arrays and kvlists as JSON. */
function anyValueToString(v: unknown): string | null {
  if (!isObj(v)) return null;
  if (typeof v.stringValue === 'string') return v.stringValue;
  if (typeof v.boolValue === 'boolean') return String(v.boolValue);
  if (v.intValue !== undefined)
    return readInt(v.intValue)?.toString() ?? (typeof v.intValue === 'string' ? v.intValue : null);
  if (v.doubleValue !== undefined) return readDouble(v.doubleValue)?.toString() ?? null;
  if (typeof v.bytesValue === 'string') return v.bytesValue;
  if (isObj(v.arrayValue)) return JSON.stringify(list(v.arrayValue.values).map(anyValueToString));
  if (isObj(v.kvlistValue)) return JSON.stringify(readAttributes(v.kvlistValue.values));
  return null;
}

export function readAttributes(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const kv of list(v)) {
    if (!isObj(kv) || typeof kv.key !== 'string') continue;
    const value = anyValueToString(kv.value);
    if (value !== null) out[kv.key] = value;
  }
  return out;
}

function base(dp: Obj, resourceAttrs: OtlpAttributes): PointBase {
  const timeNs = readNanos(dp.timeUnixNano);
  if (timeNs === null) throw new PointError('data point without timeUnixNano');
  return {
    timeNs,
    timeMs: nanosToMs(timeNs),
    startNs: readNanos(dp.startTimeUnixNano),
    attributes: { ...resourceAttrs, ...readAttributes(dp.attributes) },
  };
}

function count(v: unknown, field: string): number {
  const n = v === undefined ? 0 : readInt(v);
  if (n === null || n < 0) throw new PointError(`${field} is not a non-negative integer`);
  return n;
}

function optionalDouble(v: unknown, field: string): number | null {
  if (v === undefined || v === null) return null;
  const n = readDouble(v);
  if (n === null) throw new PointError(`${field} is not a number`);
  return n;
}

function numberPoint(dp: Obj, attrs: OtlpAttributes, cumulative: boolean, monotonic: boolean): NumberPoint {
  const value = dp.asDouble !== undefined ? readDouble(dp.asDouble) : dp.asInt !== undefined ? readInt(dp.asInt) : null;
  if (value === null) throw new PointError('number data point without asDouble or asInt');
  return { kind: 'number', ...base(dp, attrs), value, cumulative, monotonic };
}

function histogramPoint(dp: Obj, attrs: OtlpAttributes, cumulative: boolean): HistogramPoint {
  const bounds = list(dp.explicitBounds).map((b) => readDouble(b));
  const bucketCounts = list(dp.bucketCounts).map((c) => readInt(c));
  if (bounds.some((b) => b === null || !Number.isFinite(b))) throw new PointError('explicitBounds holds a non-number');
  if (bucketCounts.some((c) => c === null || c < 0)) throw new PointError('bucketCounts holds a non-integer');
  if (bucketCounts.length !== 0 && bucketCounts.length !== bounds.length + 1)
    throw new PointError('bucketCounts must have one more entry than explicitBounds');
  return {
    kind: 'histogram',
    ...base(dp, attrs),
    cumulative,
    count: count(dp.count, 'count'),
    sum: optionalDouble(dp.sum, 'sum'),
    bounds: bounds as number[],
    bucketCounts: bucketCounts as number[],
  };
}

function summaryPoint(dp: Obj, attrs: OtlpAttributes): SummaryPoint {
  const quantiles = list(dp.quantileValues).map((q) => {
    const quantile = isObj(q) ? readDouble(q.quantile ?? 0) : null;
    const value = isObj(q) ? readDouble(q.value ?? 0) : null;
    if (quantile === null || value === null) throw new PointError('quantileValues holds a non-number');
    return { quantile, value };
  });
  return {
    kind: 'summary',
    ...base(dp, attrs),
    cumulative: true,
    count: count(dp.count, 'count'),
    sum: optionalDouble(dp.sum, 'sum'),
    quantiles,
  };
}

/** The data points of one metric, each read by `read`; unreadable points are counted, not thrown. */
function pointsOf(
  metric: Obj,
  resourceAttrs: OtlpAttributes,
): { points: OtlpPoint[]; rejected: number; firstError: string | null } {
  const out = { points: [] as OtlpPoint[], rejected: 0, firstError: null as string | null };
  const each = (data: unknown, read: (dp: Obj) => OtlpPoint) => {
    for (const dp of list(isObj(data) ? data.dataPoints : undefined)) {
      try {
        if (!isObj(dp)) throw new PointError('data point is not an object');
        if ((readInt(dp.flags) ?? 0) & FLAG_NO_RECORDED_VALUE) continue;
        out.points.push(read(dp));
      } catch (err) {
        if (!(err instanceof PointError)) throw err;
        out.rejected++;
        out.firstError ??= err.message;
      }
    }
  };
  const temporality = (data: unknown) => isObj(data) && CUMULATIVE.has(data.aggregationTemporality);
  if (metric.gauge !== undefined) each(metric.gauge, (dp) => numberPoint(dp, resourceAttrs, false, false));
  else if (metric.sum !== undefined) {
    const monotonic = isObj(metric.sum) && metric.sum.isMonotonic === true;
    each(metric.sum, (dp) => numberPoint(dp, resourceAttrs, temporality(metric.sum), monotonic));
  } else if (metric.histogram !== undefined)
    each(metric.histogram, (dp) => histogramPoint(dp, resourceAttrs, temporality(metric.histogram)));
  else if (metric.exponentialHistogram !== undefined) {
    const cumulative = temporality(metric.exponentialHistogram);
    each(metric.exponentialHistogram, (dp) => ({
      kind: 'exponential_histogram',
      ...base(dp, resourceAttrs),
      cumulative,
      count: count(dp.count, 'count'),
      sum: optionalDouble(dp.sum, 'sum'),
    }));
  } else if (metric.summary !== undefined) each(metric.summary, (dp) => summaryPoint(dp, resourceAttrs));
  return out;
}

export function decodeMetricsRequest(body: unknown): DecodeResult {
  if (!isObj(body) || !Array.isArray(body.resourceMetrics)) {
    return {
      ok: false,
      reason: 'otlp_malformed_payload',
      message: 'the body has no resourceMetrics array (is this a metrics export request?)',
    };
  }
  const result = { ok: true as const, points: [] as DecodedPoint[], rejected: 0, firstError: null as string | null };
  for (const rm of body.resourceMetrics) {
    if (!isObj(rm)) continue;
    const resourceAttrs = readAttributes(isObj(rm.resource) ? rm.resource.attributes : undefined);
    for (const sm of list(rm.scopeMetrics ?? rm.instrumentationLibraryMetrics)) {
      if (!isObj(sm)) continue;
      for (const metric of list(sm.metrics)) {
        if (!isObj(metric) || typeof metric.name !== 'string' || metric.name === '') {
          result.rejected++;
          result.firstError ??= 'metric without a name';
          continue;
        }
        const unit = typeof metric.unit === 'string' && metric.unit !== '' ? metric.unit : null;
        const { points, rejected, firstError } = pointsOf(metric, resourceAttrs);
        for (const point of points) result.points.push({ metric: metric.name, unit, point });
        result.rejected += rejected;
        result.firstError ??= firstError === null ? null : `${metric.name}: ${firstError}`;
      }
    }
  }
  return result;
}
