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
      if (c === 92)
        i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) max = Math.max(max, ++depth);
    else if (c === 125 || c === 93) depth--;
  }
  return max;
}

/** U+0000 (PostgreSQL text and jsonb cannot hold it) or an unpaired surrogate (not Unicode; jsonb refuses its escape). */
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Where the first string of a parsed body (a value or a key) holds what cannot be stored, as path
 * segments; null when there is none. JSON writes either only as a `\u` escape, so a JSON body
 * without one is never walked.
 */
export function unstorableStringAt(value: unknown): (string | number)[] | null {
  const stack: [unknown, (string | number)[]][] = [[value, []]];
  while (stack.length) {
    const [v, path] = stack.pop()!;
    if (typeof v === 'string') {
      if (UNSTORABLE.test(v)) return path;
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], [...path, i]]);
    } else if (v !== null && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (UNSTORABLE.test(k)) return [...path, k];
        stack.push([x, [...path, k]]);
      }
    }
  }
  return null;
}

export const UNSTORABLE_MESSAGE =
  'Holds U+0000 (NUL) or an unpaired surrogate (\\ud800–\\udfff), which cannot be stored';

/**
 * JSON bodies must be objects (spec: invalid_json "body is not a JSON object"). An empty body is
 * accepted as no body, so body-less transitions work with or without a Content-Type.
 */
export const jsonBodyPlugin = fp(
  async (app: FastifyInstance) => {
    // JSON is the only body the API reads: anything else (text/plain included) is 415.
    app.removeContentTypeParser(['application/json', 'text/plain']);
    app.addContentTypeParser(/^application\/([\w.+-]+\+)?json$/, { parseAs: 'string' }, (req, body, done) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      if (text.trim() === '') return done(null, undefined);
      if (jsonDepth(text) > MAX_JSON_DEPTH)
        return done(
          new ProblemError('invalid_json', `The body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels.`),
          undefined,
        );
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        return done(new ProblemError('invalid_json', 'The body is not valid JSON.'), undefined);
      }
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
        return done(new ProblemError('invalid_json', 'The body must be a JSON object.'), undefined);
      }
      const unstorable = text.includes('\\u') ? unstorableStringAt(parsed) : null;
      if (unstorable) {
        const path = unstorable.join('.');
        // Routes whose error list has no validation_failed (testProbe) say invalid_json, as for any body they cannot read.
        if (req.routeOptions.config?.unreadableBody === 'invalid_json')
          return done(new ProblemError('invalid_json', `${path || 'body'}: ${UNSTORABLE_MESSAGE}.`), undefined);
        return done(
          new ProblemError('validation_failed', `${path || 'body'}: ${UNSTORABLE_MESSAGE}.`, {
            errors: [{ path, message: UNSTORABLE_MESSAGE }],
          }),
          undefined,
        );
      }
      done(null, parsed);
    });
    // The same rule for the URL, whose values would reach PostgreSQL as a protocol violation: a
    // path segment holding U+0000 names nothing (404, as any malformed id); a query value is
    // refused naming the parameter.
    app.addHook('preValidation', async (request) => {
      // The console checks its own forms and query values, naming them as its forms do.
      if (request.routeOptions.url?.startsWith('/console')) return;
      const params = request.params && typeof request.params === 'object' ? unstorableStringAt(request.params) : null;
      if (params)
        throw new ProblemError('not_found', 'No such resource: the path holds U+0000 (NUL) or an unpaired surrogate.');
      const at = request.query && typeof request.query === 'object' ? unstorableStringAt(request.query) : null;
      if (!at) return;
      const path = ['query', ...at].join('.');
      if (request.routeOptions.config?.unreadableBody === 'invalid_json')
        throw new ProblemError('invalid_json', `${path}: ${UNSTORABLE_MESSAGE}.`);
      throw new ProblemError('validation_failed', `${path}: ${UNSTORABLE_MESSAGE}.`, {
        errors: [{ path, message: UNSTORABLE_MESSAGE }],
      });
    });
  },
  { name: 'json-body' },
);
