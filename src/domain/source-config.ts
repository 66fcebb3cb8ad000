/**
 * `source_config` per source_type (spec §2.2, §4.1): one set of rules for the probe test and for
 * metric writes. Objects are loose (unknown properties pass through untouched, as the spec allows);
 * every known field is checked strictly (no nulls, no coercion). Shapes, where the spec is silent:
 *
 * - http / mtls_http (deprecated alias of http: same schema): url (http/https, no user:pass@),
 *   method GET|HEAD|POST, headers (plain, non-secret: Authorization, Proxy-Authorization and Cookie
 *   must go through header_refs), header_refs, body (POST only), body_match (≤ 4096 chars, the part
 *   of the body that is read), json_path (starts with `$`), unit (of the number at json_path, ≤ 16
 *   printable characters, with json_path only), expected_status (100..599 or a list),
 *   timeout_ms, follow_redirects, tls_verify, ca_cert_ref, client_cert_ref + client_key_ref (set
 *   together, https only). HEAD has no body, so body_match/json_path are refused with it.
 * - tcp {host, port, timeout_ms}; dns {name, record_type, resolver ip or ip:port/[ipv6]:port,
 *   expected_value, timeout_ms}; icmp {host, count 1..10, interpretation, timeout_ms};
 *   tls_cert {host, port = 443, servername, timeout_ms}.
 * - grpc {target host:port or [ipv6]:port, service, tls, ca_cert_ref (refused with tls: false),
 *   metadata_refs (key → variable name; keys
 *   are sent lowercased, grpc- is reserved), interpretation, timeout_ms}.
 * - websocket {url ws/wss, headers, header_refs, send, expect, interpretation (round_trip_latency
 *   needs send), timeout_ms}.
 * - database {engine postgresql|mysql, connection_string_ref, query (non-empty; the read-only
 *   parser check is the probe's), statement_timeout_ms 1..30000}.
 * - prometheus {query, server_url (else the agent's PROMETHEUS_SERVER_URL)}; loki {query, exactly
 *   one of url / url_ref, auth_ref, timeout_ms}; elasticsearch {url, index, query (search body
 *   object), aggregation (name), auth_ref, timeout_ms}.
 * - cloudwatch {namespace, metric_name, dimensions (name → value, ≤ 30), statistic
 *   Average|Sum|Minimum|Maximum|SampleCount|pNN(.NN), period_seconds (1, 5, 10, 30 or a multiple
 *   of 60, ≤ 86400), region (else the agent's AWS configuration)}.
 * - host {metric = cpu, mountpoint (absolute; required for filesystem), interface}.
 * - custom, otlp, manual, heartbeat, alert cannot be tested; their schema only asks for an object.
 *   Which type is which (testable, cloud, push, thresholds, value semantics): ./source-types.
 *
 * Defaults are filled in only where the spec names one (interpretation, host metric) and for the
 * tls_cert port; every other default belongs to the probe and is documented in `.describe()`.
 * Secrets never sit in config: `*_ref`, header_refs and metadata_refs values are environment-variable
 * NAMES resolved on the agent host.
 */
import { z } from 'zod';
import { type SourceType, isSourceType } from './source-types';

// The lists, types and guards of source types live in the one table of ./source-types.
export {
  ALL_SOURCE_TYPES,
  TESTABLE_SOURCE_TYPES,
  UNTESTABLE_SOURCE_TYPES,
  type SourceType,
  type TestableSourceType,
  type UntestableSourceType,
  isSourceType,
  isTestableSourceType,
} from './source-types';

export const ENV_VAR_NAME = /^[A-Z_][A-Z0-9_]*$/;
export const ENV_REF_MESSAGE = 'Name an environment variable (e.g. API_TOKEN), not its value';

/** Error text for a field: 'Required' when absent, else `message`. */
const msg = (message: string) => (iss: { input?: unknown }) => (iss.input === undefined ? 'Required' : message);

const { ipv4, ipv6, hostname } = z.regexes;
const isHost = (s: string) => ipv4.test(s) || ipv6.test(s) || hostname.test(s);
const PORT_RE = '([1-9][0-9]{0,4})';
const withPort = (s: string): { host: string; port: number } | null => {
  const m = new RegExp(`^(?:\\[([^\\]]+)\\]|([^:\\[\\]]+)):${PORT_RE}$`).exec(s);
  if (!m) return null;
  return { host: (m[1] ?? m[2])!, port: Number(m[3]) };
};
const safeUrl = (s: string): URL | null => {
  try {
    return new URL(s);
  } catch {
    return null;
  }
};

const EnvRef = z
  .string({ error: msg(ENV_REF_MESSAGE) })
  .max(128, 'At most 128 characters')
  .regex(ENV_VAR_NAME, ENV_REF_MESSAGE)
  .describe('Environment-variable NAME on the agent host, e.g. API_TOKEN; never the secret itself');
const Text = (max: number, what = 'text') =>
  z
    .string({ error: msg(`Expected ${what}`) })
    .max(max, `At most ${max} characters`)
    .refine((s) => s.trim() !== '', 'Must not be empty');
const Int = (min: number, max: number, what: string) =>
  z
    .int({ error: msg(`Expected ${what}, an integer ${min}..${max}`) })
    .min(min, `Expected ${what}, an integer ${min}..${max}`)
    .max(max, `Expected ${what}, an integer ${min}..${max}`);
const Bool = z.boolean({ error: msg('Expected true or false') });
const Enum = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: msg(`Expected one of ${values.join(', ')}`) });

const TimeoutMs = Int(1, 30_000, 'milliseconds').describe('Probe timeout in ms, at most 30000; default 10000');
const Port = Int(1, 65_535, 'a port');
const Host = z
  .string({ error: msg('Expected a hostname or IP address') })
  .max(253, 'At most 253 characters')
  .refine(isHost, 'Expected a hostname or IP address (no scheme, no port)');
const Url = (protocols: readonly string[]) => {
  const what = `a ${protocols.join(' or ')} URL`.replace(/^a (?=h)/, 'an ');
  return z
    .url({ protocol: new RegExp(`^(${protocols.join('|')})$`), error: msg(`Must be ${what}`) })
    .max(2048, 'At most 2048 characters')
    .refine(
      (s) => !safeUrl(s)?.username && !safeUrl(s)?.password,
      'Credentials do not belong in the URL: name an environment variable in a *_ref field',
    );
};
const HttpUrl = Url(['http', 'https']);

const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const HeaderName = z.string().max(256, 'At most 256 characters').regex(HEADER_NAME, 'Expected an HTTP header name');
const HeaderValue = z
  .string({ error: msg('Expected a header value') })
  .max(8192, 'At most 8192 characters')
  .regex(/^[^\x00-\x08\x0a-\x1f\x7f]*$/, 'No line breaks or control characters');
const SECRET_HEADERS = ['authorization', 'proxy-authorization', 'cookie'];
const Headers = z
  .record(HeaderName, HeaderValue, { error: msg('Expected an object of header name → value') })
  .describe('Plain, non-secret request headers');
const HeaderRefs = z
  .record(HeaderName, EnvRef, { error: msg('Expected an object of header name → environment-variable name') })
  .describe('Secret headers: header name → environment-variable NAME on the agent (not sent by cloud checks)');
const MetadataKey = z
  .string()
  .regex(/^[0-9A-Za-z_.-]{1,256}$/, 'Expected a gRPC metadata key (letters, digits, _ . -; sent lowercased)')
  .refine((k) => !k.toLowerCase().startsWith('grpc-'), 'grpc- metadata keys are reserved');
const HttpStatus = Int(100, 599, 'an HTTP status');
const ExpectedStatus = z
  .union([HttpStatus, z.array(HttpStatus).min(1, 'List at least one status').max(100, 'At most 100 statuses')], {
    error: msg('Expected an HTTP status (100..599) or a list of them'),
  })
  .describe('Accepted response status(es); default any 2xx (a redirect not followed is unexpected_status:3xx)');

type Add = (path: (string | number)[], message: string) => void;
type Rule = (v: Record<string, unknown>, add: Add) => void;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A loose object whose cross-field rules run even when a field failed, so every problem is listed at once. */
function config<S extends z.core.$ZodLooseShape>(id: string, description: string, shape: S, ...rules: Rule[]) {
  return z
    .looseObject(shape, { error: msg('Expected an object') })
    .superRefine(
      (v, ctx) => {
        const add: Add = (path, message) => ctx.addIssue({ code: 'custom', path, message });
        for (const rule of rules) rule(v, add);
      },
      { when: (payload) => isObject(payload.value) },
    )
    .meta({ id, description });
}

const headerRules: Rule = (v, add) => {
  const plain = isObject(v.headers) ? Object.keys(v.headers) : [];
  const refs = new Set(isObject(v.header_refs) ? Object.keys(v.header_refs).map((k) => k.toLowerCase()) : []);
  for (const name of plain) {
    if (SECRET_HEADERS.includes(name.toLowerCase()))
      add(['headers', name], `${name} is a secret header: put it in header_refs as an environment-variable name`);
    else if (refs.has(name.toLowerCase()))
      add(['headers', name], `${name} is also in header_refs: set each header once`);
  }
};

const httpRules: Rule = (v, add) => {
  headerRules(v, add);
  if ((v.client_cert_ref === undefined) !== (v.client_key_ref === undefined)) {
    for (const f of ['client_cert_ref', 'client_key_ref']) add([f], 'Set client_cert_ref and client_key_ref together');
  }
  if (v.client_cert_ref !== undefined && typeof v.url === 'string' && v.url.toLowerCase().startsWith('http:')) {
    add(['url'], 'A client certificate needs an https URL');
  }
  if (v.method === 'HEAD') {
    for (const f of ['body_match', 'json_path'])
      if (v[f] !== undefined) add([f], 'HEAD responses have no body: use GET or POST');
  }
  if (v.body !== undefined && v.method !== 'POST') add(['body'], 'A body is sent with method POST only');
  if (v.unit !== undefined && v.json_path === undefined)
    add(['unit'], 'unit names the unit of the number at json_path; the response time is always ms');
};

const HttpSourceConfig = config(
  'HttpSourceConfig',
  'HTTP check: value is the response time in ms, or the number at json_path. mtls_http is a deprecated alias with the same fields.',
  {
    url: HttpUrl.describe('Target (http or https)'),
    method: Enum(['GET', 'HEAD', 'POST']).optional().describe('Default GET'),
    headers: Headers.optional(),
    header_refs: HeaderRefs.optional(),
    body: z
      .string({ error: msg('Expected text') })
      .max(65_536, 'At most 65536 characters')
      .optional()
      .describe('Request body, POST only'),
    body_match: Text(4096, 'text to find')
      .optional()
      .describe('Must occur in the first 4 KB of the body, else reason body_mismatch'),
    json_path: z
      .string({ error: msg('Expected a JSONPath') })
      .max(512, 'At most 512 characters')
      .regex(/^\$/, 'Expected a JSONPath starting with $, e.g. $.queue.depth')
      .optional()
      .describe('Read the value from this JSONPath of the JSON body (booleans read 1/0)'),
    unit: z
      .string({ error: msg('Expected a unit, e.g. ms, %, s, B/s or jobs') })
      .max(16, 'At most 16 characters')
      .regex(/^[^\p{Cc}]*$/u, 'No line breaks or control characters')
      .refine((s) => s.trim() !== '', 'Must not be empty')
      .optional()
      .describe(
        'With json_path: the unit the response gives that number in (ms, %, s, B/s, …), reported as `unit` as is; absent, the value is a bare number (unit null). JSON carries no units, so the config says it',
      ),
    expected_status: ExpectedStatus.optional(),
    timeout_ms: TimeoutMs.optional(),
    follow_redirects: Bool.optional().describe('Default true (http and https only)'),
    tls_verify: Bool.optional().describe('Default true'),
    ca_cert_ref: EnvRef.optional().describe('Variable holding the CA certificate (PEM or a path) to trust'),
    client_cert_ref: EnvRef.optional().describe(
      'mTLS: variable holding the client certificate; set with client_key_ref',
    ),
    client_key_ref: EnvRef.optional().describe(
      'mTLS: variable holding the client key (RSA ≥ 2048 bits, EC); set with client_cert_ref',
    ),
  },
  httpRules,
);

const TcpSourceConfig = config('TcpSourceConfig', 'TCP connect time in ms.', {
  host: Host,
  port: Port,
  timeout_ms: TimeoutMs.optional(),
});

const DNS_NAME =
  /^(?=.{1,253}\.?$)[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?(?:\.[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?)*\.?$/;
const isResolver = (s: string) => {
  if (ipv4.test(s) || ipv6.test(s)) return true;
  const hp = withPort(s);
  return !!hp && hp.port <= 65_535 && (ipv4.test(hp.host) || (ipv6.test(hp.host) && s.startsWith('[')));
};
const DnsSourceConfig = config('DnsSourceConfig', 'DNS resolve time in ms.', {
  name: z
    .string({ error: msg('Expected a DNS name') })
    .regex(DNS_NAME, 'Expected a DNS name, e.g. example.com or _sip._tcp.example.com'),
  record_type: Enum(['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'NS', 'SRV', 'CAA']).optional().describe('Default A'),
  resolver: z
    .string({ error: msg('Expected an IP address') })
    .refine(
      isResolver,
      'Expected an IP address, optionally with a port: 192.0.2.53, 192.0.2.53:5353 or [2001:db8::53]:53',
    )
    .optional()
    .describe("Default: the agent host's resolver"),
  expected_value: Text(1024, 'an expected value')
    .optional()
    .describe('Must be among the answers, else expected_value_mismatch'),
  timeout_ms: TimeoutMs.optional(),
});

const IcmpSourceConfig = config('IcmpSourceConfig', 'Ping: latency (ms), packet_loss (%) or reachability (1/0).', {
  host: Host,
  count: Int(1, 10, 'a ping count').optional().describe('Default 3'),
  interpretation: Enum(['latency', 'packet_loss', 'reachability']).default('latency'),
  timeout_ms: TimeoutMs.optional(),
});

const TlsCertSourceConfig = config('TlsCertSourceConfig', 'Days until the server certificate expires.', {
  host: Host,
  port: Port.default(443),
  servername: z
    .string({ error: msg('Expected a hostname') })
    .regex(hostname, 'Expected a hostname')
    .optional()
    .describe('SNI name; default host'),
  timeout_ms: TimeoutMs.optional(),
});

const GrpcSourceConfig = config(
  'GrpcSourceConfig',
  'gRPC health check: health_state (1 SERVING, 0 NOT_SERVING) or latency (ms).',
  {
    target: z.string({ error: msg('Expected host:port') }).refine((s) => {
      const hp = withPort(s);
      return !!hp && hp.port <= 65_535 && isHost(hp.host);
    }, 'Expected host:port, e.g. api.internal:50051 or [2001:db8::1]:50051'),
    service: z
      .string({ error: msg('Expected a service name') })
      .max(256, 'At most 256 characters')
      .optional()
      .describe('Health service name; default "" (the whole server)'),
    tls: Bool.optional().describe('Default false'),
    ca_cert_ref: EnvRef.optional(),
    metadata_refs: z
      .record(MetadataKey, EnvRef, { error: msg('Expected an object of metadata key → environment-variable name') })
      .optional(),
    interpretation: Enum(['health_state', 'latency']).default('health_state'),
    timeout_ms: TimeoutMs.optional(),
  },
  (v, add) => {
    if (v.ca_cert_ref !== undefined && v.tls === false) add(['ca_cert_ref'], 'ca_cert_ref needs tls: true');
  },
);

const WebsocketSourceConfig = config(
  'WebsocketSourceConfig',
  'WebSocket: handshake_latency (ms), round_trip_latency (ms) or connection_success (1/0).',
  {
    url: Url(['ws', 'wss']),
    headers: Headers.optional(),
    header_refs: HeaderRefs.optional(),
    send: z
      .string({ error: msg('Expected text') })
      .max(65_536, 'At most 65536 characters')
      .optional()
      .describe('Message sent once the socket is open'),
    expect: Text(4096, 'text to find').optional().describe('Must occur in the reply, else ws_reply_mismatch'),
    interpretation: Enum(['handshake_latency', 'round_trip_latency', 'connection_success']).default(
      'handshake_latency',
    ),
    timeout_ms: TimeoutMs.optional(),
  },
  headerRules,
  (v, add) => {
    if (v.interpretation === 'round_trip_latency' && v.send === undefined)
      add(['send'], 'round_trip_latency needs a message to send');
  },
);

const DatabaseSourceConfig = config('DatabaseSourceConfig', 'Scalar of a read-only query (one row, one column).', {
  engine: Enum(['postgresql', 'mysql']),
  connection_string_ref: EnvRef,
  query: Text(10_000, 'a query').describe('A single SELECT or WITH … SELECT returning one row and one column'),
  statement_timeout_ms: Int(1, 30_000, 'milliseconds (at most 30 s)').optional().describe('Default 5000'),
});

const PrometheusSourceConfig = config('PrometheusSourceConfig', 'Scalar result of a PromQL query.', {
  query: Text(10_000, 'a PromQL query'),
  server_url: HttpUrl.optional().describe("Default: the agent's PROMETHEUS_SERVER_URL"),
});

const LokiSourceConfig = config(
  'LokiSourceConfig',
  'Scalar result of a LogQL aggregation.',
  {
    query: Text(10_000, 'a LogQL query'),
    url: HttpUrl.optional(),
    url_ref: EnvRef.optional().describe('Variable holding the Loki URL; set url or url_ref'),
    auth_ref: EnvRef.optional().describe('Variable holding the Authorization header value'),
    timeout_ms: TimeoutMs.optional(),
  },
  (v, add) => {
    if (v.url === undefined && v.url_ref === undefined) add(['url'], 'Set url or url_ref');
    if (v.url !== undefined && v.url_ref !== undefined) add(['url_ref'], 'Set url or url_ref, not both');
  },
);

const ElasticsearchSourceConfig = config(
  'ElasticsearchSourceConfig',
  'Value of a named aggregation (Elasticsearch or OpenSearch).',
  {
    url: HttpUrl,
    index: z
      .string({ error: msg('Expected an index name or pattern') })
      .regex(/^[^\s"\\/?<>|#]{1,255}$/, 'Expected an index name or pattern, e.g. logs-*'),
    query: z
      .record(z.string(), z.unknown(), { error: msg('Expected a search body object (query, aggs)') })
      .describe('Search body sent as is'),
    aggregation: Text(256, 'an aggregation name'),
    auth_ref: EnvRef.optional().describe('Variable holding the Authorization header value'),
    timeout_ms: TimeoutMs.optional(),
  },
);

const STATISTIC = /^(Average|Sum|Minimum|Maximum|SampleCount|p(100|[0-9]{1,2})(\.[0-9]{1,2})?)$/;
const CloudwatchSourceConfig = config('CloudwatchSourceConfig', 'Latest CloudWatch datapoint for the statistic.', {
  namespace: Text(255, 'a namespace'),
  metric_name: Text(255, 'a metric name'),
  dimensions: z
    .record(
      z.string().min(1, 'Empty dimension name').max(255, 'At most 255 characters'),
      Text(1024, 'a dimension value'),
      {
        error: msg('Expected an object of dimension name → value'),
      },
    )
    .refine((d) => Object.keys(d).length <= 30, 'At most 30 dimensions')
    .optional(),
  statistic: z
    .string({ error: msg('Expected a statistic') })
    .regex(STATISTIC, 'Expected Average, Sum, Minimum, Maximum, SampleCount or a percentile like p99'),
  period_seconds: Int(1, 86_400, 'seconds')
    .refine((p) => [1, 5, 10, 30].includes(p) || p % 60 === 0, 'Expected 1, 5, 10, 30 or a multiple of 60')
    .optional()
    .describe('Default 60'),
  region: z
    .string({ error: msg('Expected an AWS region') })
    .regex(/^[a-z]{2}(-[a-z]+)+-[0-9]+$/, 'Expected an AWS region, e.g. eu-west-1')
    .optional()
    .describe("Default: the agent's AWS configuration"),
});

const HostSourceConfig = config(
  'HostSourceConfig',
  'Agent host metric: cpu, memory or filesystem (% 0..100), network (B/s), load (per CPU).',
  {
    metric: Enum(['cpu', 'memory', 'filesystem', 'network', 'load']).default('cpu'),
    mountpoint: z
      .string({ error: msg('Expected an absolute path') })
      .max(4096, 'At most 4096 characters')
      .regex(/^(\/|[A-Za-z]:[\\/])/, 'Expected an absolute path, e.g. / or /var/lib/postgresql')
      .optional()
      .describe('Required for metric filesystem'),
    interface: Text(128, 'an interface name').optional().describe('network: one interface; default all'),
  },
  (v, add) => {
    if (v.metric === 'filesystem' && v.mountpoint === undefined)
      add(['mountpoint'], 'Required when metric is filesystem');
  },
);

const UntestedSourceConfig = z.looseObject({}, { error: msg('Expected an object') });

export const SOURCE_CONFIG_SCHEMAS = {
  http: HttpSourceConfig,
  mtls_http: HttpSourceConfig,
  tcp: TcpSourceConfig,
  dns: DnsSourceConfig,
  icmp: IcmpSourceConfig,
  tls_cert: TlsCertSourceConfig,
  grpc: GrpcSourceConfig,
  websocket: WebsocketSourceConfig,
  database: DatabaseSourceConfig,
  prometheus: PrometheusSourceConfig,
  loki: LokiSourceConfig,
  elasticsearch: ElasticsearchSourceConfig,
  cloudwatch: CloudwatchSourceConfig,
  host: HostSourceConfig,
  custom: UntestedSourceConfig,
  otlp: UntestedSourceConfig,
  manual: UntestedSourceConfig,
  heartbeat: UntestedSourceConfig,
  alert: UntestedSourceConfig,
} as const satisfies Record<SourceType, z.ZodType>;

export type SourceConfigOf<T extends SourceType> = z.output<(typeof SOURCE_CONFIG_SCHEMAS)[T]>;

export function sourceConfigSchema<T extends SourceType>(sourceType: T): (typeof SOURCE_CONFIG_SCHEMAS)[T] {
  return SOURCE_CONFIG_SCHEMAS[sourceType];
}

export interface SourceConfigError {
  path: string;
  message: string;
}
export type SourceConfigResult<C> = { ok: true; config: C } | { ok: false; errors: SourceConfigError[] };

/** Issue → `{ path: 'source_config.header_refs.X-Api-Key', message }`; a bad record key reports its own message. */
function toError(issue: z.core.$ZodIssue): SourceConfigError {
  const message = issue.code === 'invalid_key' ? (issue.issues[0]?.message ?? issue.message) : issue.message;
  return { path: ['source_config', ...issue.path.map(String)].join('.'), message };
}

/** Validate before anything runs (spec §4.1 step 1); on failure the caller answers 400 invalid_probe_config with `errors`. */
export function validateSourceConfig<T extends SourceType>(
  sourceType: T,
  config: unknown,
): SourceConfigResult<SourceConfigOf<T>>;
export function validateSourceConfig(sourceType: string, config: unknown): SourceConfigResult<Record<string, unknown>>;
export function validateSourceConfig(sourceType: string, config: unknown): SourceConfigResult<Record<string, unknown>> {
  if (!isSourceType(sourceType))
    return { ok: false, errors: [{ path: 'source_type', message: `Unknown source_type: ${String(sourceType)}` }] };
  const parsed = (SOURCE_CONFIG_SCHEMAS[sourceType] as z.ZodType<Record<string, unknown>>).safeParse(config, {
    error: (iss) => (iss.input === undefined ? 'Required' : undefined),
  });
  return parsed.success ? { ok: true, config: parsed.data } : { ok: false, errors: parsed.error.issues.map(toError) };
}
