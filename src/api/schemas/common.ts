import { z } from 'zod';
import { ERROR_CATALOG, type ErrorToken } from '../../domain/error-catalog';
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX, clampLimit } from '../../domain/cursor';
import { RFC3339_MS_UTC, parseIsoMs } from '../../domain/time';

export const Uuid = z.uuid().describe('UUID');

const DateTimeText = z
  .string()
  .regex(RFC3339_MS_UTC, 'Expected RFC 3339 UTC with milliseconds, e.g. 2026-11-22T06:40:46.123Z');
const DATE_TIME_META = { format: 'date-time', example: '2026-11-22T06:40:46.123Z' } as const;

/** RFC 3339 in UTC with exactly three fractional digits: 2026-11-22T06:40:46.123Z. */
export const DateTime = DateTimeText.meta(DATE_TIME_META);

/** A DateTime a request sends: also one that exists (not 30 February, not year 0), so nothing downstream meets an Invalid Date (a malformed one is the regex's to report). */
export const DateTimeInput = DateTimeText.refine(
  (v) => !RFC3339_MS_UTC.test(v) || parseIsoMs(v) !== null,
  'Not a date and time that exists',
).meta(DATE_TIME_META);

/** A DateTimeInput, read as a Date. */
export const InstantInput = DateTimeInput.transform((v) => parseIsoMs(v)!);

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

const ReferenceSchema = z.object({ id: Uuid, config_key: z.string().nullable(), name: z.string() });

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
      .object({
        capability: z.string(),
        used: z.int().nullable(),
        cap: z.int().nullable(),
        plan: z.string().nullable(),
      })
      .optional(),
    upgrade: z.object({ plan: z.string(), label: z.string(), url: z.url() }).optional(),
    warnings: z.array(FieldErrorSchema).optional().describe('config_invalid only: non-fatal warnings'),
    unknown_customers: z
      .array(z.string())
      .optional()
      .describe('unknown_customers only: submitted values matching no customer'),
    unknown_services: z
      .array(z.string())
      .optional()
      .describe('unknown_services only: submitted values matching no service'),
    referenced_by: z
      .object({
        slos: z.array(ReferenceSchema),
        pages: z.array(ReferenceSchema),
        subscribers: z.int().min(0),
        sla_statements: z
          .int()
          .min(0)
          .optional()
          .describe('Contracts only: how many SLA statements were issued under it'),
        escalation_policies: z
          .array(ReferenceSchema)
          .optional()
          .describe('Notification channels and on-call schedules: the escalation policies that target it'),
        alert_rules: z.array(ReferenceSchema).optional().describe('Escalation policies: the alert rules that use it'),
      })
      .optional()
      .describe('in_use only: what still uses the item'),
    reason: z
      .string()
      .optional()
      .describe(
        "agent_unavailable: no_agent, offline, never_connected, outdated or revoked; probe_test_failed: the agent's error code",
      ),
    private_url: z
      .boolean()
      .optional()
      .describe('agent_unavailable only: true when the cloud refused a non-public URL'),
    min_agent_version: z
      .string()
      .optional()
      .describe('agent_unavailable with reason outdated: the oldest agent version that runs probe tests'),
  })
  .meta({ id: 'Problem', description: 'RFC 7807 problem details (application/problem+json)' });

/** Spec §8: a 429 of the API's limits carries `retry_after` and `limit`. */
export const TooManyRequestsProblemSchema = ProblemSchema.required({ retry_after: true, limit: true }).meta({
  id: 'TooManyRequestsProblem',
  description: 'A 429 problem: `retry_after` (seconds, as in Retry-After) and the `limit` that was reached',
});

/**
 * The public subscribe endpoint's abuse limits are hourly, per client address and per page, which
 * §2.5's `limit` (scope organization, window minute or day) cannot state: `retry_after` only.
 */
export const RetryLaterProblemSchema = ProblemSchema.required({ retry_after: true }).meta({
  id: 'RetryLaterProblem',
  description: 'A 429 problem of a public endpoint: `retry_after` (seconds, as in Retry-After)',
});

/** Tokens whose 429 states the organization limit that was reached. */
const LIMIT_TOKENS: ErrorToken[] = ['rate_limited', 'queue_full'];

function schemaFor(status: number, tokens: ErrorToken[]): z.ZodType {
  if (status !== 429) return ProblemSchema;
  return tokens.every((t) => LIMIT_TOKENS.includes(t)) ? TooManyRequestsProblemSchema : RetryLaterProblemSchema;
}

type StatusKey = `${number}`;

/** OpenAPI response entries for the error tokens a route can answer, grouped by status. */
export function problemResponses(...tokens: ErrorToken[]) {
  const byStatus = new Map<number, ErrorToken[]>();
  for (const t of tokens) {
    const status = ERROR_CATALOG[t].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), t]);
  }
  const out: Record<
    StatusKey,
    { description: string; content: { 'application/problem+json': { schema: z.ZodType } } }
  > = {};
  for (const [status, list] of byStatus) {
    out[`${status}`] = {
      description: list.map((t) => `\`${t}\`: ${ERROR_CATALOG[t].summary}`).join('\n\n'),
      content: { 'application/problem+json': { schema: schemaFor(status, list) } },
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
  'database_unavailable',
  'shutting_down',
];

/** Errors every route that reads a JSON body can answer. */
export const BODY_ERRORS: ErrorToken[] = [
  'invalid_json',
  'validation_failed',
  'payload_too_large',
  'unsupported_media_type',
];
