import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ProblemError } from '../../domain/error-catalog';

/**
 * JSON bodies must be objects (spec: invalid_json "body is not a JSON object"). An empty body is
 * accepted as no body, so body-less transitions work with or without a Content-Type.
 */
export const jsonBodyPlugin = fp(
  async (app: FastifyInstance) => {
    // JSON is the only body the API reads: anything else (text/plain included) is 415.
    app.removeContentTypeParser(['application/json', 'text/plain']);
    app.addContentTypeParser(/^application\/([\w.+-]+\+)?json$/, { parseAs: 'string' }, (_req, body, done) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      if (text.trim() === '') return done(null, undefined);
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        return done(new ProblemError('invalid_json', 'The body is not valid JSON.'), undefined);
      }
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
        return done(new ProblemError('invalid_json', 'The body must be a JSON object.'), undefined);
      }
      done(null, parsed);
    });
  },
  { name: 'json-body' },
);
