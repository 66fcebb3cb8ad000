import {
  LEGACY_REASON_CODES,
  REASON_CODES,
  describeReason,
  isReasonCode,
  normalizeReason,
} from '../../src/domain/reason-codes';

/** Spec §7.3, written out again so a code missing from (or extra in) the catalog fails. */
const SPEC_CODES: Record<string, readonly string[]> = {
  'network and TLS': [
    'ECONNREFUSED',
    'ETIMEDOUT',
    'ENOTFOUND',
    'EAI_AGAIN',
    'ECONNRESET',
    'EHOSTUNREACH',
    'connect_failed',
    'ENODATA',
    'ESERVFAIL',
    'EREFUSED',
    'CERT_HAS_EXPIRED',
    'CERT_NOT_YET_VALID',
    'DEPTH_ZERO_SELF_SIGNED_CERT',
    'SELF_SIGNED_CERT_IN_CHAIN',
    'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
    'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
    'ERR_TLS_CERT_ALTNAME_INVALID',
    'tls_handshake_failed',
    'tcp_error',
    'tls_error',
    'dns_error',
  ],
  HTTP: ['body_mismatch', 'json_body_too_large', 'http_error'],
  'HTTP JSON extraction': [
    'json_parse_failed',
    'json_path_invalid',
    'json_path_no_match',
    'json_path_multi_match',
    'json_path_non_numeric',
    'json_path_unsupported_type',
  ],
  'HTTP mTLS': [
    'mtls_ref_missing',
    'mtls_handshake_failed',
    'mtls_file_unreadable',
    'mtls_cert_parse_failed',
    'mtls_key_parse_failed',
    'mtls_weak_key',
    'mtls_cert_expired',
    'mtls_incomplete',
    'mtls_server_cert_expired',
    'mtls_server_verify_failed',
    'mtls_client_cert_rejected',
  ],
  'secret headers': ['header_ref_missing', 'header_ref_invalid'],
  'DNS and TLS certificate': ['expected_value_mismatch', 'no_cert', 'bad_cert_date'],
  ICMP: ['icmp_privilege_denied', 'icmp_unavailable', 'icmp_dns_failed', 'icmp_all_timeout', 'icmp_error'],
  gRPC: [
    'grpc_health_unknown',
    'grpc_service_unknown',
    'grpc_unimplemented',
    'grpc_unavailable',
    'grpc_timeout',
    'grpc_unauthenticated',
    'grpc_permission_denied',
    'grpc_tls_failed',
    'grpc_ca_unreadable',
    'grpc_error',
    'metadata_ref_missing',
    'metadata_ref_invalid',
  ],
  WebSocket: ['ws_open_failed', 'ws_handshake_timeout', 'ws_reply_timeout', 'ws_closed_early', 'ws_reply_mismatch'],
  Prometheus: [
    'prometheus_url_missing',
    'no_data_for_query',
    'Unauthorized',
    'BadQuery',
    'PromUpstream',
    'DNS',
    'AgentInternal',
  ],
  Database: [
    'db_dsn_missing',
    'db_query_not_allowed',
    'db_empty_result',
    'db_multi_row',
    'db_multi_column',
    'db_null_value',
    'db_non_numeric',
    'db_timeout',
    'db_access_denied',
    'db_auth_failed',
    'db_syntax_error',
    'db_connection_failed',
    'db_invalid_timeout',
    'db_error',
  ],
  OTLP: [
    'otlp_receiver_disabled',
    'otlp_no_samples',
    'otlp_stale',
    'otlp_aggregation_unavailable',
    'otlp_invalid_json',
    'otlp_malformed_payload',
  ],
  CloudWatch: [
    'cloudwatch_no_data',
    'cloudwatch_access_denied',
    'cloudwatch_throttled',
    'cloudwatch_invalid_parameter',
    'cloudwatch_resource_not_found',
    'cloudwatch_expired_credentials',
    'cloudwatch_server_error',
    'cloudwatch_error',
  ],
  Loki: [
    'loki_not_aggregation',
    'loki_no_data',
    'loki_multiple_series',
    'loki_unreachable',
    'loki_timeout',
    'loki_unauthorized',
    'loki_auth_ref_missing',
    'loki_query_error',
    'loki_server_error',
    'loki_bad_response',
    'loki_error',
  ],
  'Elasticsearch and OpenSearch': [
    'es_agg_not_found',
    'es_agg_unsupported',
    'es_no_data',
    'es_index_not_found',
    'es_unreachable',
    'es_timeout',
    'es_unauthorized',
    'es_auth_ref_missing',
    'es_query_error',
    'es_server_error',
    'es_bad_response',
    'es_error',
  ],
  'custom probes': [
    'custom_probe_not_found',
    'custom_probe_config_invalid',
    'custom_probe_timeout',
    'custom_probe_error',
    'custom_probe_bad_return',
  ],
  'host metrics': [
    'host_cpu_unavailable',
    'host_memory_unavailable',
    'host_filesystem_unavailable',
    'host_network_unavailable',
    'host_metric_unsupported_platform',
    'host_unknown_metric',
    'host_read_error',
  ],
  'inbound alerts': ['alert_heartbeat_missing'],
  'hosted checks': [
    'dns_failed',
    'dns_no_answer',
    'source_not_allowed_in_prober',
    'icmp_unavailable_on_prober',
    'redirect_invalid',
    'redirect_scheme_not_allowed',
    'url_credentials_not_allowed',
    'invalid_host',
    'host_not_fqdn',
    'host_internal',
    'host_not_public',
    'invalid_resolver',
    'resolver_not_public',
  ],
  'configuration and agent runtime': [
    'unknown_source_type',
    'invalid_config',
    'push_source_init_failed',
    'push_source_read_failed',
    'not_implemented',
    'invalid_url',
    'invalid_url_scheme',
    'dns_resolver_invalid',
    'grpc_metadata_invalid',
    'invalid_prometheus_url',
    'prometheus_auth_conflict',
    'prometheus_headers_invalid',
    'prom_bad_response',
    'prom_multiple_series',
    'source_threw',
    'non_finite_value',
    'unknown',
    'test_timeout',
    'agent_error',
  ],
  'written by the service': ['stale_agent_silent', 'no_data'],
};

/** Spec §7.3 "Codes from older agents are shown as the current code". */
const SPEC_LEGACY: ReadonlyArray<[readonly string[], string]> = [
  [['ConnectionRefused'], 'ECONNREFUSED'],
  [['ConnectionFailed', 'FailedToOpenSocket', 'EADDRNOTAVAIL'], 'connect_failed'],
  [['ConnectionClosed', 'ConnectionResetByPeer', 'BrokenPipe', 'EPIPE'], 'ECONNRESET'],
  [
    [
      'ConnectionTimedOut',
      'ConnectionTimeout',
      'Timeout',
      'TimeoutError',
      'AbortError',
      'ECONNABORTED',
      'ESOCKETTIMEDOUT',
      'ETIMEOUT',
    ],
    'ETIMEDOUT',
  ],
  [['ENETUNREACH', 'ENETDOWN', 'EHOSTDOWN'], 'EHOSTUNREACH'],
  [['EAI_NONAME', 'EAI_NODATA', 'EAI_FAIL'], 'ENOTFOUND'],
  [['CERT_UNTRUSTED'], 'SELF_SIGNED_CERT_IN_CHAIN'],
  [['UNABLE_TO_GET_ISSUER_CERT'], 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY'],
  [['HOSTNAME_MISMATCH'], 'ERR_TLS_CERT_ALTNAME_INVALID'],
  [['no_prometheus_url'], 'prometheus_url_missing'],
  [['body_too_large'], 'json_body_too_large'],
];

const allSpecCodes = Object.values(SPEC_CODES).flat();
const allLegacyCodes = SPEC_LEGACY.flatMap(([older]) => older);

describe('reason code catalog', () => {
  it.each(Object.entries(SPEC_CODES))('holds every %s code of the spec', (_group, codes) => {
    for (const code of codes) expect({ code, known: isReasonCode(code) }).toEqual({ code, known: true });
  });

  it('holds exactly the codes of the spec, each once', () => {
    expect(new Set(allSpecCodes).size).toBe(allSpecCodes.length);
    expect(Object.keys(REASON_CODES).sort()).toEqual([...allSpecCodes].sort());
  });

  it.each(Object.entries(REASON_CODES))('gives %s a non-empty label and hint', (_code, { label, hint }) => {
    expect(label.trim()).not.toBe('');
    expect(hint.trim()).not.toBe('');
    expect(hint).not.toBe(label);
  });

  it('uses the spec meaning as the label', () => {
    expect(REASON_CODES.ECONNREFUSED.label).toBe('TCP connection refused');
    expect(REASON_CODES.connect_failed.label).toBe('Could not open a connection');
    expect(REASON_CODES.mtls_weak_key.label).toBe('RSA key under 2048 bits rejected');
  });

  it('gives practical hints where the fix is not obvious', () => {
    expect(REASON_CODES.DEPTH_ZERO_SELF_SIGNED_CERT.hint).toContain('ca_cert_ref');
    expect(REASON_CODES.DEPTH_ZERO_SELF_SIGNED_CERT.hint).toMatch(/TLS verification off/);
    expect(REASON_CODES.mtls_ref_missing.hint).toMatch(/NAME of an environment variable, not the certificate content/);
    expect(REASON_CODES.otlp_receiver_disabled.hint).toContain('<SERVICE>_OTLP_DISABLE');
    expect(REASON_CODES.prometheus_url_missing.hint).toContain('PROMETHEUS_SERVER_URL');
    expect(REASON_CODES.json_body_too_large.hint).toContain('10 MB');
    expect(REASON_CODES.body_mismatch.hint).toContain('4 KB');
  });

  it('treats codes as case-sensitive', () => {
    expect(isReasonCode('ECONNREFUSED')).toBe(true);
    expect(isReasonCode('econnrefused')).toBe(false);
    expect(isReasonCode('Unauthorized')).toBe(true);
    expect(isReasonCode('unauthorized')).toBe(false);
    expect(normalizeReason('econnrefused')).toBe('unknown');
  });

  it('does not take object prototype names for codes', () => {
    for (const name of ['constructor', 'toString', 'hasOwnProperty', '__proto__']) {
      expect(isReasonCode(name)).toBe(false);
      expect(normalizeReason(name)).toBe('unknown');
    }
  });
});

describe('codes from older agents', () => {
  it.each(SPEC_LEGACY.flatMap(([older, current]) => older.map((o) => [o, current] as const)))(
    'shows %s as %s',
    (older, current) => {
      expect(normalizeReason(older)).toBe(current);
      expect(describeReason(older)).toEqual({
        reason: current,
        reason_label: REASON_CODES[current as keyof typeof REASON_CODES].label,
        reason_hint: REASON_CODES[current as keyof typeof REASON_CODES].hint,
      });
    },
  );

  it('maps exactly the older codes of the spec, none of which is a current code', () => {
    expect(Object.keys(LEGACY_REASON_CODES).sort()).toEqual([...allLegacyCodes].sort());
    for (const older of allLegacyCodes) expect(isReasonCode(older)).toBe(false);
  });

  it('shows ConnectionRefused as a refusal whose hint also points at the hostname', () => {
    const d = describeReason('ConnectionRefused');
    expect(d.reason).toBe('ECONNREFUSED');
    expect(d.reason_hint).toMatch(/hostname/);
  });

  it('shows any ERR_TLS_* or ERR_SSL_* code as tls_handshake_failed', () => {
    for (const code of [
      'ERR_TLS_HANDSHAKE_TIMEOUT',
      'ERR_TLS_INVALID_PROTOCOL_VERSION',
      'ERR_SSL_WRONG_VERSION_NUMBER',
      'ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE',
      'ERR_TLS_',
      'ERR_SSL_',
    ]) {
      expect(normalizeReason(code)).toBe('tls_handshake_failed');
    }
    expect(describeReason('ERR_SSL_WRONG_VERSION_NUMBER').reason_label).toBe(REASON_CODES.tls_handshake_failed.label);
  });

  it('keeps an exact current code that starts with ERR_TLS_', () => {
    expect(normalizeReason('ERR_TLS_CERT_ALTNAME_INVALID')).toBe('ERR_TLS_CERT_ALTNAME_INVALID');
  });

  it('applies the prefix rule case-sensitively', () => {
    expect(normalizeReason('err_tls_handshake_timeout')).toBe('unknown');
    expect(normalizeReason('ERR_TLSX')).toBe('unknown');
  });
});

describe('current codes', () => {
  it.each(allSpecCodes)('leaves %s unchanged and describes it from the catalog', (code) => {
    expect(normalizeReason(code)).toBe(code);
    const entry = REASON_CODES[code as keyof typeof REASON_CODES];
    expect(describeReason(code)).toEqual({ reason: code, reason_label: entry.label, reason_hint: entry.hint });
  });
});

describe('codes with a variable part', () => {
  it('describes unexpected_status:<status> with the status', () => {
    const d = describeReason('unexpected_status:503');
    expect(d.reason).toBe('unexpected_status:503');
    expect(d.reason_label).toBe('Unexpected HTTP status 503');
    expect(d.reason_hint).toContain('503');
    expect(d.reason_hint).toContain('expected_status');
  });

  it('describes target_not_public:<reason> with the block', () => {
    const d = describeReason('target_not_public:loopback');
    expect(d.reason).toBe('target_not_public:loopback');
    expect(d.reason_label).toContain('loopback');
    expect(d.reason_hint).toContain('loopback');
    expect(describeReason('target_not_public:cloud_metadata').reason_label).toContain('cloud_metadata');
  });

  it('describes refused:<problem> with the problem', () => {
    const d = describeReason('refused:host_internal');
    expect(d.reason).toBe('refused:host_internal');
    expect(d.reason_label).toContain('host_internal');
    expect(d.reason_hint).toContain('host_internal');
  });

  it('leaves them unchanged, and they are not catalog codes', () => {
    for (const code of ['unexpected_status:503', 'target_not_public:private', 'refused:host_not_public']) {
      expect(normalizeReason(code)).toBe(code);
      expect(isReasonCode(code)).toBe(false);
    }
  });

  it('keeps everything after the first colon as the variable part', () => {
    expect(describeReason('refused:invalid_resolver:8.8.8.8').reason_label).toContain('invalid_resolver:8.8.8.8');
  });

  it('treats an empty variable part, an unknown prefix or a wrong case as unknown', () => {
    for (const code of [
      'unexpected_status:',
      'target_not_public:',
      'refused:',
      'unexpected_status',
      ':503',
      'teapot:418',
      'Unexpected_Status:503',
    ]) {
      expect(normalizeReason(code)).toBe('unknown');
    }
  });
});

describe('unknown codes and null', () => {
  it('shows an unknown code as unknown', () => {
    expect(normalizeReason('ESOMETHINGNEW')).toBe('unknown');
    expect(describeReason('ESOMETHINGNEW')).toEqual({
      reason: 'unknown',
      reason_label: REASON_CODES.unknown.label,
      reason_hint: REASON_CODES.unknown.hint,
    });
  });

  it('shows an empty or padded code as unknown', () => {
    expect(normalizeReason('')).toBe('unknown');
    expect(normalizeReason(' ECONNREFUSED')).toBe('unknown');
  });

  it('answers all null for no reason (a success)', () => {
    expect(describeReason(null)).toEqual({ reason: null, reason_label: null, reason_hint: null });
  });
});
