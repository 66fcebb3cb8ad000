import {
  ALL_SOURCE_TYPES,
  ENV_REF_MESSAGE,
  TESTABLE_SOURCE_TYPES,
  UNTESTABLE_SOURCE_TYPES,
  isTestableSourceType,
  sourceConfigSchema,
  validateSourceConfig,
  type TestableSourceType,
} from '../../src/domain/source-config';

const VALID: Record<TestableSourceType, Record<string, unknown>> = {
  prometheus: { query: 'sum(rate(http_requests_total{code=~"5.."}[5m]))' },
  http: {
    url: 'https://api.example.com/health',
    method: 'GET',
    headers: { Accept: 'application/json' },
    header_refs: { 'X-Api-Key': 'API_TOKEN' },
    json_path: '$.queue.depth',
    expected_status: [200, 204],
    timeout_ms: 5000,
    follow_redirects: false,
    tls_verify: true,
  },
  tcp: { host: 'db.internal', port: 5432, timeout_ms: 2000 },
  dns: { name: 'example.com', record_type: 'MX', resolver: '192.0.2.53:5353', expected_value: 'mail.example.com' },
  icmp: { host: '192.0.2.10', count: 5, interpretation: 'packet_loss' },
  tls_cert: { host: 'example.com', servername: 'www.example.com' },
  grpc: {
    target: 'orders.internal:50051',
    service: 'orders.v1.Orders',
    tls: true,
    ca_cert_ref: 'GRPC_CA',
    metadata_refs: { authorization: 'GRPC_TOKEN' },
  },
  websocket: {
    url: 'wss://ws.example.com/feed',
    send: 'ping',
    expect: 'pong',
    header_refs: { Authorization: 'WS_TOKEN' },
    interpretation: 'round_trip_latency',
  },
  mtls_http: {
    url: 'https://partner.example.com/ping',
    client_cert_ref: 'CLIENT_CERT',
    client_key_ref: 'CLIENT_KEY',
    ca_cert_ref: 'PARTNER_CA',
    expected_status: 200,
  },
  database: {
    engine: 'postgresql',
    connection_string_ref: 'ORDERS_DSN',
    query: 'SELECT count(*) FROM orders',
    statement_timeout_ms: 30_000,
  },
  cloudwatch: {
    namespace: 'AWS/EC2',
    metric_name: 'CPUUtilization',
    dimensions: { InstanceId: 'i-0abc' },
    statistic: 'p99',
    period_seconds: 300,
    region: 'eu-west-1',
  },
  loki: { query: 'sum(count_over_time({app="api"} |= "error" [5m]))', url_ref: 'LOKI_URL', auth_ref: 'LOKI_AUTH' },
  elasticsearch: {
    url: 'https://es.internal:9200',
    index: 'logs-*',
    query: { size: 0, aggs: { errors: { value_count: { field: 'id' } } } },
    aggregation: 'errors',
    auth_ref: 'ES_AUTH',
  },
  host: { metric: 'filesystem', mountpoint: '/var/lib/postgresql' },
};

/** The errors of a config that must fail, as `path → message`. */
function errorsOf(type: string, config: unknown): Record<string, string> {
  const r = validateSourceConfig(type, config);
  if (r.ok) throw new Error(`expected ${type} ${JSON.stringify(config)} to fail`);
  return Object.fromEntries(r.errors.map((e) => [e.path, e.message]));
}

describe('source types (spec §2.2)', () => {
  it('lists the fourteen testable and five untestable types', () => {
    expect(TESTABLE_SOURCE_TYPES).toHaveLength(14);
    expect(UNTESTABLE_SOURCE_TYPES).toEqual(['custom', 'otlp', 'manual', 'heartbeat', 'alert']);
    expect(new Set(ALL_SOURCE_TYPES).size).toBe(19);
    expect(isTestableSourceType('http')).toBe(true);
    expect(isTestableSourceType('heartbeat')).toBe(false);
  });

  it('refuses an unknown source_type on the source_type path', () => {
    expect(errorsOf('ftp', {})).toEqual({ source_type: 'Unknown source_type: ftp' });
  });

  it('asks only for an object for the untestable types', () => {
    expect(validateSourceConfig('manual', { anything: 1 })).toEqual({ ok: true, config: { anything: 1 } });
    expect(errorsOf('heartbeat', [])).toEqual({ source_config: 'Expected an object' });
  });
});

describe('source_config', () => {
  it.each(TESTABLE_SOURCE_TYPES)('accepts a valid %s config', (type) => {
    const r = validateSourceConfig(type, VALID[type]);
    expect(r).toMatchObject({ ok: true, config: VALID[type] });
    expect(sourceConfigSchema(type).safeParse(VALID[type]).success).toBe(true);
  });

  it.each(TESTABLE_SOURCE_TYPES)('keeps additional properties of a %s config', (type) => {
    const r = validateSourceConfig(type, { ...VALID[type], x_team: 'payments', labels: { tier: 1 } });
    expect(r.ok && r.config).toMatchObject({ x_team: 'payments', labels: { tier: 1 } });
  });

  it.each(TESTABLE_SOURCE_TYPES)('refuses a %s config that is not an object', (type) => {
    for (const bad of [null, 'https://example.com', [VALID[type]], 42])
      expect(errorsOf(type, bad)).toEqual({ source_config: 'Expected an object' });
    expect(errorsOf(type, undefined)).toEqual({ source_config: 'Required' });
  });

  it('fills in the defaults the spec names', () => {
    const parse = (type: TestableSourceType, c: Record<string, unknown>) => {
      const r = validateSourceConfig(type, c);
      if (!r.ok) throw new Error(JSON.stringify(r.errors));
      return r.config;
    };
    expect(parse('host', {})).toEqual({ metric: 'cpu' });
    expect(parse('icmp', { host: 'example.com' })).toMatchObject({ interpretation: 'latency' });
    expect(parse('grpc', { target: '10.0.0.5:50051' })).toMatchObject({ interpretation: 'health_state' });
    expect(parse('websocket', { url: 'ws://ws.internal' })).toMatchObject({ interpretation: 'handshake_latency' });
    expect(parse('tls_cert', { host: 'example.com' })).toMatchObject({ port: 443 });
  });
});

describe('http and mtls_http rules', () => {
  it('needs a url', () => {
    expect(errorsOf('http', {})).toEqual({ 'source_config.url': 'Required' });
    expect(errorsOf('mtls_http', { method: 'GET' })).toEqual({ 'source_config.url': 'Required' });
  });

  it.each(['ftp://files.example.com/x', 'file:///etc/passwd', 'ws://example.com', 'example.com/health', 'https://'])(
    'refuses url %s',
    (url) => {
      expect(errorsOf('http', { url })).toEqual({ 'source_config.url': 'Must be an http or https URL' });
    },
  );

  it('refuses credentials in the URL', () => {
    expect(Object.keys(errorsOf('http', { url: 'https://user:secret@example.com/' }))).toEqual(['source_config.url']);
  });

  it('refuses a secret value where an environment-variable name belongs', () => {
    expect(
      errorsOf('http', { url: 'https://example.com', header_refs: { Authorization: 'Bearer eyJhbGciOi' } }),
    ).toEqual({
      'source_config.header_refs.Authorization': ENV_REF_MESSAGE,
    });
    for (const value of ['sk_live_abc', 'api_token', '1TOKEN', 'MY-TOKEN', '']) {
      expect(errorsOf('mtls_http', { url: 'https://example.com', ca_cert_ref: value })).toEqual({
        'source_config.ca_cert_ref': ENV_REF_MESSAGE,
      });
    }
    expect(ENV_REF_MESSAGE).toBe('Name an environment variable (e.g. API_TOKEN), not its value');
  });

  it('keeps secret headers out of plain headers', () => {
    expect(errorsOf('http', { url: 'https://example.com', headers: { authorization: 'Bearer x' } })).toHaveProperty([
      'source_config.headers.authorization',
    ]);
    expect(
      errorsOf('http', { url: 'https://example.com', headers: { 'X-Key': 'a' }, header_refs: { 'x-key': 'KEY' } }),
    ).toHaveProperty(['source_config.headers.X-Key']);
    expect(errorsOf('http', { url: 'https://example.com', headers: { 'X-Trace': 'a\r\nInjected: 1' } })).toHaveProperty(
      ['source_config.headers.X-Trace'],
    );
    expect(errorsOf('http', { url: 'https://example.com', headers: { 'Bad Name': 'a' } })).toHaveProperty([
      'source_config.headers.Bad Name',
    ]);
  });

  it.each(['http', 'mtls_http'])('%s: a client certificate without its key fails on both fields', (type) => {
    const message = 'Set client_cert_ref and client_key_ref together';
    const both = { 'source_config.client_cert_ref': message, 'source_config.client_key_ref': message };
    expect(errorsOf(type, { url: 'https://example.com', client_cert_ref: 'CLIENT_CERT' })).toEqual(both);
    expect(errorsOf(type, { url: 'https://example.com', client_key_ref: 'CLIENT_KEY' })).toEqual(both);
  });

  it('lists every problem at once, field and cross-field', () => {
    expect(
      Object.keys(errorsOf('mtls_http', { url: 'ftp://x', client_cert_ref: 'cert-pem', timeout_ms: 0 })).sort(),
    ).toEqual([
      'source_config.client_cert_ref',
      'source_config.client_key_ref',
      'source_config.timeout_ms',
      'source_config.url',
    ]);
  });

  it('checks expected_status, timeout_ms, method and json_path', () => {
    expect(errorsOf('http', { url: 'https://e.com', expected_status: [200, 600] })).toEqual({
      'source_config.expected_status.1': 'Expected an HTTP status, an integer 100..599',
    });
    expect(errorsOf('http', { url: 'https://e.com', expected_status: 99 })).toHaveProperty([
      'source_config.expected_status',
    ]);
    expect(errorsOf('http', { url: 'https://e.com', expected_status: '200' })).toHaveProperty([
      'source_config.expected_status',
    ]);
    expect(errorsOf('http', { url: 'https://e.com', expected_status: [] })).toHaveProperty([
      'source_config.expected_status',
    ]);
    expect(errorsOf('http', { url: 'https://e.com', expected_status: 200.5 })).toHaveProperty([
      'source_config.expected_status',
    ]);
    expect(errorsOf('http', { url: 'https://e.com', timeout_ms: 30_001 })).toHaveProperty(['source_config.timeout_ms']);
    expect(errorsOf('http', { url: 'https://e.com', method: 'DELETE' })).toEqual({
      'source_config.method': 'Expected one of GET, HEAD, POST',
    });
    expect(errorsOf('http', { url: 'https://e.com', json_path: 'queue.depth' })).toHaveProperty([
      'source_config.json_path',
    ]);
    expect(errorsOf('http', { url: 'https://e.com', json_path: null })).toHaveProperty(['source_config.json_path']);
    expect(errorsOf('http', { url: 'https://e.com', method: 'HEAD', body_match: 'ok' })).toHaveProperty([
      'source_config.body_match',
    ]);
    expect(errorsOf('http', { url: 'https://e.com', body: '{}' })).toHaveProperty(['source_config.body']);
    expect(errorsOf('http', { url: 'https://e.com', body_match: 'x'.repeat(4097) })).toHaveProperty([
      'source_config.body_match',
    ]);
    expect(
      validateSourceConfig('http', { url: 'https://e.com', method: 'POST', body: '{}', expected_status: 201 }).ok,
    ).toBe(true);
  });

  it('needs https for a client certificate', () => {
    expect(errorsOf('mtls_http', { url: 'http://e.com', client_cert_ref: 'C', client_key_ref: 'K' })).toEqual({
      'source_config.url': 'A client certificate needs an https URL',
    });
  });

  it.each(['http', 'mtls_http'])(
    '%s: unit names the unit of the number at json_path (up to 16 characters, with json_path only)',
    (type) => {
      const url = 'https://e.com';
      expect(validateSourceConfig(type, { url, json_path: '$.queue.depth', unit: 'jobs' })).toEqual({
        ok: true,
        config: { url, json_path: '$.queue.depth', unit: 'jobs' },
      });
      expect(validateSourceConfig(type, { url, json_path: '$.rate', unit: 'B/s' }).ok).toBe(true);
      expect(validateSourceConfig(type, { url, json_path: '$.temp', unit: '°C' }).ok).toBe(true);
      expect(errorsOf(type, { url, json_path: '$.n', unit: 'x'.repeat(17) })).toEqual({
        'source_config.unit': 'At most 16 characters',
      });
      for (const bad of ['', '  ', 'ms\n', 'a\tb', 5, null, ['ms']])
        expect(Object.keys(errorsOf(type, { url, json_path: '$.n', unit: bad }))).toEqual(['source_config.unit']);
      expect(errorsOf(type, { url, unit: 's' })).toEqual({
        'source_config.unit': 'unit names the unit of the number at json_path; the response time is always ms',
      });
    },
  );
});

describe('rules of the other source types', () => {
  it('database: env-var name, non-empty query, statement_timeout_ms at most 30 s', () => {
    const base = VALID.database;
    expect(errorsOf('database', { ...base, statement_timeout_ms: 30_001 })).toEqual({
      'source_config.statement_timeout_ms': 'Expected milliseconds (at most 30 s), an integer 1..30000',
    });
    expect(errorsOf('database', { ...base, statement_timeout_ms: 1.5 })).toHaveProperty([
      'source_config.statement_timeout_ms',
    ]);
    expect(errorsOf('database', { ...base, connection_string_ref: 'postgres://app:secret@db/orders' })).toEqual({
      'source_config.connection_string_ref': ENV_REF_MESSAGE,
    });
    expect(errorsOf('database', { ...base, query: '   ' })).toEqual({ 'source_config.query': 'Must not be empty' });
    expect(errorsOf('database', { ...base, engine: 'oracle' })).toHaveProperty(['source_config.engine']);
    expect(errorsOf('database', {})).toEqual({
      'source_config.engine': 'Required',
      'source_config.connection_string_ref': 'Required',
      'source_config.query': 'Required',
    });
    // The read-only check is the probe's: a write statement passes here.
    expect(validateSourceConfig('database', { ...base, query: 'DELETE FROM orders' }).ok).toBe(true);
  });

  it('host: filesystem needs a mountpoint; unknown metric fails', () => {
    expect(errorsOf('host', { metric: 'filesystem' })).toEqual({
      'source_config.mountpoint': 'Required when metric is filesystem',
    });
    expect(errorsOf('host', { metric: 'gpu' })).toEqual({
      'source_config.metric': 'Expected one of cpu, memory, filesystem, network, load',
    });
    expect(errorsOf('host', { metric: 'filesystem', mountpoint: 'var/lib' })).toHaveProperty([
      'source_config.mountpoint',
    ]);
    expect(validateSourceConfig('host', { metric: 'filesystem', mountpoint: 'C:\\' }).ok).toBe(true);
  });

  it.each([
    ['icmp', { host: 'example.com', interpretation: 'jitter' }, 'latency, packet_loss, reachability'],
    ['grpc', { target: 'a:1', interpretation: 'serving' }, 'health_state, latency'],
    [
      'websocket',
      { url: 'wss://e.com', interpretation: 'latency' },
      'handshake_latency, round_trip_latency, connection_success',
    ],
  ])('%s: refuses an unknown interpretation', (type, config, allowed) => {
    expect(errorsOf(type, config)).toEqual({ 'source_config.interpretation': `Expected one of ${allowed}` });
  });

  it('tcp, icmp, tls_cert: host without scheme or port, port 1..65535, count 1..10', () => {
    expect(errorsOf('tcp', { host: 'db.internal' })).toEqual({ 'source_config.port': 'Required' });
    expect(errorsOf('tcp', { host: 'https://db.internal', port: 65_536 })).toEqual({
      'source_config.host': 'Expected a hostname or IP address (no scheme, no port)',
      'source_config.port': 'Expected a port, an integer 1..65535',
    });
    expect(validateSourceConfig('tcp', { host: '2001:db8::1', port: 22 }).ok).toBe(true);
    expect(errorsOf('icmp', { host: 'example.com', count: 11 })).toHaveProperty(['source_config.count']);
    expect(errorsOf('tls_cert', { host: 'example.com', port: 0 })).toHaveProperty(['source_config.port']);
  });

  it('dns: names may carry underscores; resolver is an IP with an optional port', () => {
    expect(
      validateSourceConfig('dns', { name: '_sip._tcp.example.com', record_type: 'SRV', resolver: '[2001:db8::53]:53' })
        .ok,
    ).toBe(true);
    expect(errorsOf('dns', { name: 'example.com', record_type: 'PTR' })).toHaveProperty(['source_config.record_type']);
    expect(errorsOf('dns', { name: 'example.com', resolver: 'dns.google' })).toHaveProperty(['source_config.resolver']);
    expect(errorsOf('dns', { name: 'example.com', resolver: '192.0.2.53:70000' })).toHaveProperty([
      'source_config.resolver',
    ]);
    expect(errorsOf('dns', { name: 'bad name' })).toHaveProperty(['source_config.name']);
  });

  it('grpc: target host:port, metadata_refs hold names, ca_cert_ref needs TLS', () => {
    expect(errorsOf('grpc', { target: 'orders.internal' })).toHaveProperty(['source_config.target']);
    expect(errorsOf('grpc', { target: 'a:1', metadata_refs: { authorization: 'Bearer abc' } })).toEqual({
      'source_config.metadata_refs.authorization': ENV_REF_MESSAGE,
    });
    expect(errorsOf('grpc', { target: 'a:1', metadata_refs: { 'grpc-timeout': 'T' } })).toHaveProperty([
      'source_config.metadata_refs.grpc-timeout',
    ]);
    expect(errorsOf('grpc', { target: 'a:1', tls: false, ca_cert_ref: 'CA' })).toEqual({
      'source_config.ca_cert_ref': 'ca_cert_ref needs tls: true',
    });
    expect(validateSourceConfig('grpc', { target: '[2001:db8::1]:50051' }).ok).toBe(true);
  });

  it('websocket: ws/wss only; round_trip_latency needs send', () => {
    expect(errorsOf('websocket', { url: 'https://e.com' })).toEqual({ 'source_config.url': 'Must be a ws or wss URL' });
    expect(errorsOf('websocket', { url: 'wss://e.com', interpretation: 'round_trip_latency' })).toEqual({
      'source_config.send': 'round_trip_latency needs a message to send',
    });
    expect(errorsOf('websocket', { url: 'wss://e.com', header_refs: { Authorization: 'xyz-123' } })).toEqual({
      'source_config.header_refs.Authorization': ENV_REF_MESSAGE,
    });
  });

  it('prometheus, loki, elasticsearch: query and url rules', () => {
    expect(errorsOf('prometheus', {})).toEqual({ 'source_config.query': 'Required' });
    expect(errorsOf('prometheus', { query: 'up', server_url: 'prometheus:9090' })).toHaveProperty([
      'source_config.server_url',
    ]);
    expect(errorsOf('loki', { query: 'x' })).toEqual({ 'source_config.url': 'Set url or url_ref' });
    expect(errorsOf('loki', { query: 'x', url: 'http://loki:3100', url_ref: 'LOKI_URL' })).toEqual({
      'source_config.url_ref': 'Set url or url_ref, not both',
    });
    expect(errorsOf('loki', { query: 'x', url: 'http://loki:3100', auth_ref: 'Basic dXNlcg==' })).toEqual({
      'source_config.auth_ref': ENV_REF_MESSAGE,
    });
    expect(errorsOf('elasticsearch', { ...VALID.elasticsearch, query: 'status:500' })).toHaveProperty([
      'source_config.query',
    ]);
    expect(errorsOf('elasticsearch', { url: 'https://es:9200' })).toEqual({
      'source_config.index': 'Required',
      'source_config.query': 'Required',
      'source_config.aggregation': 'Required',
    });
  });

  it('cloudwatch: statistic, period and region', () => {
    const base = VALID.cloudwatch;
    for (const statistic of ['Average', 'SampleCount', 'p50', 'p99.9', 'p100'])
      expect(validateSourceConfig('cloudwatch', { ...base, statistic }).ok).toBe(true);
    for (const statistic of ['Mean', 'p', 'p101', 'tm99'])
      expect(errorsOf('cloudwatch', { ...base, statistic })).toHaveProperty(['source_config.statistic']);
    expect(errorsOf('cloudwatch', { ...base, period_seconds: 90 })).toEqual({
      'source_config.period_seconds': 'Expected 1, 5, 10, 30 or a multiple of 60',
    });
    expect(errorsOf('cloudwatch', { ...base, region: 'Europe' })).toHaveProperty(['source_config.region']);
    const tooMany = Object.fromEntries(Array.from({ length: 31 }, (_, i) => [`D${i}`, 'v']));
    expect(errorsOf('cloudwatch', { ...base, dimensions: tooMany })).toEqual({
      'source_config.dimensions': 'At most 30 dimensions',
    });
  });
});
