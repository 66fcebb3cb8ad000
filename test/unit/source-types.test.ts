import {
  ALL_SOURCE_TYPES,
  CLOUD_SOURCE_TYPES,
  CLOUD_TESTABLE_SOURCE_TYPES,
  PUSH_SOURCE_TYPES,
  SOURCE_TYPES,
  type SourceType,
  type SourceTypeRow,
  TESTABLE_SOURCE_TYPES,
  UNTESTABLE_SOURCE_TYPES,
  isPushSourceType,
  isPushedToVigil,
  isSourceType,
  isTestableSourceType,
  runsAs,
  runsInCloud,
  sourceTypeRow,
  sourceTypesWhere,
} from '../../src/domain/source-types';
import { SOURCE_CONFIG_SCHEMAS } from '../../src/domain/source-config';

const sorted = (xs: readonly string[]) => [...xs].sort();
const rows = Object.entries(SOURCE_TYPES) as [SourceType, SourceTypeRow][];

/** Spec §2.2, the `source_type` enum of ProbeTestRequest, in its order. */
const SPEC_TESTABLE = [
  'prometheus',
  'http',
  'tcp',
  'dns',
  'icmp',
  'tls_cert',
  'grpc',
  'websocket',
  'mtls_http',
  'database',
  'cloudwatch',
  'loki',
  'elasticsearch',
  'host',
];
/** Spec §2.2: "The types custom, otlp (push), manual, heartbeat and alert cannot be tested." */
const SPEC_UNTESTABLE = ['custom', 'otlp', 'manual', 'heartbeat', 'alert'];

/** Spec §4.1, "Value semantics by source_type (value, unit)", word for word. */
const SPEC_VALUES: Record<string, string> = {
  prometheus: 'scalar result of the PromQL query, not rescaled',
  http: 'ms response time; with `json_path` set: the number at that path (booleans read 1/0), unit as in the response',
  tcp: 'ms TCP connect time',
  dns: 'ms resolve time',
  icmp: 'interpretation=latency (default): ms average round trip; packet_loss: % lost, 0..100; reachability: 1 if any ping returned, else 0',
  tls_cert: 'days until the certificate expires',
  grpc: 'interpretation=health_state (default): 1 for SERVING, 0 for NOT_SERVING; latency: ms health-check round trip',
  websocket:
    'interpretation=handshake_latency (default): ms; round_trip_latency: ms message round trip; connection_success: 1 if the socket opened, else 0',
  mtls_http: 'ms response time; deprecated alias of http; same json_path rule',
  database: 'scalar of a read-only query (one row, one column), not rescaled',
  otlp: "aggregated value of pushed OTLP data points, in the instrument's unit",
  cloudwatch: "latest datapoint for the chosen statistic, in the metric's native unit",
  custom: 'number returned by the registered probe function, any unit',
  loki: 'scalar result of the LogQL aggregation, not rescaled',
  elasticsearch: 'value of the named aggregation, not rescaled',
  host: 'metric=cpu (default): % 0..100; memory: % used 0..100; filesystem: % used of the mountpoint 0..100; network: B/s received plus sent; load: 1-minute load average divided by CPU count',
  manual: 'no measured value; status set by hand or by an open incident',
  heartbeat: 's since the last successful ping',
  alert: 'worst firing alert as a score: 0 none, 1 degraded, 2 unhealthy',
};

describe('the source-type table against the spec', () => {
  it('has one row per type of spec §2.2, in its order (testable first)', () => {
    expect(ALL_SOURCE_TYPES).toEqual([...SPEC_TESTABLE, ...SPEC_UNTESTABLE]);
    expect(Object.keys(SOURCE_TYPES)).toEqual(ALL_SOURCE_TYPES);
  });

  it('makes exactly the types of spec §2.2 probe-testable', () => {
    expect(TESTABLE_SOURCE_TYPES).toEqual(SPEC_TESTABLE);
    expect(UNTESTABLE_SOURCE_TYPES).toEqual(SPEC_UNTESTABLE);
  });

  it('gives every row the value semantics of spec §4.1, word for word', () => {
    expect(sorted(Object.keys(SPEC_VALUES))).toEqual(sorted(ALL_SOURCE_TYPES));
    for (const [type, row] of rows) expect([type, row.value]).toEqual([type, SPEC_VALUES[type]]);
  });

  it('runs probe tests from the cloud for public HTTP checks only: http and its alias (§2.2, §4.1, §9)', () => {
    expect(CLOUD_TESTABLE_SOURCE_TYPES).toEqual(['http', 'mtls_http']);
  });

  it('makes mtls_http the deprecated alias of http (§9), and nothing else an alias', () => {
    expect(rows.filter(([, r]) => r.runsAs !== null).map(([t, r]) => [t, r.runsAs])).toEqual([['mtls_http', 'http']]);
    const { runsAs: _alias, value: _value, ...alias } = SOURCE_TYPES.mtls_http;
    const { runsAs: _none, value: _v, ...http } = SOURCE_TYPES.http;
    expect(alias).toEqual(http);
  });

  it('has a source_config schema for every type, and for nothing else', () => {
    expect(sorted(Object.keys(SOURCE_CONFIG_SCHEMAS))).toEqual(sorted(ALL_SOURCE_TYPES));
    expect(SOURCE_CONFIG_SCHEMAS.mtls_http).toBe(SOURCE_CONFIG_SCHEMAS.http);
  });
});

describe('the rows agree with each other', () => {
  it.each(rows)('%s', (type, row) => {
    // What the cloud tests, the cloud prober runs; what it runs is a probe a test can run.
    if (row.cloudTestable) expect(row.cloudCapable).toBe(true);
    if (row.cloudCapable) expect([row.probeTestable, row.feed]).toEqual([true, 'probe']);
    // A probe test runs a probe: only probed types are testable (custom is a registered function, not a probe module).
    if (row.probeTestable) expect(row.feed).toBe('probe');
    // Agent-only: neither the cloud nor Vigil itself can feed it.
    expect(row.agentOnly).toBe(!row.cloudCapable && !isPushedToVigil(row));
    // A status given without a measured value refuses thresholds; only types pushed to Vigil do that.
    if (row.thresholds === 'refused') expect(isPushedToVigil(row)).toBe(true);
    if (row.runsAs !== null) expect(isSourceType(row.runsAs)).toBe(true);
    expect(row.value.trim()).not.toBe('');
    expect(sourceTypeRow(type)).toBe(row);
  });
});

/**
 * The lists written out by hand before the table (item 4). A change to the table that
 * changes any of them changes behaviour: make it on purpose, here too.
 */
describe('the derived lists equal the old hand-written ones', () => {
  it('source-config: TESTABLE_SOURCE_TYPES, UNTESTABLE_SOURCE_TYPES, ALL_SOURCE_TYPES', () => {
    const testable = [
      'prometheus',
      'http',
      'tcp',
      'dns',
      'icmp',
      'tls_cert',
      'grpc',
      'websocket',
      'mtls_http',
      'database',
      'cloudwatch',
      'loki',
      'elasticsearch',
      'host',
    ];
    const untestable = ['custom', 'otlp', 'manual', 'heartbeat', 'alert'];
    expect(TESTABLE_SOURCE_TYPES).toEqual(testable);
    expect(UNTESTABLE_SOURCE_TYPES).toEqual(untestable);
    expect(ALL_SOURCE_TYPES).toEqual([...testable, ...untestable]);
  });

  it('probes/cloud-guard: CLOUD_SOURCE_TYPES, the types the cloud prober runs', () => {
    expect(sorted(CLOUD_SOURCE_TYPES)).toEqual(sorted(['http', 'mtls_http', 'tcp', 'dns', 'tls_cert', 'icmp']));
  });

  it('probe-tests/jobs: CLOUD_TESTABLE, what a probe test runs from the cloud', () => {
    expect(sorted(CLOUD_TESTABLE_SOURCE_TYPES)).toEqual(sorted(['http', 'mtls_http']));
  });

  it('metrics/view: PUSH_SOURCE_TYPES, pushed to Vigil and never scheduled (also as the predicate the views and schedules use)', () => {
    expect(PUSH_SOURCE_TYPES).toEqual(['manual', 'heartbeat', 'alert']);
    expect(ALL_SOURCE_TYPES.filter(isPushSourceType)).toEqual(['manual', 'heartbeat', 'alert']);
    expect(isPushSourceType('no-such-type')).toBe(false);
  });

  it('metrics/metrics: a metric runs in the cloud when it has no agent and its type is one the cloud prober runs (the old `!agent && !push` rule, for every valid metric)', () => {
    for (const t of ALL_SOURCE_TYPES) {
      // A metric without an agent exists only for cloud-capable and pushed types (metric writes refuse the others).
      if (sourceTypeRow(t)!.agentOnly) continue;
      expect([t, runsInCloud(t, null)]).toEqual([t, !isPushSourceType(t)]);
      expect([t, runsInCloud(t, 'agent-id')]).toEqual([t, false]);
    }
  });

  it('metrics/metrics: STATUS_WITHOUT_THRESHOLDS, the types that refuse thresholds', () => {
    expect(sourceTypesWhere((r) => r.thresholds === 'refused')).toEqual(['manual', 'alert']);
  });

  it('metrics/metrics: the types that need agent_id (neither pushed to Vigil nor run by the cloud)', () => {
    expect(sourceTypesWhere((r) => r.agentOnly)).toEqual(
      [
        'prometheus',
        'http',
        'tcp',
        'dns',
        'icmp',
        'tls_cert',
        'grpc',
        'websocket',
        'mtls_http',
        'database',
        'cloudwatch',
        'loki',
        'elasticsearch',
        'host',
        'custom',
        'otlp',
        'manual',
        'heartbeat',
        'alert',
      ].filter(
        (t) =>
          !['manual', 'heartbeat', 'alert'].includes(t) &&
          !['http', 'mtls_http', 'tcp', 'dns', 'tls_cert', 'icmp'].includes(t),
      ),
    );
  });

  it('probes/cloud-run: CLOUD_ALIASES, { mtls_http: http }; every other type runs as itself', () => {
    expect(runsAs('mtls_http')).toBe('http');
    for (const t of ALL_SOURCE_TYPES.filter((t) => t !== 'mtls_http')) expect(runsAs(t)).toBe(t);
    expect(runsAs('ftp')).toBe('ftp');
  });
});

describe('guards', () => {
  it('know the table and nothing else, not even Object.prototype', () => {
    expect(isSourceType('heartbeat')).toBe(true);
    expect(isSourceType('ftp')).toBe(false);
    expect(isSourceType('constructor')).toBe(false);
    expect(isSourceType(1)).toBe(false);
    expect(isTestableSourceType('mtls_http')).toBe(true);
    expect(isTestableSourceType('otlp')).toBe(false);
    expect(isTestableSourceType('toString')).toBe(false);
    expect(sourceTypeRow('hasOwnProperty')).toBeUndefined();
  });
});
