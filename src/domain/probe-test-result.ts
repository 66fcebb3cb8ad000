import { describeReason, normalizeReason } from './reason-codes';
import { type Thresholds, evaluateStatus, thresholdsComplete } from './thresholds';

/** What a probe reported (agent or cloud). */
export interface ReportedOutcome {
  value: number | null;
  unit: string | null;
  value_description?: string | null;
  reason: string | null;
  duration_ms: number;
}

/** ProbeTestResult of spec §2.3: only these fields, never a body, rows or headers. */
export interface ProbeTestResult {
  value: number | null;
  unit: string | null;
  value_description: string | null;
  status: 'healthy' | 'degraded' | 'unhealthy' | 'no_data' | null;
  reason: string | null;
  reason_label: string | null;
  reason_hint: string | null;
  duration_ms: number;
  mode: 'agent' | 'cloud';
  job_id: string | null;
  agent_id: string | null;
  thresholds_complete: boolean;
  skipped_secret_headers: string[];
}

export function probeTestResult(
  o: ReportedOutcome,
  ctx: {
    mode: 'agent' | 'cloud';
    jobId: string;
    agentId: string | null;
    thresholds: Thresholds | null;
    skippedSecretHeaders: string[];
  },
): ProbeTestResult {
  const value = o.value !== null && Number.isFinite(o.value) ? o.value : null;
  // A value without a reason is a measurement; no value always carries one (legacy codes shown as current).
  const reason =
    value === null ? normalizeReason(o.reason ?? (o.value === null ? 'no_data' : 'non_finite_value')) : null;
  const described = describeReason(reason);
  return {
    value,
    unit: o.unit,
    value_description: o.value_description ?? null,
    status: evaluateStatus(value, ctx.thresholds),
    reason: described.reason,
    reason_label: described.reason_label,
    reason_hint: described.reason_hint,
    duration_ms: Math.max(0, Math.round(o.duration_ms)),
    mode: ctx.mode,
    job_id: ctx.mode === 'agent' ? ctx.jobId : null,
    agent_id: ctx.agentId,
    thresholds_complete: thresholdsComplete(ctx.thresholds),
    skipped_secret_headers: ctx.mode === 'cloud' ? ctx.skippedSecretHeaders : [],
  };
}
