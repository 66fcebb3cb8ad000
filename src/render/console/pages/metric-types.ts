import { ALL_SOURCE_TYPES, type SourceType } from '../../../domain/source-types';
import { esc } from '../../html';

/**
 * How the console names each source type: a readable label, the group of what it watches, one
 * sentence on what its value is, and the unit that value has when the type fixes one. The one
 * table the type picker, the form's legend and the unit hints read; the API keeps its type names
 * (spec §2.2). `satisfies` makes a type added to the domain table without a row here a type error.
 */
export const TYPE_GROUPS = [
  'Websites & APIs',
  'Network',
  'Data & logs',
  'Pushed to Vigil',
  'Set by hand',
  'Host',
  'Custom',
] as const;
export type TypeGroup = (typeof TYPE_GROUPS)[number];

export interface TypeLabel {
  label: string;
  group: TypeGroup;
  /** What the value is, in words (no markup). */
  measures: string;
  /** The unit of the value when the type fixes it (for latency-style types), else null. */
  unit: string | null;
}

export const SOURCE_TYPE_LABELS = {
  http: {
    label: 'HTTP(S): is it up?',
    group: 'Websites & APIs',
    measures:
      'Up when the URL answers an accepted status; the value is the response time in ms (or a number read from a JSON answer).',
    unit: 'ms',
  },
  websocket: {
    label: 'WebSocket',
    group: 'Websites & APIs',
    measures: 'Handshake time in ms by default; or a message round trip, or 1/0 for whether the socket opened.',
    unit: null,
  },
  grpc: {
    label: 'gRPC health check',
    group: 'Websites & APIs',
    measures: '1 when the service is SERVING, 0 when not; or the round trip in ms.',
    unit: null,
  },
  tls_cert: {
    label: 'TLS certificate expiry',
    group: 'Websites & APIs',
    measures: 'Days until the certificate expires.',
    unit: 'days',
  },
  mtls_http: {
    label: 'HTTP(S) with a client certificate (older name of HTTP)',
    group: 'Websites & APIs',
    measures: 'The same check as HTTP; new metrics use HTTP with its certificate settings.',
    unit: 'ms',
  },
  tcp: { label: 'TCP port', group: 'Network', measures: 'Time to open a TCP connection, in ms.', unit: 'ms' },
  icmp: {
    label: 'Ping (ICMP)',
    group: 'Network',
    measures: 'Average round trip in ms by default; or % of packets lost, or 1/0 for reachable.',
    unit: null,
  },
  dns: { label: 'DNS lookup', group: 'Network', measures: 'Time to resolve the name, in ms.', unit: 'ms' },
  prometheus: {
    label: 'Prometheus query',
    group: 'Data & logs',
    measures: 'The number a PromQL query returns, as it is.',
    unit: null,
  },
  loki: {
    label: 'Loki log query',
    group: 'Data & logs',
    measures: 'The number a LogQL aggregation returns, as it is.',
    unit: null,
  },
  elasticsearch: {
    label: 'Elasticsearch or OpenSearch',
    group: 'Data & logs',
    measures: 'The value of a named aggregation, as it is.',
    unit: null,
  },
  cloudwatch: {
    label: 'AWS CloudWatch metric',
    group: 'Data & logs',
    measures: 'The latest datapoint of the chosen statistic, in its own unit.',
    unit: null,
  },
  database: {
    label: 'Database query',
    group: 'Data & logs',
    measures: 'The number a read-only query returns (one row, one column).',
    unit: null,
  },
  heartbeat: {
    label: 'Heartbeat (a job pings Vigil)',
    group: 'Pushed to Vigil',
    measures: 'Seconds since the last ping.',
    unit: 's',
  },
  alert: {
    label: 'Alert webhooks (Alertmanager, Grafana)',
    group: 'Pushed to Vigil',
    measures: 'The worst firing alert: 0 none, 1 degraded, 2 unhealthy.',
    unit: null,
  },
  otlp: {
    label: 'OpenTelemetry (OTLP) metric',
    group: 'Pushed to Vigil',
    measures: 'The aggregated value of data points pushed to the agent, in the instrument’s unit.',
    unit: null,
  },
  manual: {
    label: 'Manual status',
    group: 'Set by hand',
    measures: 'No measured value: you set the status, or an open incident does.',
    unit: null,
  },
  host: {
    label: 'Host: CPU, memory, disk, network',
    group: 'Host',
    measures: 'The agent host’s CPU or memory or disk use in %, network throughput in B/s, or load per CPU.',
    unit: null,
  },
  custom: {
    label: 'Custom probe function',
    group: 'Custom',
    measures: 'The number your probe function registered on the agent returns.',
    unit: null,
  },
} as const satisfies Record<SourceType, TypeLabel>;

const LABELS: Readonly<Record<string, TypeLabel>> = SOURCE_TYPE_LABELS;

/** The row of a type; an unknown name reads as itself. */
export function typeLabel(type: string): TypeLabel {
  return LABELS[type] ?? { label: type, group: 'Custom', measures: '', unit: null };
}

/** The picker's options: every type, grouped, in the groups' order and the domain table's order within each. */
export function typeOptionGroups(): { group: TypeGroup; types: { value: string; label: string }[] }[] {
  return TYPE_GROUPS.map((group) => ({
    group,
    types: ALL_SOURCE_TYPES.filter((t) => LABELS[t]!.group === group).map((t) => ({
      value: t,
      label: LABELS[t]!.label,
    })),
  }));
}

/** Help text from the schemas as HTML: escaped, with `name` spans shown as code rather than raw backticks. */
export function prose(text: string): string {
  return esc(text)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/`/g, '');
}
