/**
 * What every probe module (one per source_type, shared by the agent and the cloud prober) takes
 * and gives. A probe measures once and never returns a response body, rows or headers: only a
 * number, its unit, and — when there is no number — a reason code of spec §7.3.
 */
export interface ProbeOutcome {
  /** Measured value in `unit`; null when none was obtained (then `reason` says why). */
  value: number | null;
  /** ms, %, days, s, B/s, or null for a bare number. */
  unit: string | null;
  /** What the value is, in words ("HTTP response time"). */
  value_description: string | null;
  /** §7.3 reason code when value is null; null on success. */
  reason: string | null;
  /** Small, non-secret facts about a failure (status code, header name, close code…). */
  metadata?: Record<string, string | number | boolean | null>;
}

export interface ProbeContext {
  /**
   * Resolves an environment-variable NAME named in the config (`header_refs`, `*_ref`). On an
   * agent this is the agent host's environment, limited to the variables its operator allows
   * (src/agent/secret-refs.ts); in the cloud it resolves nothing.
   */
  env(name: string): string | undefined;
  /**
   * Reads a setting under a fixed name the probe itself chooses (AWS_REGION, LOKI_TENANT_ID,
   * PROMETHEUS_SERVER_URL…), never a name taken from the config. Absent: read through `env`.
   */
  setting?(name: string): string | undefined;
  mode: 'agent' | 'cloud';
  /** Aborted when the probe's overall deadline passes. */
  signal: AbortSignal;
  /** Milliseconds the probe may take when its config names no timeout. */
  defaultTimeoutMs: number;
  /**
   * Cloud only: called with every address a probe is about to connect to (each DNS answer, each
   * redirect hop); throws ProbeFailure('target_not_public:<reason>') for a non-public one.
   */
  checkAddress?(host: string, address: string): void;
  /**
   * Cloud only: the prober's own resolver (CLOUD_PROBE_RESOLVER) for the names it connects to;
   * absent, the system resolver. Rejects with the resolver's error (its `code` kept).
   */
  resolveHost?(host: string): Promise<string[]>;
  /** Cloud only: that resolver's address (ip or ip:port), for probes that query DNS themselves. */
  resolverServer?: string;
  /**
   * Cloud only: the location's source address (VIGIL_PROBE_SOURCE_ADDRESS). The http, tcp,
   * tls_cert and dns probes bind their sockets to it (see sourceAddressFor); icmp (the ping
   * binary) does not, and the agent-only probes never run in a location.
   */
  localAddress?: string;
}

/** A fixed-name setting of the probe (see ProbeContext.setting). */
export const readSetting = (ctx: ProbeContext, name: string): string | undefined =>
  ctx.setting ? ctx.setting(name) : ctx.env(name);

/** Thrown inside a probe to end it with a reason code (the runner turns it into an outcome). */
export class ProbeFailure extends Error {
  constructor(
    readonly reason: string,
    readonly metadata?: ProbeOutcome['metadata'],
  ) {
    super(reason);
    this.name = 'ProbeFailure';
  }
}

export type Probe<C> = (config: C, ctx: ProbeContext) => Promise<ProbeOutcome>;

export function measured(value: number, unit: string | null, description: string): ProbeOutcome {
  return { value, unit, value_description: description, reason: null };
}

export function noValue(
  reason: string,
  metadata?: ProbeOutcome['metadata'],
  unit: string | null = null,
  description: string | null = null,
): ProbeOutcome {
  return { value: null, unit, value_description: description, reason, ...(metadata ? { metadata } : {}) };
}
