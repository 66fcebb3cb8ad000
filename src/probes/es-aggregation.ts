/**
 * The value of one named aggregation in an Elasticsearch/OpenSearch search answer:
 * - single-value metric aggregations (avg, sum, min, max, value_count, cardinality, …,
 *   bucket_script and the other single-value pipelines): `value`; null (no documents) → no data;
 * - percentiles / percentile_ranks asked for exactly one percent: that one entry of `values`;
 * - single-bucket aggregations (filter, global, missing, nested, …): `doc_count`.
 * Bucket lists (terms, histograms…), multi-value results (stats, several percentiles) and
 * anything else are unsupported.
 */
export type AggregationValue =
  | { kind: 'value'; value: number }
  | { kind: 'null' }
  | { kind: 'not_found'; available: string[] }
  | { kind: 'unsupported'; shape: string };

export function aggregationValue(aggregations: unknown, name: string): AggregationValue {
  const all = isObject(aggregations) ? aggregations : {};
  if (!Object.hasOwn(all, name)) return { kind: 'not_found', available: Object.keys(all) };
  const agg = all[name];
  if (!isObject(agg)) return { kind: 'unsupported', shape: typeof agg };
  if ('value' in agg) return single(agg.value);
  if ('values' in agg) return onePercentile(agg.values);
  if ('buckets' in agg) return { kind: 'unsupported', shape: 'buckets' };
  if (typeof agg.doc_count === 'number') return { kind: 'value', value: agg.doc_count };
  return { kind: 'unsupported', shape: 'multi_value' };
}

function single(value: unknown): AggregationValue {
  if (value === null) return { kind: 'null' };
  if (typeof value === 'number') return { kind: 'value', value };
  return { kind: 'unsupported', shape: typeof value };
}

/** `{"99.0": 12.5}` (keyed) or `[{ key: 99, value: 12.5 }]` (keyed: false), with one entry only. */
function onePercentile(values: unknown): AggregationValue {
  if (Array.isArray(values))
    return values.length === 1 && isObject(values[0])
      ? single(values[0].value)
      : { kind: 'unsupported', shape: 'multi_value' };
  if (isObject(values)) {
    const entries = Object.values(values);
    return entries.length === 1 ? single(entries[0]) : { kind: 'unsupported', shape: 'multi_value' };
  }
  return { kind: 'unsupported', shape: 'multi_value' };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
