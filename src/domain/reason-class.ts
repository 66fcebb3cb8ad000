/**
 * What a `no_data` reason says about availability. Every reason code of the
 * catalog (reason-codes.ts) has a class:
 * - `target`: the target did not answer as configured (refused, reset, timed out, its name did
 *   not resolve, its TLS failed, a wrong status or body, …). The metric stays `no_data` with
 *   `current_value: null` (spec §7.3), but for availability it counts as down, like `unhealthy`.
 * - `measurement`: Vigil could not measure (a missing secret or setting, an invalid config, a
 *   silent agent, no tick yet, a missing privilege, …). A gap in the evidence: never up, never down.
 *
 * Unknown codes (a newer agent's) normalise to `unknown`, a measurement gap: we do not call
 * something an outage we cannot explain.
 */
import { type ReasonCode, type VariablePrefix, normalizeReason } from './reason-codes';

export const REASON_CLASSES = ['target', 'measurement'] as const;
export type ReasonClass = (typeof REASON_CLASSES)[number];

const T = 'target' as const;
const M = 'measurement' as const;

/** The class of every fixed code; `satisfies` makes a code added to the catalog without a class a type error. */
export const REASON_CODE_CLASSES = {
  // Network and TLS: the target (or the path to it) did not answer.
  ECONNREFUSED: T,
  ETIMEDOUT: T,
  ENOTFOUND: T,
  EAI_AGAIN: T,
  ECONNRESET: T,
  EHOSTUNREACH: T,
  connect_failed: T,
  ENODATA: T,
  ESERVFAIL: T,
  EREFUSED: T,
  CERT_HAS_EXPIRED: T,
  CERT_NOT_YET_VALID: T,
  DEPTH_ZERO_SELF_SIGNED_CERT: T,
  SELF_SIGNED_CERT_IN_CHAIN: T,
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: T,
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: T,
  ERR_TLS_CERT_ALTNAME_INVALID: T,
  tls_handshake_failed: T,
  tcp_error: T,
  tls_error: T,
  dns_error: T,
  // HTTP
  body_mismatch: T,
  json_body_too_large: T,
  http_error: T,
  json_parse_failed: T,
  json_path_invalid: M,
  json_path_no_match: T,
  json_path_multi_match: T,
  json_path_non_numeric: T,
  json_path_unsupported_type: T,
  // mTLS: our own certificate and key are measurement problems; the server's answers are the target's.
  mtls_ref_missing: M,
  mtls_handshake_failed: T,
  mtls_file_unreadable: M,
  mtls_cert_parse_failed: M,
  mtls_key_parse_failed: M,
  mtls_weak_key: M,
  mtls_cert_expired: M,
  mtls_incomplete: M,
  mtls_server_cert_expired: T,
  mtls_server_verify_failed: T,
  mtls_client_cert_rejected: T,
  header_ref_missing: M,
  header_ref_invalid: M,
  // DNS and TLS certificate
  expected_value_mismatch: T,
  no_cert: T,
  bad_cert_date: T,
  // ICMP
  icmp_privilege_denied: M,
  icmp_unavailable: M,
  icmp_dns_failed: T,
  icmp_all_timeout: T,
  icmp_error: M,
  // gRPC
  grpc_health_unknown: T,
  grpc_service_unknown: T,
  grpc_unimplemented: T,
  grpc_unavailable: T,
  grpc_timeout: T,
  grpc_unauthenticated: M,
  grpc_permission_denied: M,
  grpc_tls_failed: T,
  grpc_ca_unreadable: M,
  grpc_error: T,
  metadata_ref_missing: M,
  metadata_ref_invalid: M,
  // WebSocket
  ws_open_failed: T,
  ws_handshake_timeout: T,
  ws_reply_timeout: T,
  ws_closed_early: T,
  ws_reply_mismatch: T,
  // Prometheus, Loki, Elasticsearch, CloudWatch, databases: a source that answers but refuses our
  // credentials, or whose query matches nothing (often "zero errors", or data not there yet), is
  // a measurement problem; a source that does not answer is the target failing.
  prometheus_url_missing: M,
  no_data_for_query: M,
  Unauthorized: M,
  BadQuery: M,
  PromUpstream: T,
  DNS: T,
  AgentInternal: M,
  // Database
  db_dsn_missing: M,
  db_query_not_allowed: M,
  db_empty_result: M,
  db_multi_row: T,
  db_multi_column: T,
  db_null_value: M,
  db_non_numeric: T,
  db_timeout: T,
  db_access_denied: M,
  db_auth_failed: M,
  db_syntax_error: M,
  db_connection_failed: T,
  db_invalid_timeout: M,
  db_error: T,
  // OTLP: pushed to the agent; no samples means the exporter (the target) went quiet.
  otlp_receiver_disabled: M,
  otlp_no_samples: M,
  otlp_stale: T,
  otlp_aggregation_unavailable: M,
  otlp_invalid_json: M,
  otlp_malformed_payload: M,
  // CloudWatch
  cloudwatch_no_data: M,
  cloudwatch_access_denied: M,
  cloudwatch_throttled: M,
  cloudwatch_invalid_parameter: M,
  cloudwatch_resource_not_found: T,
  cloudwatch_expired_credentials: M,
  cloudwatch_server_error: M,
  cloudwatch_error: M,
  // Loki
  loki_not_aggregation: M,
  loki_no_data: M,
  loki_multiple_series: M,
  loki_unreachable: T,
  loki_timeout: T,
  loki_unauthorized: M,
  loki_auth_ref_missing: M,
  loki_query_error: M,
  loki_server_error: T,
  loki_bad_response: T,
  loki_error: T,
  // Elasticsearch and OpenSearch
  es_agg_not_found: M,
  es_agg_unsupported: M,
  es_no_data: M,
  es_index_not_found: T,
  es_unreachable: T,
  es_timeout: T,
  es_unauthorized: M,
  es_auth_ref_missing: M,
  es_query_error: M,
  es_server_error: T,
  es_bad_response: T,
  es_error: T,
  // Custom probes: the customer's code failing is not an observed outage.
  custom_probe_not_found: M,
  custom_probe_config_invalid: M,
  custom_probe_timeout: M,
  custom_probe_error: M,
  custom_probe_bad_return: M,
  // Host metrics: the agent's own host could not be read.
  host_cpu_unavailable: M,
  host_memory_unavailable: M,
  host_filesystem_unavailable: M,
  host_network_unavailable: M,
  host_metric_unsupported_platform: M,
  host_unknown_metric: M,
  host_read_error: M,
  // Inbound alerts: a heartbeat that did not arrive is the monitored job failing.
  alert_heartbeat_missing: T,
  // Hosted (cloud) checks
  dns_failed: T,
  dns_no_answer: T,
  source_not_allowed_in_prober: M,
  icmp_unavailable_on_prober: M,
  redirect_invalid: T,
  redirect_scheme_not_allowed: T,
  url_credentials_not_allowed: M,
  invalid_host: M,
  host_not_fqdn: M,
  host_internal: M,
  host_not_public: M,
  invalid_resolver: M,
  resolver_not_public: M,
  // Configuration and agent runtime
  unknown_source_type: M,
  invalid_config: M,
  push_source_init_failed: M,
  push_source_read_failed: M,
  not_implemented: M,
  invalid_url: M,
  invalid_url_scheme: M,
  dns_resolver_invalid: M,
  grpc_metadata_invalid: M,
  invalid_prometheus_url: M,
  prometheus_auth_conflict: M,
  prometheus_headers_invalid: M,
  prom_bad_response: T,
  prom_multiple_series: M,
  source_threw: M,
  non_finite_value: M,
  unknown: M,
  test_timeout: M,
  agent_error: M,
  // Written by the service itself
  stale_agent_silent: M,
  no_data: M,
} as const satisfies Record<ReasonCode, ReasonClass>;

/** Classes of the codes with a variable part (`prefix:part`). */
export const VARIABLE_REASON_CLASSES = {
  unexpected_status: T,
  target_not_public: M,
  refused: M,
} as const satisfies Record<VariablePrefix, ReasonClass>;

/** The class of a reason code (normalised first); null for no reason (a reading with a value). */
export function reasonClass(code: string | null | undefined): ReasonClass | null {
  if (code === null || code === undefined) return null;
  const reason = normalizeReason(code);
  const colon = reason.indexOf(':');
  if (colon > 0) return (VARIABLE_REASON_CLASSES as Record<string, ReasonClass>)[reason.slice(0, colon)] ?? M;
  return (REASON_CODE_CLASSES as Record<string, ReasonClass>)[reason] ?? M;
}

/**
 * The class a stored reading carries (samples, the metric's latest outcome, flips): a `no_data`
 * reading's reason class (no reason: `no_data`, a measurement gap); null for a reading with a
 * status, whose reason (manual metrics store `no_data` with a status set by hand) says nothing.
 */
export function readingReasonClass(status: string, reason: string | null | undefined): ReasonClass | null {
  return status === 'no_data' ? reasonClass(reason ?? 'no_data') : null;
}

/** What a reading means for availability: `up`, `down`, or `unmeasured` (a gap in the evidence). */
export type Availability = 'up' | 'down' | 'unmeasured';

/** A reading's availability: healthy and degraded are up; unhealthy and `no_data` of a `target` reason are down; any other `no_data` is unmeasured. */
export function availabilityOf(status: string, reason: string | null | undefined): Availability {
  if (status === 'healthy' || status === 'degraded') return 'up';
  if (status === 'unhealthy') return 'down';
  return reasonClass(reason ?? 'no_data') === 'target' ? 'down' : 'unmeasured';
}

/**
 * The status availability reckons with: a `no_data` reading with a `target` reason counts as
 * `unhealthy`; every other reading keeps its status (`no_data` then means a measurement gap).
 */
export function effectiveStatus<S extends string>(status: S, reason: string | null | undefined): S | 'unhealthy' {
  return status === 'no_data' && reasonClass(reason ?? 'no_data') === 'target' ? 'unhealthy' : status;
}
