import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ERROR_CATALOG, type ErrorToken, type FieldError, ProblemError } from '../../domain/error-catalog';
import { isDatabaseUnavailable } from '../../db/unavailable';

export { isDatabaseUnavailable };
import { problemBody, sendProblem } from '../problem';

/** Seconds a client is asked to wait when the database is unreachable: about a restart's length. */
const DATABASE_RETRY_AFTER_S = 5;

/** A request that reached an instance that is shutting down (a deploy, a scale-in). */
export function shuttingDown(): ProblemError {
  return new ProblemError(
    'shutting_down',
    'This API instance is shutting down; retry, and another instance will answer.',
    { retry_after: 1 },
    { 'retry-after': '1' },
  );
}

export function databaseUnavailable(): ProblemError {
  return new ProblemError(
    'database_unavailable',
    'The database cannot be reached right now; nothing was done. Retry shortly.',
    { retry_after: DATABASE_RETRY_AFTER_S },
    { 'retry-after': String(DATABASE_RETRY_AFTER_S) },
  );
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * What a body the API cannot read as JSON (another media type, none at all, a body shorter or
     * longer than its Content-Length) answers on this route: by default 415
     * `unsupported_media_type` (400 `validation_failed` for a Content-Length mismatch);
     * 'invalid_json' for a route whose own error list has no such status (testProbe, spec §4.1).
     */
    unreadableBody?: 'invalid_json';
  }
}

/** Fastify's errors for a body it could not hand to a JSON parser (media type, Content-Length). */
const UNREADABLE_BODY = ['FST_ERR_CTP_INVALID_MEDIA_TYPE', 'FST_ERR_CTP_INVALID_CONTENT_LENGTH'];

function pathOf(context: string | undefined, instancePath: string): string {
  const inner = instancePath.replace(/^\//, '').split('/').filter(Boolean).join('.');
  const where = context === 'querystring' ? 'query' : context;
  if (!where || where === 'body') return inner;
  return inner ? `${where}.${inner}` : where;
}

/** Maps every failure to application/problem+json; 5xx answers never carry internals. */
function toProblem(err: FastifyError, request: FastifyRequest): ProblemError {
  if (err instanceof ProblemError) return err;
  if (isDatabaseUnavailable(err)) return databaseUnavailable();
  if (request.routeOptions.config?.unreadableBody === 'invalid_json' && UNREADABLE_BODY.includes(err.code)) {
    return new ProblemError('invalid_json', 'The body must be a JSON object, sent as application/json.');
  }
  if (hasZodFastifySchemaValidationErrors(err)) {
    const errors: FieldError[] = err.validation.flatMap((v) => {
      const keys = v.keyword === 'unrecognized_keys' ? (v.params as { keys?: string[] }).keys : undefined;
      if (keys?.length) {
        return keys.map((k) => ({
          path: pathOf(err.validationContext, `${v.instancePath}/${k}`),
          message: 'Unknown field',
        }));
      }
      return [{ path: pathOf(err.validationContext, v.instancePath), message: v.message ?? 'Invalid value' }];
    });
    const first = errors[0];
    const detail = first ? `${first.path || 'body'}: ${first.message}` : 'The request does not match the schema.';
    return new ProblemError('validation_failed', detail, { errors });
  }
  switch (err.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ProblemError('payload_too_large', 'The request body is larger than the limit.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ProblemError('unsupported_media_type', 'Send request bodies as application/json.');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ProblemError('invalid_json', 'The body is not valid JSON.');
  }
  const status = err.statusCode ?? 500;
  if (status === 404 || status === 405) return new ProblemError('not_found', 'No such route.');
  if (status >= 400 && status < 500) return new ProblemError('validation_failed', err.message);
  return new ProblemError('internal_error', 'An unexpected error occurred; it has been logged. Retrying is safe.');
}

export const errorsPlugin = fp(
  async (app: FastifyInstance, opts: { docsUrl: string }) => {
    app.setErrorHandler((err: FastifyError, request, reply) => {
      const problem = toProblem(err, request);
      if (problem.token === 'database_unavailable') request.log.warn({ err }, 'database unavailable');
      else if (problem.status >= 500) request.log.error({ err }, 'unhandled error');
      return sendProblem(reply, opts.docsUrl, problem);
    });
    app.setNotFoundHandler((request, reply) =>
      sendProblem(
        reply,
        opts.docsUrl,
        new ProblemError('not_found', `No route ${request.method} ${request.url.split('?')[0]}.`),
      ),
    );
  },
  { name: 'errors' },
);

/**
 * Fastify's `frameworkErrors`: errors raised before routing, which otherwise answer Fastify's own
 * JSON. A URL that cannot be decoded is `invalid_url`; a path parameter over the router's length
 * limit names no resource, so it is `not_found` like any other malformed id.
 */
export function frameworkErrorHandler(docsUrl: string) {
  return (err: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    reply.header('x-request-id', request.id);
    let problem: ProblemError;
    if (err.code === 'FST_ERR_BAD_URL')
      problem = new ProblemError(
        'invalid_url',
        'The request URL is not valid: it has a malformed percent-encoding, or one that is not UTF-8.',
      );
    else if (err.code === 'FST_ERR_MAX_PARAM_LENGTH')
      problem = new ProblemError('not_found', 'No such resource: a path parameter is longer than any id.');
    else {
      request.log.error({ err }, 'framework error');
      problem = new ProblemError(
        'internal_error',
        'An unexpected error occurred; it has been logged. Retrying is safe.',
      );
    }
    void sendProblem(reply, docsUrl, problem);
  };
}

/** What Node's HTTP parser refuses before Fastify sees a request, by error code. */
const CLIENT_ERRORS: Record<string, { token: ErrorToken; detail: string }> = {
  ERR_HTTP_REQUEST_TIMEOUT: { token: 'request_timeout', detail: 'The request did not arrive in time.' },
  HPE_HEADER_OVERFLOW: { token: 'headers_too_large', detail: 'The request line and headers exceed the server limit.' },
};

/**
 * Fastify's `clientErrorHandler`: Node's HTTP parser refused the bytes (headers over
 * `maxHeaderSize`, a malformed request, a request timeout). No request exists yet, so the
 * problem is written to the socket as is, and the connection closed, as Node itself does.
 */
export function clientErrorHandler(docsUrl: string) {
  return (err: Error & { code?: string }, socket: Socket): void => {
    // A reset connection has nobody left to answer.
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    const known = CLIENT_ERRORS[err.code ?? ''] ?? {
      token: 'malformed_request',
      detail: 'The request is not well-formed HTTP/1.1.',
    };
    const status = ERROR_CATALOG[known.token].status;
    const body = JSON.stringify(problemBody(docsUrl, known.token, known.detail));
    if (socket.writable) {
      socket.write(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/problem+json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy(err);
  };
}
