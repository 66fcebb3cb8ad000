import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ProblemError } from '../../domain/error-catalog';

/** No request body of the API nests deeper; deeper ones would only exhaust the stack downstream. */
export const MAX_JSON_DEPTH = 64;

/** The deepest nesting of arrays and objects in JSON text (strings skipped), in one pass. */
export function jsonDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) max = Math.max(max, ++depth);
    else if (c === 125 || c === 93) depth--;
  }
  return max;
}

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
      if (jsonDepth(text) > MAX_JSON_DEPTH) return done(new ProblemError('invalid_json', `The body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels.`), undefined);
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
