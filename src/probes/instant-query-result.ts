/**
 * Reads the `data` of a Prometheus-style instant query answer, which Prometheus and Loki share:
 * `{ resultType: 'scalar', result: [t, "v"] }` or `{ resultType: 'vector', result: [{ metric,
 * value: [t, "v"] }, …] }`; Loki adds `streams` (a log query, not a metric one). Sample values
 * are strings: "42", "NaN", "+Inf", "-Inf".
 */
export type InstantResult =
  | { kind: 'value'; value: number }
  | { kind: 'empty' }
  | { kind: 'multiple'; series: number }
  | { kind: 'other'; resultType: string }
  | { kind: 'malformed' };

export function readInstantResult(data: unknown): InstantResult {
  if (!isObject(data) || typeof data.resultType !== 'string') return { kind: 'malformed' };
  const { resultType, result } = data;
  if (resultType === 'scalar') return sample(result);
  if (resultType !== 'vector') return { kind: 'other', resultType };
  if (!Array.isArray(result)) return { kind: 'malformed' };
  if (result.length === 0) return { kind: 'empty' };
  if (result.length > 1) return { kind: 'multiple', series: result.length };
  const series: unknown = result[0];
  return isObject(series) ? sample(series.value) : { kind: 'malformed' };
}

/** `[unixSeconds, "value"]` → the value; NaN and ±Inf come back non-finite for the caller to refuse. */
function sample(pair: unknown): InstantResult {
  if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[1] !== 'string') return { kind: 'malformed' };
  const text = pair[1].trim();
  if (/^[+-]?inf$/i.test(text)) return { kind: 'value', value: text.startsWith('-') ? -Infinity : Infinity };
  if (/^nan$/i.test(text)) return { kind: 'value', value: Number.NaN };
  const value = Number(text);
  return text !== '' && !Number.isNaN(value) ? { kind: 'value', value } : { kind: 'malformed' };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
