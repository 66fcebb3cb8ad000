/**
 * The bounded, deterministic set of hostile requests of one operation (fixed cases every
 * operation gets, plus field mutations drawn by its seeded generator), and the request a case
 * becomes against the two organizations' holdings.
 */
import { BAD_UTF8_MARK, Dup, encode, toBuffer } from './encoding';
import type { Holdings, Kind } from './holdings';
import {
  BODY_LIMIT,
  CONTENT_TYPES,
  DEEP,
  DEEP_OBJECT,
  GARBAGE_CURSORS,
  HOSTILE_LIMITS,
  HOSTILE_NUMBERS,
  HUGE_ARRAY,
  INVALID_JSON,
  MALFORMED_IDS,
  MB_STRING,
  ODD_STRINGS,
} from './hostile-values';
import { everyString, fieldsOf, hostileValues, setIn, sourceConfigCandidates, wrongTypeFor } from './mutations';
import { type Operation, credentialOf, typeOf } from './operations';
import { RANDOM_CASES_PER_OP, seeded } from './random';
import { validBody } from './valid-bodies';
import type { Shot } from './wire';

export interface Case {
  label: string;
  /** Which ids fill the path: the organization's own live ones, another organization's, deleted ones, or a malformed string. */
  ids?: 'own' | 'foreign' | 'deleted' | { malformed: string };
  /** Replaces the operation's valid query. */
  query?: string;
  /** The body (already encoded); undefined: the valid one (none for operations without a body). */
  body?: Buffer | null;
  /** Content-Type; undefined: application/json when there is a body. */
  contentType?: string | null;
  headers?: Record<string, string>;
  /** Authorization header: undefined the operation's own credential, null none. */
  auth?: string | null;
  /** Bytes sent on a socket of their own (the header is not one a client library writes). */
  raw?: boolean;
}

const KIND_OF_SEGMENT: Record<string, Kind> = {
  services: 'service',
  customers: 'customer',
  'change-events': 'changeEvent',
  'incident-templates': 'incidentTemplate',
  incidents: 'incident',
  maintenances: 'maintenance',
  webhooks: 'webhook',
  agents: 'agent',
  metrics: 'metric',
  slos: 'slo',
  contracts: 'contract',
  sla: 'statement',
  'status-pages': 'statusPage',
  'notification-channels': 'notificationChannel',
  'escalation-policies': 'escalationPolicy',
  'on-call': 'onCallSchedule',
  'alert-rules': 'alertRule',
  silences: 'silence',
  alerts: 'alert',
};

function kindOf(path: string, param: string): Kind {
  if (param === 'deliveryId') return 'delivery';
  if (param === 'subscriberId') return 'subscriber';
  if (param === 'metricId') return 'metric';
  if (param === 'alertId') return 'alert';
  if (param === 'messageId') return 'incidentMessage';
  if (param === 'channelId') return 'notificationChannel';
  if (param === 'job_id' || param === 'jobId') return 'job';
  if (param === 'subdomain') return 'subdomain';
  if (param === 'token')
    return path.includes('/heartbeats/')
      ? 'heartbeat'
      : path.includes('/alert-actions/')
        ? 'alertLink'
        : 'alertReceiver';
  const kind = KIND_OF_SEGMENT[path.split('/')[2] ?? ''];
  if (!kind) throw new Error(`No kind of id for {${param}} in ${path}: add it to kindOf`);
  return kind;
}

/** The query of a valid request (long polls answer at once). */
const VALID_QUERY: Record<string, string> = { pollAgentJobs: 'wait_seconds=0' };

/** Credentials that must not pass, and the other kind's (an agent's token on an API route). */
export const BAD_AUTH = (h: Holdings) => [
  null,
  'Bearer',
  'Bearer ',
  'Basic dXNlcjpwYXNz',
  `Bearer vgl_pub_${'x'.repeat(40)}`,
  `Bearer ${h.org.key} extra`,
  `Bearer ${'A'.repeat(8000)}`,
  `bearer ${h.org.key.toUpperCase()}`,
  `Bearer ${h.agentToken}`,
  `Bearer ${h.revokedAgentToken}`,
  `Bearer vgl_agt_${'x'.repeat(40)}`,
  'Bearer \u00e9\u00ff',
  `Bearer ${h.org.key},Bearer ${h.org.key}`,
];

/** The bounded, deterministic set of hostile requests of one operation. */
export function casesOf(op: Operation, own: Holdings, foreign: Holdings): Case[] {
  const rng = seeded(op.operationId);
  const pathParams = op.parameters.filter((p) => p.in === 'path');
  const queryParams = op.parameters.filter((p) => p.in === 'query');
  const headerParams = op.parameters.filter((p) => p.in === 'header');
  const hasBody = op.bodySchema !== null;
  const base = hasBody ? validBody(op.operationId, own) : undefined;
  const json = (v: unknown) => toBuffer(encode(v));
  const fields = hasBody ? fieldsOf(op.bodySchema, base) : [];
  const core: Case[] = [];

  if (pathParams.length) {
    core.push(
      { label: 'ids of another organization', ids: 'foreign' },
      { label: 'ids of deleted items', ids: 'deleted' },
    );
    for (const bad of rng.shuffle(MALFORMED_IDS).slice(0, 3))
      core.push({ label: `malformed id ${bad.slice(0, 24)}`, ids: { malformed: bad } });
  }
  for (const q of queryParams) {
    // The named hostile values every list gets, then a few drawn from the rest.
    const [named, others]: [string[], string[]] =
      q.name === 'limit'
        ? [['-1', '0', '1e9', 'abc'], HOSTILE_LIMITS]
        : q.name === 'cursor'
          ? [
              [
                op.path === '/v1/services' ? own.cursors.incidents : own.cursors.services,
                foreign.cursors.services,
                'garbage',
              ],
              GARBAGE_CURSORS,
            ]
          : q.name === 'wait_seconds'
            ? [[], ['-1', '31', '1e9', 'abc', '0.5']]
            : [
                [],
                [
                  'BOGUS',
                  '',
                  '%00',
                  '%ED%A0%80',
                  'a'.repeat(3000),
                  '1e999',
                  'true',
                  MALFORMED_IDS[0]!,
                  foreign.live.service,
                  '2026-02-30T00:00:00.000Z',
                  '+275760-09-13T00:00:00.000Z',
                  '0000-01-01T00:00:00.000Z',
                ],
              ];
    const drawn = rng.shuffle(others.filter((v) => !named.includes(v))).slice(0, q.name === 'cursor' ? 4 : 2);
    for (const v of [...named, ...drawn]) {
      const encoded = /^%|%[0-9A-F]{2}/i.test(v) ? v : encodeURIComponent(v);
      core.push({
        label: `query ${q.name}=${v.slice(0, 24)}`,
        query: [VALID_QUERY[op.operationId], `${q.name}=${encoded}`].filter(Boolean).join('&'),
      });
    }
  }
  if (queryParams.length) {
    const first = queryParams[0]!.name;
    core.push({
      label: 'query repeated',
      query: [VALID_QUERY[op.operationId], `${first}=1&${first}=2&${first}[]=3`].filter(Boolean).join('&'),
    });
  }
  core.push({
    label: 'query unknown and __proto__',
    query: [VALID_QUERY[op.operationId], '__proto__[polluted]=1&constructor[prototype][x]=1&fz=%F0%9F%92%A9']
      .filter(Boolean)
      .join('&'),
  });
  for (const hp of headerParams) {
    for (const v of ['', ' ', 'x'.repeat(256), 'clé', 'a b', '\t'])
      core.push({ label: `header ${hp.name}=${JSON.stringify(v.slice(0, 8))}`, headers: { [hp.name]: v } });
  }

  if (hasBody) {
    core.push({ label: 'body JSON null', body: Buffer.from(rng.pick(['null', '[]', '"x"', '1', 'true', '[{}]'])) });
    core.push({ label: 'body empty', body: Buffer.alloc(0) });
    core.push({ label: 'body invalid JSON', body: toBuffer(rng.pick(INVALID_JSON)) });
    core.push({
      label: 'every field null',
      body: json(fields.filter((f) => f.path.length === 1).reduce((b, f) => setIn(b, f.path, null), base)),
    });
    core.push({
      label: 'every field of the wrong type',
      body: json(
        fields
          .filter((f) => f.path.length === 1)
          .reduce((b, f) => setIn(b, f.path, wrongTypeFor(typeOf(f.schema, f.example))), base),
      ),
    });
    const strings = fields.filter((f) => typeOf(f.schema, f.example) === 'string');
    const arrays = fields.filter((f) => typeOf(f.schema, f.example) === 'array');
    const numbers = fields.filter((f) => ['integer', 'number'].includes(typeOf(f.schema, f.example)));
    const someString = strings.length ? rng.pick(strings).path : ['fuzz'];
    core.push({ label: `1 MB string at ${someString.join('.')}`, body: json(setIn(base, someString, MB_STRING)) });
    const limit = op.operationId === 'applyConfig' ? 16 * 1024 * 1024 : BODY_LIMIT;
    core.push({ label: 'body over the size limit', body: json(setIn(base, someString, 'z'.repeat(limit + 1000))) });
    const someArray = arrays.length ? rng.pick(arrays).path : ['fuzz'];
    core.push({ label: `100k items at ${someArray.join('.')}`, body: json(setIn(base, someArray, HUGE_ARRAY)) });
    const someField = fields.length ? rng.pick(fields).path : ['fuzz'];
    core.push({
      label: `10k-deep nesting at ${someField.join('.')}`,
      body: json(setIn(base, someField, rng.pick([DEEP, DEEP_OBJECT]))),
    });
    core.push({
      label: 'invalid UTF-8 in every string',
      body: json(everyString(fields, base, () => `a${BAD_UTF8_MARK}b`) ?? setIn(base, ['fuzz'], BAD_UTF8_MARK)),
    });
    core.push({
      label: 'odd Unicode in every string',
      body: json(
        everyString(fields, base, (i) => ODD_STRINGS[i % ODD_STRINGS.length]) ?? setIn(base, ['fuzz'], ODD_STRINGS[0]),
      ),
    });
    core.push({
      label: 'NUL in every string',
      body: json(everyString(fields, base, () => 'a\u0000b') ?? setIn(base, ['fuzz'], '\u0000')),
    });
    if (numbers.length)
      core.push({
        label: 'hostile numbers',
        body: json(numbers.reduce((b, f) => setIn(b, f.path, rng.pick(HOSTILE_NUMBERS)), base)),
      });
    const entries = Object.entries(base && typeof base === 'object' ? base : {});
    if (entries.length) {
      const [k] = rng.pick(entries);
      core.push({
        label: `duplicate key ${k}`,
        body: json(new Dup([...entries, [k, rng.pick([null, 42, { nested: true }, ['x'], 'dup'])]])),
      });
    }
    core.push({
      label: 'unknown fields',
      body: json(
        new Dup([
          ...entries,
          ['unknown_field', 1],
          ['__proto__', { polluted: true }],
          ['constructor', { prototype: { x: 1 } }],
        ]),
      ),
    });
    const namedTypes = ['text/plain', 'application/xml', 'multipart/form-data; boundary=fz', null];
    for (const type of [
      ...namedTypes,
      ...rng.shuffle(CONTENT_TYPES.filter((t) => !namedTypes.includes(t))).slice(0, 2),
    ])
      core.push({
        label: `content type ${type ?? '(none)'}`,
        contentType: type,
        body: type?.startsWith('multipart')
          ? Buffer.from('--fz\r\nContent-Disposition: form-data; name="name"\r\n\r\nx\r\n--fz--\r\n')
          : json(base),
      });
    if (op.mediaTypes.includes('application/yaml')) {
      const yamls = [
        'version: 1\nservices: [' + '['.repeat(10_000),
        `version: 1\n${'a: &a [x]\n'}${Array.from({ length: 12 }, (_, i) => `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [*${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}]`).join('\n')}\n`,
        'version: 1\nservices:\n\t- name: tab',
        `version: 1\nservices:\n${'  '.repeat(5000)}- x`,
        'version: 1\nservices: !!js/function "function(){}"',
        `version: 1\nservices:\n  - config_key: x\n    name: ${BAD_UTF8_MARK}`,
        'version: 1\nversion: 1',
        `version: 1\nservices: ${'{a: '.repeat(10_000)}`,
        'version: !!binary AAAA\n',
        '%YAML 9.9\n---\nversion: 1',
        'version: 1\nservices:\n  - <<: *undefined',
      ];
      for (const y of yamls)
        core.push({
          label: `YAML ${JSON.stringify(y.slice(0, 30))}`,
          contentType: 'application/yaml',
          body: toBuffer(y),
        });
    }
  } else {
    core.push({
      label: 'JSON body on a body-less operation',
      body: Buffer.from('{"name":"x","__proto__":{"polluted":true}}'),
    });
    core.push({ label: 'invalid JSON body on a body-less operation', body: Buffer.from(rng.pick(INVALID_JSON)) });
    core.push({ label: 'text body on a body-less operation', body: Buffer.from('hello'), contentType: 'text/plain' });
    core.push({ label: 'over-limit body on a body-less operation', body: Buffer.alloc(BODY_LIMIT + 1000, 0x20) });
  }
  core.push({ label: 'a 20 kB header', raw: true, headers: { 'x-fuzz': 'h'.repeat(20_000) } });
  for (const auth of rng.shuffle(BAD_AUTH(own)).slice(0, 2))
    core.push({ label: `authorization ${auth === null ? '(none)' : JSON.stringify(auth.slice(0, 24))}`, auth });

  const random: Case[] = [];
  if (hasBody) {
    const candidates = fields.flatMap((f) => hostileValues(f, foreign, own).map((v) => ({ f, v })));
    for (const { f, v } of rng.shuffle(candidates).slice(0, RANDOM_CASES_PER_OP))
      random.push({ label: `${f.path.join('.')}: ${v.label}`, body: json(setIn(base, f.path, v.value)) });
    for (const c of rng
      .shuffle(sourceConfigCandidates(op.operationId, base, own, foreign))
      .slice(0, RANDOM_CASES_PER_OP))
      random.push({ label: c.label, body: json(c.body) });
  }
  // Last: the valid request, which may change what the hostile ones were aimed at.
  return [...core, ...random, { label: 'valid' }];
}

/** The request a case makes of an operation: ids, query, headers, credential and body filled in. */
export function shotOf(op: Operation, c: Case, own: Holdings, foreign: Holdings): Shot {
  const idOf = (param: string): string => {
    const kind = kindOf(op.path, param);
    const ids = c.ids ?? 'own';
    if (typeof ids === 'object') return ids.malformed;
    if (ids === 'foreign') return encodeURIComponent(foreign.live[kind]);
    if (ids === 'deleted') return encodeURIComponent(own.deleted[kind] ?? '0195b3c4-0000-7000-8000-0000000000ff');
    return encodeURIComponent(own.live[kind]);
  };
  const path = op.path.replace(/\{(\w+)\}/g, (_, p: string) => idOf(p));
  const query = c.query ?? VALID_QUERY[op.operationId];
  const headers: Record<string, string> = { ...c.headers };
  const auth = c.auth === undefined ? credentialOf(op, own) : c.auth;
  if (auth !== null) headers.authorization = auth;
  let body = c.body === null ? undefined : c.body;
  if (body === undefined && c.body === undefined && op.bodySchema)
    body = toBuffer(encode(validBody(op.operationId, own)));
  if (body !== undefined) {
    const type = c.contentType === undefined ? 'application/json' : c.contentType;
    if (type !== null) headers['content-type'] = type;
  }
  return { method: op.method, path: query ? `${path}?${query}` : path, headers, body };
}
