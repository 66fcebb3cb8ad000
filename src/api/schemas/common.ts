import { z } from 'zod';
import { ERROR_CATALOG, type ErrorToken } from '../../domain/error-catalog';
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX, clampLimit } from '../../domain/cursor';
import { RFC3339_MS_UTC } from '../../domain/time';

export const Uuid = z.uuid().describe('UUID');

/** RFC 3339 in UTC with exactly three fractional digits: 2026-11-22T06:40:46.123Z. */
export const DateTime = z
  .string()
  .regex(RFC3339_MS_UTC, 'Expected RFC 3339 UTC with milliseconds, e.g. 2026-11-22T06:40:46.123Z')
  .meta({ format: 'date-time', example: '2026-11-22T06:40:46.123Z' });

export const IdParams = z.object({ id: z.string().describe('Resource id (UUID)') });

/** `limit` is clamped to 1..200 rather than rejected, as the spec asks of page sizes. */
export const ListQuery = z.object({
  limit: z.coerce
    .number()
    .optional()
    .transform((v) => clampLimit(v))
    .describe(`Page size, clamped to 1..${PAGE_SIZE_MAX}; default ${PAGE_SIZE_DEFAULT}`),
  cursor: z.string().max(512).optional().describe('Opaque cursor from the previous page'),
});

export function pageSchema<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    next_cursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last page'),
  });
}

export const FieldErrorSchema = z.object({ path: z.string(), message: z.string() });

export const ProblemSchema = z
  .looseObject({
    type: z.url(),
    title: z.string().describe('Stable error token; branch on this'),
    status: z.int(),
    detail: z.string(),
    errors: z.array(FieldErrorSchema).optional(),
    retry_after: z.int().optional(),
    limit: z
      .object({ scope: z.enum(['organization']), window: z.enum(['minute', 'day']), max: z.int(), plan: z.string() })
      .optional(),
    quota: z
      .object({ capability: z.string(), used: z.int().nullable(), cap: z.int().nullable(), plan: z.string().nullable() })
      .optional(),
    upgrade: z.object({ plan: z.string(), label: z.string(), url: z.url() }).optional(),
  })
  .meta({ id: 'Problem', description: 'RFC 7807 problem details (application/problem+json)' });

type StatusKey = `${number}`;

/** OpenAPI response entries for the error tokens a route can answer, grouped by status. */
export function problemResponses(...tokens: ErrorToken[]) {
  const byStatus = new Map<number, ErrorToken[]>();
  for (const t of tokens) {
    const status = ERROR_CATALOG[t].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), t]);
  }
  const out: Record<StatusKey, { description: string; content: { 'application/problem+json': { schema: typeof ProblemSchema } } }> = {};
  for (const [status, list] of byStatus) {
    out[`${status}`] = {
      description: list.map((t) => `\`${t}\`: ${ERROR_CATALOG[t].summary}`).join('\n\n'),
      content: { 'application/problem+json': { schema: ProblemSchema } },
    };
  }
  return out;
}

/** Errors every authenticated route can answer. */
export const AUTHENTICATED_ERRORS: ErrorToken[] = [
  'unauthenticated',
  'forbidden',
  'plan_does_not_permit_api',
  'rate_limited',
  'internal_error',
];

/** Errors every route that reads a JSON body can answer. */
export const BODY_ERRORS: ErrorToken[] = ['invalid_json', 'validation_failed', 'payload_too_large', 'unsupported_media_type'];
