import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import OpenAPIBackend, { OpenAPIValidator, type Operation } from 'openapi-backend';

/** One request the suite sent and the answer it got, as seen on the wire. */
export interface Exchange {
  method: string;
  /** Path and query, as sent. */
  url: string;
  requestHeaders: Record<string, string>;
  /** The JSON the test sent (undefined when none); a raw non-JSON body is not checked against the document. */
  requestBody?: unknown;
  rawRequestBody?: boolean;
  status: number;
  responseHeaders: Headers;
  /** Parsed JSON when the answer is JSON, else the text. */
  responseBody: unknown;
  responseText: string;
}

/**
 * Headers the API sets that a client may rely on: when one is on an answer, the document must
 * declare it for that operation and status.
 */
const DECLARED_WHEN_SENT = [
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'x-ratelimit-daily-limit',
  'x-ratelimit-daily-remaining',
  'x-ratelimit-daily-reset',
  'retry-after',
  'idempotent-replayed',
  'www-authenticate',
  'etag',
  'location',
];

/** Paths the document describes; others (status pages, the docs site, the reference UI) are HTML or assets. */
const isApiPath = (path: string) => path.startsWith('/v1/') && !path.startsWith('/v1/reference');

type Responses = Record<
  string,
  { content?: Record<string, unknown>; headers?: Record<string, { required?: boolean; schema?: object }> }
>;

/**
 * Checks exchanges against the served OpenAPI document with validators that share nothing with
 * the zod schemas the document was generated from: openapi-backend routes requests to operations
 * and validates parameters, request bodies and response bodies (with Ajv's JSON Schema 2020-12,
 * the dialect of OpenAPI 3.1); this file checks statuses, media types and headers.
 *
 * Rules: every answer's status is documented for its operation, with its media type, a body that
 * validates and the headers the document requires; a header of DECLARED_WHEN_SENT on the answer is
 * declared there; and a request the API accepted (2xx) is valid by the document, so the document is
 * never stricter than the runtime.
 */
export class OpenApiConformance {
  private readonly headerAjv = addFormats(new Ajv2020({ strict: false, coerceTypes: true, allErrors: true }));
  /** One compiled validator per header schema: compiling is what costs, and every answer carries the same few headers. */
  private readonly headerValidators = new Map<string, ReturnType<Ajv2020['compile']>>();
  /**
   * Response bodies, validated by one Ajv with one compiled validator per schema object, compiled
   * when an answer first needs it. openapi-backend's own response check makes a new Ajv (compiling
   * the 2020-12 meta-schema) per operation and compiles every status of it, the shared problem
   * schema each time: that was most of the time of a file walking every route (scope-matrix 24 of
   * its 28 s), in every file that calls the API.
   */
  private readonly bodyAjv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
  private readonly bodyValidators = new WeakMap<object, ReturnType<Ajv2020['compile']>>();

  private constructor(private readonly api: OpenAPIBackend) {}

  /**
   * The checker for a document, shared by every harness of a module registry that serves the same
   * document (jest gives each test file its own registry): the router and the validators compiled
   * so far are kept, rather than cloned, dereferenced and compiled again per app. A checker holds
   * nothing but compiled validators, so sharing it changes no verdict.
   */
  static create(document: object): Promise<OpenApiConformance> {
    const key = JSON.stringify(document);
    let made = checkers.get(key);
    if (!made) {
      made = OpenApiConformance.build(document);
      checkers.set(key, made);
      // A failed build is not kept: the next caller tries again and sees the error itself.
      made.catch(() => checkers.delete(key));
    }
    return made;
  }

  private static async build(document: object): Promise<OpenApiConformance> {
    const api = new OpenAPIBackend({
      definition: forBackend(document) as never,
      strict: true,
      // quick: skips openapi-backend's own check of the document, which knows OpenAPI 3.0 only
      // (test/api/openapi.test.ts checks the document as 3.1), and compiles validators on first use.
      quick: true,
      validate: true,
      // OpenAPI 3.1 schemas are JSON Schema 2020-12.
      customizeAjv: (_ajv, opts) => addFormats(new Ajv2020({ ...opts, strict: false, allErrors: true })) as never,
    });
    await api.init();
    return new OpenApiConformance(api);
  }

  /** What is wrong with one exchange; empty when it conforms. */
  check(ex: Exchange): string[] {
    const path = ex.url.split('?')[0] ?? ex.url;
    if (!isApiPath(path)) return [];
    const where = `${ex.method} ${ex.url} → ${ex.status}`;
    const request = {
      method: ex.method,
      path: ex.url,
      headers: ex.requestHeaders,
      query: queryOf(ex.url),
      body: ex.requestBody,
    };
    const op = this.api.matchOperation(request) as Operation | undefined;
    if (!op) {
      // A path no operation serves answers the catch-all 404.
      return ex.status === 404 && (ex.responseBody as { title?: string })?.title === 'not_found'
        ? []
        : [`${where}: no operation in the document serves this path`];
    }
    const name = `${where} (${op.operationId})`;
    const problems: string[] = [];
    const responses = (op.responses ?? {}) as Responses;
    const documented = responses[String(ex.status)] ?? responses[`${String(ex.status)[0]}XX`] ?? responses.default;
    if (!documented)
      return [`${name}: status ${ex.status} is not documented (documented: ${Object.keys(responses).join(', ')})`];

    // Body and media type.
    const mediaType = (ex.responseHeaders.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    const content = documented.content ?? {};
    if (Object.keys(content).length === 0) {
      if (ex.responseText !== '')
        problems.push(`${name}: the document gives this status no body, but one was sent (${mediaType})`);
    } else if (!(mediaType in content)) {
      problems.push(
        `${name}: media type ${mediaType || '(none)'} is not documented (documented: ${Object.keys(content).join(', ')})`,
      );
    } else if (!/json/.test(mediaType) && Object.keys(content).some((t) => /json/.test(t))) {
      // A text alternative of a JSON answer (YAML beside JSON): its media type is documented; the validator knows only the JSON schema.
    } else {
      const schema = (content['application/json'] as { schema?: object } | undefined)?.schema;
      const validate = schema ? this.bodyValidator(schema) : null;
      if (validate && !validate(ex.responseBody)) {
        for (const e of validate.errors ?? [])
          problems.push(
            `${name}: response body${e.instancePath || ''} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`,
          );
      }
    }

    // Headers.
    const declared = Object.fromEntries(
      Object.entries(documented.headers ?? {}).map(([h, spec]) => [h.toLowerCase(), spec]),
    );
    for (const [header, spec] of Object.entries(declared)) {
      const value = ex.responseHeaders.get(header);
      if (value === null) {
        if (spec.required) problems.push(`${name}: required header ${header} is missing`);
        continue;
      }
      if (spec.schema) {
        const key = JSON.stringify(spec.schema);
        let validate = this.headerValidators.get(key);
        if (!validate)
          this.headerValidators.set(
            key,
            (validate = this.headerAjv.compile({ type: 'object', properties: { v: spec.schema } })),
          );
        if (!validate({ v: value }))
          problems.push(`${name}: header ${header}: ${value} ${validate.errors?.[0]?.message}`);
      }
    }
    for (const header of DECLARED_WHEN_SENT) {
      if (ex.responseHeaders.has(header) && !(header in declared))
        problems.push(`${name}: header ${header} is sent but not declared`);
    }

    // A request the API accepted must be valid by the document.
    if (ex.status >= 200 && ex.status < 300 && !ex.rawRequestBody) {
      const result = this.api.validateRequest(request, op);
      for (const e of result.errors ?? [])
        problems.push(
          `${name}: accepted request${e.instancePath || ''} ${e.message} ${JSON.stringify(e.params ?? {})}`,
        );
    }
    return problems;
  }

  /** The router's document is dereferenced: a component used by many operations (the problem schema) is one object, compiled once. */
  private bodyValidator(schema: object): ReturnType<Ajv2020['compile']> {
    let validate = this.bodyValidators.get(schema);
    if (!validate) this.bodyValidators.set(schema, (validate = this.bodyAjv.compile(decycle(schema))));
    return validate;
  }
}

/** Checkers by the JSON of their document (see OpenApiConformance.create). */
const checkers = new Map<string, Promise<OpenApiConformance>>();

/** openapi-backend's copy with each reference cycle (a recursive schema) written as a JSON Schema $ref, as its own validators compile them. */
const decycle = (schema: object): object =>
  (OpenAPIValidator as unknown as { decycle(o: object): object }).decycle(schema);

function queryOf(url: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  const search = new URLSearchParams(url.split('?')[1] ?? '');
  for (const key of new Set(search.keys())) {
    const all = search.getAll(key);
    out[key] = all.length === 1 ? all[0]! : all;
  }
  return out;
}

/**
 * openapi-backend validates JSON bodies under `application/json` only: this copy files each
 * response's JSON media type (problem+json included) there, after check() has compared the
 * answer's media type with the document's own.
 */
function forBackend(document: object): object {
  const doc = structuredClone(document) as { paths?: Record<string, Record<string, { responses?: Responses }>> };
  for (const item of Object.values(doc.paths ?? {})) {
    for (const op of Object.values(item)) {
      for (const response of Object.values(op?.responses ?? {})) {
        const content = response.content;
        if (!content || content['application/json']) continue;
        const json = Object.keys(content).find((m) => /^application\/([\w.+-]+\+)?json$/.test(m));
        if (json) content['application/json'] = content[json];
      }
    }
  }
  return doc;
}
