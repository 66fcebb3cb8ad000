/**
 * Validation results shared by the on-call and alerting inputs (schedules, escalation policies):
 * every problem at once, each with a JSON-ish field path such as `layers[0].rotation.handoff_time`
 * ('' for the input itself), so an API client can point at the field.
 */
import { z } from 'zod';

export interface FieldError {
  path: string;
  message: string;
}

export type Validated<T> = { ok: true; value: T } | { ok: false; errors: FieldError[] };

/** ['layers', 0, 'rotation', 'handoff_time'] → 'layers[0].rotation.handoff_time'. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? String(part) : `.${String(part)}`;
  }
  return out;
}

/** A missing field reads "is required" instead of zod's "expected string, received undefined". */
export const requiredMessage = (issue: { input?: unknown }): string | undefined =>
  issue.input === undefined ? 'is required' : undefined;

/** A schema's own message, except "is required" when the field is missing (a schema message would hide the global one). */
export const orRequired =
  (message: string) =>
  (issue: { input?: unknown }): string =>
    issue.input === undefined ? 'is required' : message;

/** Zod issues → field errors; an unknown key is reported at its own path. */
export function fieldErrors(error: z.ZodError): FieldError[] {
  return error.issues.flatMap((issue): FieldError[] => {
    if (issue.code === 'unrecognized_keys')
      return issue.keys.map((key) => ({ path: formatPath([...issue.path, key]), message: 'is not a known field' }));
    return [{ path: formatPath(issue.path), message: issue.message }];
  });
}

/** A whole number in [min, max]; one message for every way to miss. */
export const intBetween = (min: number, max: number, message: string) =>
  z
    .int({ error: orRequired(message) })
    .min(min, { error: message })
    .max(max, { error: message });

/** A string with something besides blanks, at most `max` characters. */
export const nonBlank = (max: number) =>
  z
    .string()
    .refine((s) => s.trim() !== '', { error: 'must not be empty' })
    .refine((s) => s.length <= max, { error: `must be at most ${max} characters` });
