/**
 * Why a measurement has no value (spec §7.3): every reason code an agent, the prober or the service
 * writes, with a short `label` (what happened) and a `hint` (usual cause and fix). GET /metrics/{id}
 * and probe test results render `reason_label` and `reason_hint` from here. Codes are case-sensitive.
 */
export const REASON_CODES = {
  // Network and TLS
  ECONNREFUSED: {
    label: 'TCP connection refused',
    hint: 'Nothing listens on that host and port, or a firewall rejects the connection; check the port and that the service is up. Older agents also reported an unresolved hostname this way, so check the hostname too.',
  },
  ETIMEDOUT: {
    label: 'Probe did not finish within the configured timeout',
    hint: 'The target is slow or a firewall silently drops packets; check reachability from the agent or raise the timeout.',
  },
  ENOTFOUND: {
    label: 'Hostname did not resolve',
    hint: 'Check the hostname for typos and that its DNS record exists for the resolver the agent uses.',
  },
  EAI_AGAIN: {
    label: 'Transient resolver error',
    hint: 'The DNS resolver did not answer in time; usually passes by itself, otherwise check the DNS configuration of the agent host.',
  },
  ECONNRESET: {
    label: 'Connection closed before an answer',
    hint: 'The server or a proxy in between dropped the connection; check server logs, proxy idle timeouts and whether the port speaks the expected protocol (e.g. TLS vs plain).',
  },
  EHOSTUNREACH: {
    label: 'No route to the target',
    hint: 'The network path from the agent to the target is missing; check routing, VPN and firewall rules on the agent host.',
  },
  connect_failed: {
    label: 'Could not open a connection',
    hint: 'The agent could not open a socket to the target; check the address, that the agent host has network access and free local ports.',
  },
  ENODATA: {
    label: 'Name exists, no records of the requested type',
    hint: 'The name resolves but has no record of the queried type (e.g. AAAA only, no A); add the record or query another type.',
  },
  ESERVFAIL: {
    label: 'Resolver answered SERVFAIL',
    hint: 'The resolver could not get an answer from the authoritative servers, often a broken DNSSEC chain or unreachable name servers; check the zone.',
  },
  EREFUSED: {
    label: 'Resolver refused the query',
    hint: 'The resolver does not serve this client or zone; use a resolver that allows queries from the agent.',
  },
  CERT_HAS_EXPIRED: {
    label: 'Server certificate expired',
    hint: 'Renew the server certificate and check that automatic renewal (e.g. ACME) works.',
  },
  CERT_NOT_YET_VALID: {
    label: 'Certificate start date in the future',
    hint: 'The certificate was issued with a future notBefore, or the agent host clock is behind; check the clock (NTP).',
  },
  DEPTH_ZERO_SELF_SIGNED_CERT: {
    label: 'Self-signed server certificate',
    hint: 'Provide the certificate that signs it through `ca_cert_ref`, or turn TLS verification off for this check.',
  },
  SELF_SIGNED_CERT_IN_CHAIN: {
    label: 'Chain ends in an untrusted root',
    hint: 'The root CA is private or not in the trust store; provide it through `ca_cert_ref`.',
  },
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: {
    label: 'Chain incomplete (missing intermediates)',
    hint: 'The server does not send its intermediate certificates; configure it to serve the full chain.',
  },
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: {
    label: 'Issuer not in the trust store',
    hint: 'The issuing CA is unknown to the agent; serve the full chain or provide the CA through `ca_cert_ref`.',
  },
  ERR_TLS_CERT_ALTNAME_INVALID: {
    label: 'Certificate not valid for the hostname',
    hint: 'The certificate does not list this hostname among its names; probe the name the certificate covers or reissue it with this name.',
  },
  tls_handshake_failed: {
    label: 'No TLS session could be agreed',
    hint: 'Client and server share no protocol version or cipher, or the port does not speak TLS; check the server TLS configuration.',
  },
  tcp_error: {
    label: 'Unclassified TCP failure',
    hint: 'The connection failed for a reason the agent could not classify; see the metadata and the agent log.',
  },
  tls_error: {
    label: 'Unclassified TLS failure',
    hint: 'TLS failed for a reason the agent could not classify; see the metadata and check the server certificate and TLS settings.',
  },
  dns_error: {
    label: 'Unclassified DNS failure',
    hint: 'The lookup failed for a reason the agent could not classify; see the metadata and check the resolver.',
  },

  // HTTP
  body_mismatch: {
    label: 'Configured match string absent from the body',
    hint: 'Only the first 4 KB of the body is read; check the match string and that it appears early in the response.',
  },
  json_body_too_large: {
    label: 'Response body over 10 MB',
    hint: 'JSON extraction reads at most 10 MB; point the check at a smaller endpoint or filter the response server-side.',
  },
  http_error: {
    label: 'HTTP request could not complete',
    hint: 'The request failed before a response arrived; see the metadata and check the URL and the target.',
  },

  // HTTP JSON extraction
  json_parse_failed: {
    label: 'Response body is not valid JSON',
    hint: 'The endpoint returned something other than JSON (often an HTML error page); check the URL and the response content type.',
  },
  json_path_invalid: { label: 'JSON path is invalid', hint: 'Fix the syntax of the configured `json_path`.' },
  json_path_no_match: {
    label: 'JSON path matched nothing',
    hint: 'The field is absent from this response; check the path against an actual response body.',
  },
  json_path_multi_match: {
    label: 'JSON path matched more than one value',
    hint: 'Narrow the path (e.g. an index instead of a wildcard) so it selects a single value.',
  },
  json_path_non_numeric: {
    label: 'JSON path value is not numeric',
    hint: 'Only numbers pass (booleans are cast to 0/1); point the path at a numeric field.',
  },
  json_path_unsupported_type: {
    label: 'JSON path value is an array, object or null',
    hint: 'Point the path at a single number or boolean inside that value.',
  },

  // HTTP mTLS
  mtls_ref_missing: {
    label: 'Client certificate or key variable not set on the agent',
    hint: 'The check config must hold the NAME of an environment variable, not the certificate content; set that variable on the agent and restart it. The agent sends only variables named `VIGIL_SECRET_*` (its `VIGIL_AGENT_SECRET_PREFIX`) or listed in its `VIGIL_AGENT_SECRETS`, never `VIGIL_AGENT_*`.',
  },
  mtls_handshake_failed: {
    label: 'Uncategorised mTLS handshake failure',
    hint: 'See the metadata; check the client certificate, key and the server TLS configuration.',
  },
  mtls_file_unreadable: {
    label: 'Variable points at an unreadable file',
    hint: 'Check that the file exists and that the agent user may read it.',
  },
  mtls_cert_parse_failed: {
    label: 'PEM is not a valid certificate',
    hint: 'The certificate variable must hold (or point at) a PEM certificate starting with -----BEGIN CERTIFICATE-----.',
  },
  mtls_key_parse_failed: {
    label: 'PEM is not a valid private key',
    hint: 'Use an unencrypted PEM key in PKCS#1, PKCS#8 or EC format.',
  },
  mtls_weak_key: {
    label: 'RSA key under 2048 bits rejected',
    hint: 'Issue a client certificate with an RSA key of at least 2048 bits (or an EC key).',
  },
  mtls_cert_expired: {
    label: 'Client certificate expired',
    hint: 'Renew the client certificate and update the variable on the agent.',
  },
  mtls_incomplete: {
    label: 'Certificate and key variables must be set together',
    hint: 'Set both the certificate and the key variable on the agent, or neither.',
  },
  mtls_server_cert_expired: {
    label: 'Server certificate expired',
    hint: 'Renew the server certificate of the target.',
  },
  mtls_server_verify_failed: {
    label: 'Server certificate failed validation',
    hint: 'The server certificate does not validate against the configured CA or the system store; check the CA you provided and the server chain.',
  },
  mtls_client_cert_rejected: {
    label: 'Server rejected the client certificate',
    hint: 'The server does not trust the issuer of the client certificate, or the certificate is revoked; check the server client-CA configuration.',
  },

  // Secret headers (HTTP, WebSocket)
  header_ref_missing: {
    label: 'Header variable unset or blank on the agent',
    hint: 'Set the environment variable named in `header_refs` on the agent (the metadata names the header and variable) and restart it. The agent sends only variables named `VIGIL_SECRET_*` (its `VIGIL_AGENT_SECRET_PREFIX`) or listed in its `VIGIL_AGENT_SECRETS`, never `VIGIL_AGENT_*`.',
  },
  header_ref_invalid: {
    label: 'Header variable holds a line break or control character',
    hint: 'Remove trailing newlines or control characters from the variable value.',
  },

  // DNS and TLS certificate
  expected_value_mismatch: {
    label: 'Resolved value lacks the expected value',
    hint: 'The record changed or the expected value is wrong; compare the configured value with the current answer.',
  },
  no_cert: {
    label: 'No certificate obtained',
    hint: 'The server presented no certificate; check that the port serves TLS and that SNI uses the right hostname.',
  },
  bad_cert_date: {
    label: 'Certificate expiry date unparseable',
    hint: 'The certificate notAfter field could not be read; inspect the certificate with openssl.',
  },

  // ICMP
  icmp_privilege_denied: {
    label: 'Ping needs raw-socket capability',
    hint: 'Grant the agent CAP_NET_RAW (or allow unprivileged ping via net.ipv4.ping_group_range).',
  },
  icmp_unavailable: {
    label: 'No ping binary on the agent host',
    hint: 'Install ping (e.g. iputils-ping) on the agent host or in its container image.',
  },
  icmp_dns_failed: {
    label: 'Ping target hostname did not resolve',
    hint: 'Check the hostname and the DNS configuration of the agent host.',
  },
  icmp_all_timeout: {
    label: 'Every ping timed out',
    hint: 'The host is down or ICMP is filtered by a firewall; allow echo requests or use a TCP check instead.',
  },
  icmp_error: { label: 'Unclassified ping failure', hint: 'See the metadata for the ping output.' },

  // gRPC
  grpc_health_unknown: {
    label: 'gRPC health status UNKNOWN',
    hint: 'The server has not yet set a status for the service; check its health reporting.',
  },
  grpc_service_unknown: {
    label: 'Service unknown to the gRPC health service',
    hint: 'Check the service name configured in the check against the names the server registers.',
  },
  grpc_unimplemented: {
    label: 'No standard gRPC health service',
    hint: 'The server does not implement grpc.health.v1.Health; register the health service on the server.',
  },
  grpc_unavailable: {
    label: 'gRPC server unavailable',
    hint: 'The server is down or unreachable from the agent; check address, port and whether it expects TLS.',
  },
  grpc_timeout: {
    label: 'gRPC call timed out',
    hint: 'The server did not answer within the timeout; check its load or raise the timeout.',
  },
  grpc_unauthenticated: {
    label: 'gRPC call unauthenticated',
    hint: 'The server wants credentials; supply them through `metadata_refs`.',
  },
  grpc_permission_denied: {
    label: 'gRPC permission denied',
    hint: 'The credentials sent lack permission for the health call; check them on the server.',
  },
  grpc_tls_failed: {
    label: 'gRPC TLS handshake failed',
    hint: 'Check whether the server expects TLS and that its certificate validates against the configured CA.',
  },
  grpc_ca_unreadable: {
    label: 'gRPC CA certificate unreadable',
    hint: 'Check that the configured CA file or variable exists and holds a PEM certificate the agent can read. The agent sends only variables named `VIGIL_SECRET_*` (its `VIGIL_AGENT_SECRET_PREFIX`) or listed in its `VIGIL_AGENT_SECRETS`, never `VIGIL_AGENT_*`.',
  },
  grpc_error: { label: 'Unclassified gRPC failure', hint: 'See the metadata for the gRPC status and message.' },
  metadata_ref_missing: {
    label: 'gRPC metadata variable not set on the agent',
    hint: 'Set the environment variable named in `metadata_refs` on the agent (the metadata names key and variable) and restart it. The agent sends only variables named `VIGIL_SECRET_*` (its `VIGIL_AGENT_SECRET_PREFIX`) or listed in its `VIGIL_AGENT_SECRETS`, never `VIGIL_AGENT_*`.',
  },
  metadata_ref_invalid: {
    label: 'gRPC metadata variable holds an invalid character',
    hint: 'Remove line breaks, control or non-ASCII characters from the variable value.',
  },

  // WebSocket
  ws_open_failed: {
    label: 'WebSocket could not be opened',
    hint: 'The upgrade failed; check the URL (ws:// or wss://), the path and any required headers.',
  },
  ws_handshake_timeout: {
    label: 'WebSocket handshake timed out',
    hint: 'The server did not complete the upgrade in time; check proxies in between and the server load.',
  },
  ws_reply_timeout: {
    label: 'No WebSocket reply in time',
    hint: 'The server accepted the connection but did not reply to the message; check the message and the server handler.',
  },
  ws_closed_early: {
    label: 'WebSocket closed before the reply',
    hint: 'The server closed the connection; the close code in the metadata says why.',
  },
  ws_reply_mismatch: {
    label: 'WebSocket reply did not match',
    hint: 'The reply lacks the expected content; compare the configured match with an actual reply.',
  },

  // Prometheus
  prometheus_url_missing: {
    label: 'Prometheus server URL not set on the agent',
    hint: 'Set PROMETHEUS_SERVER_URL on the agent and restart it.',
  },
  no_data_for_query: {
    label: 'Prometheus query returned an empty result',
    hint: 'The series does not exist (yet) or the labels do not match; run the query in the Prometheus UI.',
  },
  Unauthorized: {
    label: 'Prometheus rejected the credentials',
    hint: 'Check PROMETHEUS_BEARER_TOKEN and, for multi-tenant setups, PROMETHEUS_TENANT_ID on the agent.',
  },
  BadQuery: {
    label: 'Prometheus rejected the query',
    hint: 'Fix the PromQL; run it in the Prometheus UI to see the error.',
  },
  PromUpstream: {
    label: 'Prometheus answered with a server error (5xx)',
    hint: 'Prometheus or a proxy in front of it is failing; check its health and logs.',
  },
  DNS: {
    label: 'Prometheus hostname did not resolve',
    hint: 'Check the host in PROMETHEUS_SERVER_URL and the DNS configuration of the agent host.',
  },
  AgentInternal: {
    label: 'Internal agent error during the Prometheus query',
    hint: 'See the agent log; upgrading the agent may help.',
  },

  // Database
  db_dsn_missing: {
    label: 'Connection string variable not set',
    hint: 'Set the environment variable named in `connection_string_ref` on the agent and restart it. The agent sends only variables named `VIGIL_SECRET_*` (its `VIGIL_AGENT_SECRET_PREFIX`) or listed in its `VIGIL_AGENT_SECRETS`, never `VIGIL_AGENT_*`.',
  },
  db_query_not_allowed: {
    label: 'Query is not a single SELECT',
    hint: 'Only a single SELECT or WITH ... SELECT is allowed; remove other statements and trailing semicolons.',
  },
  db_empty_result: {
    label: 'Query returned zero rows',
    hint: 'Make the query return exactly one row, e.g. with an aggregate such as count(*) or coalesce.',
  },
  db_multi_row: {
    label: 'Query returned more than one row',
    hint: 'Aggregate or add LIMIT 1 so the query returns a single row.',
  },
  db_multi_column: { label: 'Query returned more than one column', hint: 'Select a single column.' },
  db_null_value: {
    label: 'Query returned NULL',
    hint: 'Wrap the value in coalesce(...) if NULL should count as a number.',
  },
  db_non_numeric: {
    label: 'Query result is not numeric',
    hint: 'Return a number (booleans are cast to 0/1); cast text columns explicitly.',
  },
  db_timeout: {
    label: 'Query exceeded statement_timeout_ms',
    hint: 'Speed up the query (indexes, smaller range) or raise `statement_timeout_ms` (max 30 s).',
  },
  db_access_denied: {
    label: 'Role lacks SELECT',
    hint: 'Grant SELECT on the queried tables to the role in the connection string.',
  },
  db_auth_failed: {
    label: 'Database rejected the credentials',
    hint: 'Check the user, password and role in the connection string variable.',
  },
  db_syntax_error: { label: 'Query syntax error', hint: 'Fix the SQL; run it in a database client to see the error.' },
  db_connection_failed: {
    label: 'Database unreachable',
    hint: 'Check host, port and network access from the agent, and whether the database needs TLS.',
  },
  db_invalid_timeout: {
    label: 'Non-finite query timeout (internal)',
    hint: 'Set `statement_timeout_ms` to a finite number of milliseconds; report it if it persists.',
  },
  db_error: { label: 'Uncategorised database driver error', hint: 'See the metadata for the driver message.' },

  // OTLP
  otlp_receiver_disabled: {
    label: 'OTLP receiver disabled on the agent',
    hint: 'The agent was started with <SERVICE>_OTLP_DISABLE=true; unset that variable (or set it to false) and restart the agent.',
  },
  otlp_no_samples: {
    label: 'No OTLP samples received for the metric',
    hint: 'Check that the exporter sends to the agent endpoint and that the metric name and attributes match.',
  },
  otlp_stale: {
    label: 'Newest OTLP sample older than the staleness window',
    hint: 'The exporter stopped sending or sends too rarely; check the exporter and its export interval.',
  },
  otlp_aggregation_unavailable: {
    label: 'Aggregation unavailable for this metric',
    hint: 'Quantiles are not supported on exponential histograms; use mean, count or sum.',
  },
  otlp_invalid_json: {
    label: 'OTLP payload is not valid JSON',
    hint: 'The agent accepts OTLP/HTTP JSON only (protobuf gets HTTP 415); configure the exporter for http/json.',
  },
  otlp_malformed_payload: {
    label: 'OTLP payload has no resourceMetrics array',
    hint: 'Send a metrics export request; traces or logs sent to the metrics endpoint end up here.',
  },

  // Cloud metrics (CloudWatch)
  cloudwatch_no_data: {
    label: 'CloudWatch returned no datapoints',
    hint: 'Check namespace, metric name, dimensions and region, and that the period covers published data.',
  },
  cloudwatch_access_denied: {
    label: 'CloudWatch access denied',
    hint: 'Grant cloudwatch:GetMetricStatistics to the credentials the agent uses.',
  },
  cloudwatch_throttled: {
    label: 'CloudWatch throttled the request',
    hint: 'Too many API calls; lengthen the interval or request a higher quota.',
  },
  cloudwatch_invalid_parameter: {
    label: 'CloudWatch rejected a parameter',
    hint: 'Check the statistic, period and dimensions of the metric config.',
  },
  cloudwatch_resource_not_found: {
    label: 'CloudWatch resource not found',
    hint: 'Check the region and the resource named in the dimensions.',
  },
  cloudwatch_expired_credentials: {
    label: 'AWS credentials expired',
    hint: 'Refresh the credentials of the agent (role session, SSO login or access keys).',
  },
  cloudwatch_server_error: {
    label: 'CloudWatch server error',
    hint: 'AWS answered 5xx; usually passes by itself, check the AWS health dashboard if it persists.',
  },
  cloudwatch_error: { label: 'Unclassified CloudWatch failure', hint: 'See the metadata for the AWS error.' },

  // Loki
  loki_not_aggregation: {
    label: 'Loki query is not a metric query',
    hint: 'Wrap the log query in an aggregation such as count_over_time or rate, summed to one value.',
  },
  loki_no_data: {
    label: 'Loki query returned no data',
    hint: 'No matching logs in the range; check the labels and the time range.',
  },
  loki_multiple_series: {
    label: 'Loki query returned more than one series',
    hint: 'Aggregate with sum(...) or filter by labels so one series remains.',
  },
  loki_unreachable: { label: 'Loki unreachable', hint: 'Check the Loki URL and network access from the agent.' },
  loki_timeout: {
    label: 'Loki query timed out',
    hint: 'Shorten the range or simplify the query, or raise the timeout.',
  },
  loki_unauthorized: {
    label: 'Loki rejected the credentials (401/403)',
    hint: 'Check the credentials and tenant id the agent sends to Loki. The agent sends LOKI_TENANT_ID only to the origin of LOKI_SERVER_URL: a metric whose url points elsewhere is queried without it.',
  },
  loki_auth_ref_missing: {
    label: 'Loki credential variable not set on the agent',
    hint: 'Set the environment variable named in the auth reference on the agent and restart it. The agent sends only variables named `VIGIL_SECRET_*` (its `VIGIL_AGENT_SECRET_PREFIX`) or listed in its `VIGIL_AGENT_SECRETS`, never `VIGIL_AGENT_*`.',
  },
  loki_query_error: {
    label: 'Loki rejected the query (400/422)',
    hint: 'Fix the LogQL; the metadata carries the error text.',
  },
  loki_server_error: {
    label: 'Loki server error (5xx)',
    hint: 'Loki or a proxy in front of it is failing; check its health and logs.',
  },
  loki_bad_response: {
    label: 'Loki answered something unexpected',
    hint: 'The response is not a Loki query result; check that the URL points at the Loki API.',
  },
  loki_error: { label: 'Unclassified Loki failure', hint: 'See the metadata for the error.' },

  // Elasticsearch and OpenSearch
  es_agg_not_found: {
    label: 'Aggregation not found in the response',
    hint: 'Use one of the aggregation names listed in the metadata.',
  },
  es_agg_unsupported: {
    label: 'Aggregation type unsupported',
    hint: 'Use a single-value metric aggregation (e.g. avg, sum, max, value_count).',
  },
  es_no_data: {
    label: 'Aggregation value is null',
    hint: 'No documents matched; check the index, query and time range.',
  },
  es_index_not_found: { label: 'Index not found (404)', hint: 'Check the index name or pattern.' },
  es_unreachable: { label: 'Elasticsearch unreachable', hint: 'Check the URL and network access from the agent.' },
  es_timeout: { label: 'Elasticsearch query timed out', hint: 'Narrow the query or time range, or raise the timeout.' },
  es_unauthorized: {
    label: 'Elasticsearch rejected the credentials (401/403)',
    hint: 'Check the credentials and that the user may read the index.',
  },
  es_auth_ref_missing: {
    label: 'Elasticsearch credential variable not set on the agent',
    hint: 'Set the environment variable named in the auth reference on the agent and restart it. The agent sends only variables named `VIGIL_SECRET_*` (its `VIGIL_AGENT_SECRET_PREFIX`) or listed in its `VIGIL_AGENT_SECRETS`, never `VIGIL_AGENT_*`.',
  },
  es_query_error: {
    label: 'Elasticsearch rejected the query (400/422)',
    hint: 'Fix the query DSL; the metadata carries the error.',
  },
  es_server_error: {
    label: 'Elasticsearch server error (5xx)',
    hint: 'The cluster is failing; check its health and logs.',
  },
  es_bad_response: {
    label: 'Elasticsearch answered something unexpected',
    hint: 'The response is not a search result; check that the URL points at the cluster API.',
  },
  es_error: { label: 'Unclassified Elasticsearch failure', hint: 'See the metadata for the error.' },

  // Custom probes
  custom_probe_not_found: {
    label: 'Custom probe not found',
    hint: 'Check the probe name and that its file is installed on the agent.',
  },
  custom_probe_config_invalid: {
    label: 'Custom probe config invalid',
    hint: 'The config does not match what the probe expects; check its documentation.',
  },
  custom_probe_timeout: {
    label: 'Custom probe timed out',
    hint: 'The probe took longer than its timeout (max 30 s); make it faster.',
  },
  custom_probe_error: { label: 'Custom probe threw an error', hint: 'See metadata.error and metadata.stack.' },
  custom_probe_bad_return: {
    label: 'Custom probe returned an invalid value',
    hint: 'Return a finite number or { value, metadata }.',
  },

  // Host metrics
  host_cpu_unavailable: {
    label: 'CPU usage unavailable',
    hint: 'The agent could not read CPU counters on this host; see the agent log.',
  },
  host_memory_unavailable: {
    label: 'Memory usage unavailable',
    hint: 'The agent could not read memory counters on this host; see the agent log.',
  },
  host_filesystem_unavailable: {
    label: 'Filesystem usage unavailable',
    hint: 'Check the mount point in the config and that the agent can see it (containers need it mounted).',
  },
  host_network_unavailable: {
    label: 'Network throughput unavailable',
    hint: 'Check the interface name in the config and that the agent can read it.',
  },
  host_metric_unsupported_platform: {
    label: 'Metric unsupported on this platform',
    hint: 'Network throughput is Linux only; run the check on a Linux agent.',
  },
  host_unknown_metric: {
    label: 'Unknown host metric',
    hint: 'Use a host metric the agent supports; upgrading the agent may add it.',
  },
  host_read_error: { label: 'Host metric could not be read', hint: 'See the metadata and the agent log.' },

  // Inbound alerts
  alert_heartbeat_missing: {
    label: 'Alert source heartbeat stopped arriving',
    hint: 'Check the alert source and its webhook to Vigil; status returns when the heartbeat resumes.',
  },

  // Hosted (cloud) checks
  dns_failed: {
    label: 'Hostname did not resolve from the prober',
    hint: 'Check the hostname and that it resolves in public DNS.',
  },
  dns_no_answer: {
    label: 'DNS returned no answer',
    hint: 'The name has no record of the queried type in public DNS; add the record.',
  },
  source_not_allowed_in_prober: {
    label: 'Check type not available as a hosted check',
    hint: 'Hosted checks run HTTP, TCP, DNS, TLS certificate and ping only; run this check on an agent.',
  },
  icmp_unavailable_on_prober: {
    label: 'Ping unavailable on the prober',
    hint: 'Use a TCP or HTTP check, or run the ping from an agent.',
  },
  redirect_invalid: {
    label: 'Redirect target invalid',
    hint: 'The Location header is not a valid URL; fix the redirect or probe the final URL.',
  },
  redirect_scheme_not_allowed: {
    label: 'Redirect to a scheme other than http or https',
    hint: 'Only http and https redirects are followed; probe the final URL directly.',
  },
  url_credentials_not_allowed: {
    label: 'URL carries credentials',
    hint: 'Remove user:password@ from the URL (also from redirect targets); use secret headers on an agent instead.',
  },
  invalid_host: { label: 'Invalid host', hint: 'Use a valid public hostname or IP address.' },
  host_not_fqdn: {
    label: 'Host is not a fully qualified domain name',
    hint: 'Use a full public name such as api.example.com; short names only resolve inside your network.',
  },
  host_internal: {
    label: 'Host is an internal name',
    hint: 'Hosted checks reach public targets only; use an agent inside your network.',
  },
  host_not_public: {
    label: 'Host is not a public address',
    hint: 'Hosted checks reach public targets only; use an agent inside your network.',
  },
  invalid_resolver: { label: 'Invalid DNS resolver', hint: 'Use a public resolver IP on port 53.' },
  resolver_not_public: {
    label: 'DNS resolver is not public',
    hint: 'Hosted checks may only use public resolvers; use an agent for internal resolvers.',
  },

  // Configuration and agent runtime
  unknown_source_type: {
    label: 'Unknown check type',
    hint: 'The agent does not know this check type; check the type, or upgrade the agent if the type is new.',
  },
  invalid_config: {
    label: 'Invalid check configuration',
    hint: 'See the metadata for the field at fault and fix the metric config.',
  },
  push_source_init_failed: {
    label: 'Push source failed to start',
    hint: 'See the agent log; often a port already in use or a missing permission.',
  },
  push_source_read_failed: { label: 'Push source could not be read', hint: 'See the agent log for the read error.' },
  not_implemented: {
    label: 'Not implemented by this agent',
    hint: 'Upgrade the agent to a version that supports this check.',
  },
  invalid_url: { label: 'Invalid URL', hint: 'Fix the URL in the metric config.' },
  invalid_url_scheme: { label: 'URL scheme not allowed', hint: 'HTTP probes accept only http and https URLs.' },
  dns_resolver_invalid: {
    label: 'Invalid DNS resolver',
    hint: 'Configure the resolver as an IP address, optionally with a port.',
  },
  grpc_metadata_invalid: {
    label: 'Invalid gRPC metadata',
    hint: 'Fix the gRPC metadata in the config; values may not hold line breaks, control or non-ASCII characters.',
  },
  invalid_prometheus_url: {
    label: 'Invalid Prometheus URL',
    hint: 'Fix PROMETHEUS_SERVER_URL on the agent: a full http(s) URL of the Prometheus server.',
  },
  prometheus_auth_conflict: {
    label: 'Conflicting Prometheus credentials',
    hint: 'Configure only one way to authenticate to Prometheus (bearer token or basic auth).',
  },
  prometheus_headers_invalid: {
    label: 'Invalid Prometheus headers',
    hint: 'Fix the extra headers configured for Prometheus on the agent.',
  },
  prom_bad_response: {
    label: 'Prometheus answered something unexpected',
    hint: 'The response is not a Prometheus query result; check that the URL points at the Prometheus API.',
  },
  prom_multiple_series: {
    label: 'Prometheus query returned more than one series',
    hint: 'Aggregate with sum(...) or filter by labels so the query returns one series.',
  },
  source_threw: {
    label: 'Check threw an unexpected error',
    hint: 'See the metadata and the agent log; upgrading the agent may help.',
  },
  non_finite_value: {
    label: 'Value is NaN or infinity',
    hint: 'The source produced no finite number, often a division by zero in the query.',
  },
  unknown: {
    label: 'Unknown failure',
    hint: 'The failure could not be classified, or its code is unknown to this service; see the metadata and the agent log, and upgrade the agent if it is old.',
  },
  test_timeout: {
    label: 'Probe test timed out',
    hint: 'The agent did not finish the test in time; check the target and the agent load.',
  },
  agent_error: { label: 'Agent error', hint: 'The agent failed internally; see the agent log.' },

  // Written by the service itself
  stale_agent_silent: {
    label: 'Agent silent',
    hint: 'No samples for over 3 times the push interval; check that the agent runs and can reach Vigil.',
  },
  no_data: {
    label: 'No measurable value on the last tick',
    hint: 'The source produced no value in the last interval; check that it still reports.',
  },
} as const satisfies Record<string, { label: string; hint: string }>;

export type ReasonCode = keyof typeof REASON_CODES;

export interface ReasonDescription {
  reason: string | null;
  reason_label: string | null;
  reason_hint: string | null;
}

export function isReasonCode(s: string): s is ReasonCode {
  return Object.hasOwn(REASON_CODES, s);
}

/** Codes from older agents, shown as the current code (spec §7.3). */
export const LEGACY_REASON_CODES: Readonly<Record<string, ReasonCode>> = {
  // The spec shows ConnectionRefused as "could not connect (connection refused or hostname
  // unresolved)": older agents could not tell the two apart. ECONNREFUSED is the closer current
  // code; its hint tells the reader to check the hostname too.
  ConnectionRefused: 'ECONNREFUSED',
  ConnectionFailed: 'connect_failed',
  FailedToOpenSocket: 'connect_failed',
  EADDRNOTAVAIL: 'connect_failed',
  ConnectionClosed: 'ECONNRESET',
  ConnectionResetByPeer: 'ECONNRESET',
  BrokenPipe: 'ECONNRESET',
  EPIPE: 'ECONNRESET',
  ConnectionTimedOut: 'ETIMEDOUT',
  ConnectionTimeout: 'ETIMEDOUT',
  Timeout: 'ETIMEDOUT',
  TimeoutError: 'ETIMEDOUT',
  AbortError: 'ETIMEDOUT',
  ECONNABORTED: 'ETIMEDOUT',
  ESOCKETTIMEDOUT: 'ETIMEDOUT',
  ETIMEOUT: 'ETIMEDOUT',
  ENETUNREACH: 'EHOSTUNREACH',
  ENETDOWN: 'EHOSTUNREACH',
  EHOSTDOWN: 'EHOSTUNREACH',
  EAI_NONAME: 'ENOTFOUND',
  EAI_NODATA: 'ENOTFOUND',
  EAI_FAIL: 'ENOTFOUND',
  CERT_UNTRUSTED: 'SELF_SIGNED_CERT_IN_CHAIN',
  UNABLE_TO_GET_ISSUER_CERT: 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  HOSTNAME_MISMATCH: 'ERR_TLS_CERT_ALTNAME_INVALID',
  no_prometheus_url: 'prometheus_url_missing',
  body_too_large: 'json_body_too_large',
};

const LEGACY_TLS_PREFIXES = ['ERR_TLS_', 'ERR_SSL_'] as const;

export type VariablePrefix = 'unexpected_status' | 'target_not_public' | 'refused';

const VARIABLE_CODES: Readonly<Record<VariablePrefix, (part: string) => { label: string; hint: string }>> = {
  unexpected_status: (status) => ({
    label: `Unexpected HTTP status ${status}`,
    hint: `The target answered ${status}, outside the metric's \`expected_status\`; fix the target or add ${status} to \`expected_status\` if it is a valid answer.`,
  }),
  target_not_public: (reason) => ({
    label: `Target not public (${reason})`,
    hint: `The target resolves to a blocked address (${reason}); hosted checks refuse a target if any DNS answer is private. Use an agent inside your network for it.`,
  }),
  refused: (problem) => ({
    label: `Refused by the prober (${problem})`,
    hint: `The prober re-validated this hosted check and refused it: ${problem}. Fix the check config, or run it on an agent.`,
  }),
};

/** The prefixes of the codes with a variable part (`prefix:part`). */
export const VARIABLE_REASON_PREFIXES = Object.keys(VARIABLE_CODES) as VariablePrefix[];

/** Splits `prefix:part` when the prefix has a variable part and the part is not empty. */
function splitVariable(code: string): { prefix: VariablePrefix; part: string } | null {
  const colon = code.indexOf(':');
  if (colon <= 0 || colon === code.length - 1) return null;
  const prefix = code.slice(0, colon);
  if (!Object.hasOwn(VARIABLE_CODES, prefix)) return null;
  return { prefix: prefix as VariablePrefix, part: code.slice(colon + 1) };
}

/**
 * The current code for `code`: current and variable-part codes unchanged, older codes mapped,
 * anything else `unknown`. Mapping unknown codes (e.g. from an agent newer than the service) to
 * `unknown` keeps every reason shown a documented one; callers wanting the raw code keep it apart.
 */
export function normalizeReason(code: string): string {
  if (isReasonCode(code) || splitVariable(code)) return code;
  if (Object.hasOwn(LEGACY_REASON_CODES, code)) return LEGACY_REASON_CODES[code]!;
  if (LEGACY_TLS_PREFIXES.some((p) => code.startsWith(p))) return 'tls_handshake_failed';
  return 'unknown';
}

export function describeReason(code: string | null): ReasonDescription {
  if (code === null) return { reason: null, reason_label: null, reason_hint: null };
  const reason = normalizeReason(code);
  const variable = splitVariable(reason);
  const { label, hint } = variable
    ? VARIABLE_CODES[variable.prefix](variable.part)
    : REASON_CODES[reason as ReasonCode];
  return { reason, reason_label: label, reason_hint: hint };
}
