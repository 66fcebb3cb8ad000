import { clampLimit } from '../../domain/cursor';
import type { z } from 'zod';
import { type FieldError, ProblemError } from '../../domain/error-catalog';
import type { FormProblem } from '../../render/console/forms';
import { flashIn } from './flash';
import { localInputToInstant } from '../../domain/local-time-input';

type Form = Record<string, string | string[] | undefined>;

/** One field of a posted form (the first value; '' when absent). */
export function field(body: unknown, name: string): string {
  const v = (body as Form | undefined)?.[name];
  return typeof v === 'string' ? v : Array.isArray(v) ? (v[0] ?? '') : '';
}

/** Every value of a repeated field (checkboxes, multiple selects). */
export function fields(body: unknown, name: string): string[] {
  const v = (body as Form | undefined)?.[name];
  return typeof v === 'string' ? [v] : Array.isArray(v) ? v : [];
}

/** A field that may be left empty: null then. */
export function optionalField(body: unknown, name: string): string | null {
  const v = field(body, name).trim();
  return v === '' ? null : v;
}

/** `limit` and `cursor` of a console list page (cursor-paged like the API). */
export function listQuery(query: unknown, limit = 50): { limit: number; cursor?: string } {
  const q = query as { cursor?: unknown };
  return {
    limit: clampLimit(limit),
    ...(typeof q?.cursor === 'string' && q.cursor ? { cursor: q.cursor.slice(0, 512) } : {}),
  };
}

/** The one-line notice the session carried to this page (src/api/console/flash.ts); never a `?flash=` of the URL. */
export function flashOf(query: unknown): string | null {
  return flashIn(query);
}

/**
 * Runs a form's use case; a ProblemError (the API's answer) comes back as the problem to show
 * next to the form's fields, anything else propagates (500 page).
 */
export async function attempt<T>(
  work: () => Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; problem: FormProblem; status: number }> {
  try {
    return { ok: true, value: await work() };
  } catch (err) {
    if (err instanceof ProblemError)
      return {
        ok: false,
        status: err.status,
        problem: { title: err.token, detail: err.message, errors: err.extras.errors },
      };
    throw err;
  }
}

/**
 * A datetime-local value read as a wall time in the viewer's zone (the zone its label names, see
 * zonedDateInput), as an ISO instant; null when unreadable.
 */
export function zonedInstantOf(local: string, timeZone: string): string | null {
  const read = localInputToInstant(local, timeZone);
  return read.ok ? read.instant.toISOString() : null;
}

/**
 * The form's input checked by the API operation's own body schema, so the console accepts exactly
 * what the API accepts; a mismatch throws the API's 400 validation_failed with an error per field
 * (paths as the API names them, which the forms use as field names). `extra`: errors the form
 * found itself (an unreadable date), shown instead of the schema's for the same field.
 */
export function validated<S extends z.ZodType>(schema: S, input: unknown, extra: FieldError[] = []): z.output<S> {
  const r = schema.safeParse(input);
  if (r.success && !extra.length) return r.data;
  const own = new Set(extra.map((e) => e.path));
  const fromSchema: FieldError[] = r.success
    ? []
    : r.error.issues.flatMap((i) =>
        i.code === 'unrecognized_keys'
          ? i.keys.map((k) => ({ path: [...i.path, k].map(String).join('.'), message: 'Unknown field' }))
          : [{ path: i.path.map(String).join('.'), message: i.message }],
      );
  const errors = [...extra, ...fromSchema.filter((e) => !own.has(e.path))];
  const first = errors[0]!;
  throw new ProblemError('validation_failed', `${first.path || 'body'}: ${first.message}`, { errors });
}

/** A list filter from the query: one of `allowed`, '' for none; anything else is the API's 400. */
export function filterOf<T extends string>(query: unknown, name: string, allowed: readonly T[]): T | '' {
  const raw = (query as Record<string, unknown> | undefined)?.[name];
  if (raw === undefined || raw === '') return '';
  if (typeof raw === 'string' && (allowed as readonly string[]).includes(raw)) return raw as T;
  throw new ProblemError('validation_failed', `${name} must be one of ${allowed.join(', ')}.`, {
    errors: [{ path: `query.${name}`, message: `One of ${allowed.join(', ')}` }],
  });
}
