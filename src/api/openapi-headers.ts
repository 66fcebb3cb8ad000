/**
 * The response headers of the OpenAPI document. Route schemas describe bodies; the headers that
 * the API's plugins set on many routes at once (rate limits, Retry-After, WWW-Authenticate,
 * Idempotent-Replayed) are declared here, from the same rules that set them, so every response
 * that carries one says so.
 */

type HeaderObject = { description: string; required?: boolean; schema: object };
type Response = { description?: string; headers?: Record<string, HeaderObject | { $ref: string }>; content?: unknown };
type Operation = {
  security?: Record<string, string[]>[];
  parameters?: { in: string; name: string }[];
  responses?: Record<string, Response>;
};
type Document = { paths?: Record<string, Record<string, Operation>>; components?: Record<string, unknown> };

const integer = { type: 'integer', minimum: 0 };

/** Spec §8: on every answer after authentication (so not on 401, nor on 403 plan_does_not_permit_api). */
export const RATE_LIMIT_HEADERS: Record<string, HeaderObject> = {
  'X-RateLimit-Limit': { description: 'Requests allowed per minute for the organization.', schema: integer },
  'X-RateLimit-Remaining': { description: 'Requests left in the current minute.', schema: integer },
  'X-RateLimit-Reset': { description: 'Seconds until the per-minute window resets.', schema: integer },
  'X-RateLimit-Daily-Limit': { description: 'Requests allowed per UTC day.', schema: integer },
  'X-RateLimit-Daily-Remaining': { description: 'Requests left today (UTC).', schema: integer },
  'X-RateLimit-Daily-Reset': { description: 'Seconds until the daily quota resets (UTC midnight).', schema: integer },
};

const OTHER_HEADERS: Record<string, HeaderObject> = {
  'Retry-After': {
    description: 'Seconds to wait before retrying; mirrors `retry_after` in the body.',
    schema: { type: 'integer', minimum: 1 },
  },
  'WWW-Authenticate': {
    description:
      'The authentication scheme: `Bearer realm="vigil"` (`Slack-Signature realm="vigil"` on the Slack interactions URL).',
    schema: { type: 'string' },
  },
  'Idempotent-Replayed': {
    description: '`true` when this is the recorded answer to an earlier request with the same `Idempotency-Key`.',
    schema: { type: 'string', enum: ['true'] },
  },
};

/** Each header is a component twice, required and not (a reference cannot override `required`). */
const ref = (name: string, required: boolean) => ({
  $ref: `#/components/headers/${name}${required ? '' : '-optional'}`,
});

function components(): Record<string, HeaderObject> {
  const out: Record<string, HeaderObject> = {};
  for (const [name, header] of Object.entries({ ...RATE_LIMIT_HEADERS, ...OTHER_HEADERS })) {
    out[name] = { ...header, required: true };
    out[`${name}-optional`] = { ...header, required: false };
  }
  return out;
}

/**
 * Adds the shared headers to every operation's responses: rate-limit headers on the answers of
 * key-authenticated operations after authentication (required on 2xx and 429, where they are always
 * set; present on other errors once the key was accepted), Retry-After on 429 and on a 503 problem, WWW-Authenticate on
 * 401, and Idempotent-Replayed on the success of operations that take an Idempotency-Key.
 */
export function declareResponseHeaders<T extends object>(input: T): T {
  const doc = input as Document;
  doc.components = { ...doc.components, headers: { ...(doc.components?.headers as object), ...components() } };
  for (const item of Object.values(doc.paths ?? {})) {
    for (const op of Object.values(item)) {
      const keyed = op.security?.some((s) => 'bearerAuth' in s) ?? false;
      const idempotent =
        op.parameters?.some((p) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key') ?? false;
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        const headers: NonNullable<Response['headers']> = { ...response.headers };
        const success = status.startsWith('2');
        if (keyed && status !== '401') {
          for (const name of Object.keys(RATE_LIMIT_HEADERS)) headers[name] = ref(name, success || status === '429');
        }
        if (status === '429') headers['Retry-After'] = ref('Retry-After', true);
        // 503 database_unavailable always says when to retry; a readiness answer is not a problem.
        if (
          status === '503' &&
          (response as { content?: Record<string, unknown> }).content?.['application/problem+json']
        )
          headers['Retry-After'] = ref('Retry-After', true);
        if (status === '401') headers['WWW-Authenticate'] = ref('WWW-Authenticate', true);
        if (idempotent && success) headers['Idempotent-Replayed'] = ref('Idempotent-Replayed', false);
        if (Object.keys(headers).length) response.headers = headers;
      }
    }
  }
  return input;
}
