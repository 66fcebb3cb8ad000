import { THRESHOLD_OPERATIONS } from '../../../domain/thresholds';

/** The thresholds as the form holds them (strings as typed). */
export interface ThresholdValues {
  healthy_operation: string;
  healthy_value: string;
  unhealthy_operation: string;
  unhealthy_value: string;
}

export const THRESHOLD_FIELDS = [
  'thresholds.healthy_operation',
  'thresholds.healthy_value',
  'thresholds.unhealthy_operation',
  'thresholds.unhealthy_value',
] as const;

const WORDS: Record<string, string> = { over: 'above', under: 'below', equal: 'exactly' };

export const OPERATION_CHOICES = THRESHOLD_OPERATIONS.map((op) => ({
  value: op,
  label: `${op}: the value is ${WORDS[op]} the number (strictly)`,
}));

/**
 * The thresholds in words, as src/domain/thresholds.ts evaluates them (strict comparisons; the
 * unhealthy rule first, then the healthy one, degraded otherwise): "Unhealthy when the value is
 * above 800 ms; healthy when it is below 300 ms; degraded in between." Null while incomplete.
 */
export function thresholdsInWords(t: ThresholdValues, unit: string | null): string | null {
  const num = (s: string) => (/^-?\d+(\.\d+)?$/.test(s.trim()) ? s.trim() : null);
  const hv = num(t.healthy_value);
  const uv = num(t.unhealthy_value);
  const ho = WORDS[t.healthy_operation];
  const uo = WORDS[t.unhealthy_operation];
  if (!hv || !uv || !ho || !uo) return null;
  const u = unit ? ` ${unit}` : '';
  const between =
    t.healthy_operation !== 'equal' &&
    t.unhealthy_operation !== 'equal' &&
    t.healthy_operation !== t.unhealthy_operation
      ? 'degraded in between'
      : 'degraded otherwise';
  const overlap =
    t.healthy_operation === t.unhealthy_operation && t.healthy_operation !== 'equal'
      ? ' (where both hold, unhealthy wins)'
      : '';
  return `Unhealthy when the value is ${uo} ${uv}${u}; healthy when it is ${ho} ${hv}${u}; ${between}${overlap}.`;
}

/** The form's thresholds as the API's body: numbers where they read as one (else as typed, for the API's check to name). */
export function thresholdsBody(t: ThresholdValues): Record<string, unknown> {
  const num = (s: string) => (/^-?\d+(\.\d+)?$/.test(s.trim()) ? Number(s.trim()) : s.trim() === '' ? undefined : s);
  const body: Record<string, unknown> = {};
  if (t.healthy_operation) body.healthy_operation = t.healthy_operation;
  if (num(t.healthy_value) !== undefined) body.healthy_value = num(t.healthy_value);
  if (t.unhealthy_operation) body.unhealthy_operation = t.unhealthy_operation;
  if (num(t.unhealthy_value) !== undefined) body.unhealthy_value = num(t.unhealthy_value);
  return body;
}

export function thresholdValuesOf(t: Record<string, unknown> | null): ThresholdValues {
  const s = (v: unknown) => (v === undefined || v === null ? '' : String(v));
  return {
    healthy_operation: s(t?.healthy_operation),
    healthy_value: s(t?.healthy_value),
    unhealthy_operation: s(t?.unhealthy_operation),
    unhealthy_value: s(t?.unhealthy_value),
  };
}
