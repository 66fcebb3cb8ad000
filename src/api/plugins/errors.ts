import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { type FieldError, ProblemError } from '../../domain/error-catalog';
import { sendProblem } from '../problem';

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
  if (request.routeOptions.config?.unreadableBody === 'invalid_json' && UNREADABLE_BODY.includes(err.code)) {
    return new ProblemError('invalid_json', 'The body must be a JSON object, sent as application/json.');
  }
  if (hasZodFastifySchemaValidationErrors(err)) {
    const errors: FieldError[] = err.validation.flatMap((v) => {
      const keys = v.keyword === 'unrecognized_keys' ? (v.params as { keys?: string[] }).keys : undefined;
      if (keys?.length) {
        return keys.map((k) => ({ path: pathOf(err.validationContext, `${v.instancePath}/${k}`), message: 'Unknown field' }));
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
      if (problem.status >= 500) request.log.error({ err }, 'unhandled error');
      return sendProblem(reply, opts.docsUrl, problem);
    });
    app.setNotFoundHandler((request, reply) =>
      sendProblem(reply, opts.docsUrl, new ProblemError('not_found', `No route ${request.method} ${request.url.split('?')[0]}.`)),
    );
  },
  { name: 'errors' },
);
