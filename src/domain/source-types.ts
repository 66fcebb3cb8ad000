/**
 * Every source_type Vigil knows, one row each (spec §2.2, §4.1, §9): what can be probe-tested,
 * what the cloud runs, how its samples arrive, whether it takes thresholds, and what its value
 * means. Every list of source types in the code is derived from this table; add a type here and
 * nowhere else. Pure: no I/O.
 *
 * The rows are in the order of spec §2.2 (testable first, then the untestable ones), which is the
 * order the API lists them in (the `source_type` enum of the OpenAPI description, error texts).
 */

/**
 * How a metric of the type gets its samples:
 * - `probe`: a probe measures it every `interval_seconds`, on an agent, or from the cloud prober
 *   for the cloud-capable types (http, tcp, dns, tls_cert, icmp) when the metric has no agent;
 *   `custom` is a probe function registered on the agent.
 * - `agent_push`: OTLP data points pushed to the agent's local receiver, which the agent
 *   aggregates and posts like a probe's samples (the spec's "otlp (push)").
 * - `by_hand`: no measured value; the status is set through the API or follows open incidents.
 * - `inbound`: sent to Vigil's own public endpoints (heartbeat pings, alert webhooks).
 *
 * `by_hand` and `inbound` metrics are "pushed to Vigil": no agent, no schedule, `mode` `push`.
 */
export type SourceFeed = 'probe' | 'agent_push' | 'by_hand' | 'inbound';

export interface SourceTypeRow {
  /** Spec §2.2: POST /metrics/test accepts it (the others are 400 source_type_not_testable). */
  readonly probeTestable: boolean;
  /** The cloud prober runs it, so a metric of it may go without `agent_id` (a cloud metric). */
  readonly cloudCapable: boolean;
  /** A probe test of it may run from the cloud, without `agent_id`: public HTTP checks only (§2.2, §4.1). */
  readonly cloudTestable: boolean;
  /** How its samples arrive (see SourceFeed). */
  readonly feed: SourceFeed;
  /** Runs on an agent only: a metric of it needs `agent_id`. */
  readonly agentOnly: boolean;
  /**
   * Thresholds of a metric: `required` where a value needs them to get a status, `refused` where the
   * status is given, `optional` where a metric without them is an up/down check (an HTTP check: up
   * when the target answers an accepted status, see `readingStatus` in ./thresholds).
   */
  readonly thresholds: 'required' | 'optional' | 'refused';
  /** The type it is a deprecated alias of, which the probe (and the cloud prober) runs it as (§9); null for itself. */
  readonly runsAs: string | null;
  /** Value semantics (value, unit), the words of spec §4.1's table. */
  readonly value: string;
}

const probedOnAgent = {
  probeTestable: true,
  cloudCapable: false,
  cloudTestable: false,
  feed: 'probe',
  agentOnly: true,
  thresholds: 'required',
  runsAs: null,
} as const;
const probedAnywhere = {
  probeTestable: true,
  cloudCapable: true,
  cloudTestable: false,
  feed: 'probe',
  agentOnly: false,
  thresholds: 'required',
  runsAs: null,
} as const;
const publicHttpCheck = {
  probeTestable: true,
  cloudCapable: true,
  cloudTestable: true,
  feed: 'probe',
  agentOnly: false,
  thresholds: 'optional',
  runsAs: null,
} as const;

export const SOURCE_TYPES = {
  prometheus: { ...probedOnAgent, value: 'scalar result of the PromQL query, not rescaled' },
  http: {
    ...publicHttpCheck,
    value:
      'ms response time; with `json_path` set: the number at that path (booleans read 1/0), unit as in the response',
  },
  tcp: { ...probedAnywhere, value: 'ms TCP connect time' },
  dns: { ...probedAnywhere, value: 'ms resolve time' },
  icmp: {
    ...probedAnywhere,
    value:
      'interpretation=latency (default): ms average round trip; packet_loss: % lost, 0..100; reachability: 1 if any ping returned, else 0',
  },
  tls_cert: { ...probedAnywhere, value: 'days until the certificate expires' },
  grpc: {
    ...probedOnAgent,
    value:
      'interpretation=health_state (default): 1 for SERVING, 0 for NOT_SERVING; latency: ms health-check round trip',
  },
  websocket: {
    ...probedOnAgent,
    value:
      'interpretation=handshake_latency (default): ms; round_trip_latency: ms message round trip; connection_success: 1 if the socket opened, else 0',
  },
  mtls_http: {
    ...publicHttpCheck,
    runsAs: 'http',
    value: 'ms response time; deprecated alias of http; same json_path rule',
  },
  database: { ...probedOnAgent, value: 'scalar of a read-only query (one row, one column), not rescaled' },
  cloudwatch: { ...probedOnAgent, value: "latest datapoint for the chosen statistic, in the metric's native unit" },
  loki: { ...probedOnAgent, value: 'scalar result of the LogQL aggregation, not rescaled' },
  elasticsearch: { ...probedOnAgent, value: 'value of the named aggregation, not rescaled' },
  host: {
    ...probedOnAgent,
    value:
      'metric=cpu (default): % 0..100; memory: % used 0..100; filesystem: % used of the mountpoint 0..100; network: B/s received plus sent; load: 1-minute load average divided by CPU count',
  },
  custom: {
    ...probedOnAgent,
    probeTestable: false,
    value: 'number returned by the registered probe function, any unit',
  },
  otlp: {
    ...probedOnAgent,
    probeTestable: false,
    feed: 'agent_push',
    value: "aggregated value of pushed OTLP data points, in the instrument's unit",
  },
  manual: {
    probeTestable: false,
    cloudCapable: false,
    cloudTestable: false,
    feed: 'by_hand',
    agentOnly: false,
    thresholds: 'refused',
    runsAs: null,
    value: 'no measured value; status set by hand or by an open incident',
  },
  heartbeat: {
    probeTestable: false,
    cloudCapable: false,
    cloudTestable: false,
    feed: 'inbound',
    agentOnly: false,
    thresholds: 'required',
    runsAs: null,
    value: 's since the last successful ping',
  },
  alert: {
    probeTestable: false,
    cloudCapable: false,
    cloudTestable: false,
    feed: 'inbound',
    agentOnly: false,
    thresholds: 'refused',
    runsAs: null,
    value: 'worst firing alert as a score: 0 none, 1 degraded, 2 unhealthy',
  },
} as const satisfies Record<string, SourceTypeRow>;

export type SourceType = keyof typeof SOURCE_TYPES;
type Table = typeof SOURCE_TYPES;
/** The source types whose row has `field` of type `V`, at the type level. */
type TypesWhere<F extends keyof SourceTypeRow, V> = {
  [T in SourceType]: Table[T][F] extends V ? T : never;
}[SourceType];

// An alias names a type of the table.
SOURCE_TYPES satisfies Record<SourceType, { runsAs: SourceType | null }>;

export type TestableSourceType = TypesWhere<'probeTestable', true>;
export type UntestableSourceType = TypesWhere<'probeTestable', false>;
export type CloudSourceType = TypesWhere<'cloudCapable', true>;

export const isSourceType = (t: unknown): t is SourceType => typeof t === 'string' && Object.hasOwn(SOURCE_TYPES, t);

/** The row of a source type; undefined for a string that names none. */
export function sourceTypeRow(t: string): SourceTypeRow | undefined {
  return isSourceType(t) ? SOURCE_TYPES[t] : undefined;
}

/** Every source type, in the table's order (spec §2.2). */
export const ALL_SOURCE_TYPES: readonly SourceType[] = Object.freeze(Object.keys(SOURCE_TYPES) as SourceType[]);

/** The source types whose row satisfies `test`, in the table's order. */
export function sourceTypesWhere(test: (row: SourceTypeRow, type: SourceType) => boolean): readonly SourceType[] {
  return Object.freeze(ALL_SOURCE_TYPES.filter((t) => test(SOURCE_TYPES[t], t)));
}

/** Samples sent to Vigil itself (by hand or to its inbound endpoints): no agent, no schedule, `mode` `push`. */
export const isPushedToVigil = (row: SourceTypeRow): boolean => row.feed === 'by_hand' || row.feed === 'inbound';

/** Spec §2.2: the types POST /metrics/test runs. */
export const TESTABLE_SOURCE_TYPES = sourceTypesWhere((r) => r.probeTestable) as readonly TestableSourceType[];
/** Spec §2.2: custom, otlp, manual, heartbeat and alert cannot be tested. */
export const UNTESTABLE_SOURCE_TYPES = sourceTypesWhere((r) => !r.probeTestable) as readonly UntestableSourceType[];
/** The types the cloud prober runs (`mtls_http` as the alias of http it is, §9); the others answer `source_not_allowed_in_prober` there. */
export const CLOUD_SOURCE_TYPES = sourceTypesWhere((r) => r.cloudCapable) as readonly CloudSourceType[];
/** The types a probe test runs from the cloud: public HTTP checks, `http` and its alias `mtls_http`. */
export const CLOUD_TESTABLE_SOURCE_TYPES = sourceTypesWhere((r) => r.cloudTestable);
/** The types whose samples are pushed to Vigil rather than probed on a schedule: they take no `agent_id`. */
export const PUSH_SOURCE_TYPES = sourceTypesWhere(isPushedToVigil);

/** A metric of this type is fed by hand or by its inbound URL, never probed (false for an unknown name). */
export const isPushSourceType = (t: string): boolean => {
  const row = sourceTypeRow(t);
  return row !== undefined && isPushedToVigil(row);
};

/** A metric of this type without an agent runs from the cloud prober on its own schedule. */
export const runsInCloud = (t: string, agentId: string | null | undefined): boolean =>
  !agentId && sourceTypeRow(t)?.cloudCapable === true;

export const isTestableSourceType = (t: unknown): t is TestableSourceType =>
  isSourceType(t) && SOURCE_TYPES[t].probeTestable;

/** The type a source type runs as: its alias target (`mtls_http` → `http`), else itself (any other string too). */
export function runsAs(t: string): string {
  return sourceTypeRow(t)?.runsAs ?? t;
}
