import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { type FieldError, ProblemError } from '../../domain/error-catalog';
import { sendProblem } from '../problem';

function pathOf(context: string | undefined, instancePath: string): string {
  const inner = instancePath.replace(/^\//, '').split('/').filter(Boolean).join('.');
  const where = context === 'querystring' ? 'query' : context;
  if (!where || where === 'body') return inner;
  return inner ? `${where}.${inner}` : where;
}

/** Maps every failure to application/problem+json; 5xx answers never carry internals. */
function toProblem(err: FastifyError): ProblemError {
  if (err instanceof ProblemError) return err;
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
      const problem = toProblem(err);
      if (problem.status >= 500) request.log.error({ err }, 'unhandled error');
      return sendProblem(reply, opts.docsUrl, problem);
    });
    app.setNotFoundHandler((request, reply) =>
      sendProblem(reply, opts.docsUrl, new ProblemError('not_found', `No route ${request.method} ${request.url.split('?')[0]}.`)),
    );
  },
  { name: 'errors' },
);
