import { ProblemError } from '../../../../domain/error-catalog';
import type { FormProblem } from '../../../../render/console/forms';
import type { OrgContext } from '../../../../usecases/shared/context';
import { listConsoleUsers } from '../../../../usecases/console/users';

/**
 * Forms with numbered slots (a schedule's layers, a policy's levels) leave blank slots out of what
 * they send; the API's error paths then count only the slots sent. `slots[i]` is the form slot the
 * i-th item came from, to show each error next to the field that caused it.
 */
export function slotPath(path: string, prefix: string, slots: readonly number[]): string {
  const m = new RegExp(`^${prefix}\\.(\\d+)(\\..*)?$`).exec(path);
  if (!m) return path;
  const slot = slots[Number(m[1])];
  return slot === undefined ? path : `${prefix}.${slot}${m[2] ?? ''}`;
}

/** The problem with each error path renamed (`rename` answers the path the form uses). */
export function renamedProblem(problem: FormProblem, rename: (path: string) => string): FormProblem {
  return {
    ...problem,
    ...(problem.errors ? { errors: problem.errors.map((e) => ({ ...e, path: rename(e.path) })) } : {}),
  };
}

/** Runs `work`; a ProblemError's field paths come back renamed for the form (other errors propagate). */
export async function withFormPaths<T>(work: () => Promise<T>, rename: (path: string) => string): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (!(err instanceof ProblemError) || !Array.isArray(err.extras.errors)) throw err;
    const errors = err.extras.errors.map((e) => ({ ...e, path: rename(e.path) }));
    throw new ProblemError(err.token, err.message, { ...err.extras, errors });
  }
}

/** Lines of a textarea, trimmed, blanks dropped. */
export const linesOf = (text: string): string[] =>
  text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);

/** A whole number typed into a form, or the text itself (so the API's schema names what is wrong). */
export const wholeOr = (text: string): number | string => (/^\s*-?\d{1,9}\s*$/.test(text) ? Number(text) : text);

/** The emails of the organization's enabled console users (participants, overrides and user targets are these). */
export async function consoleUserEmails(ctx: OrgContext): Promise<string[]> {
  return (await listConsoleUsers(ctx.em, ctx.org.id)).filter((u) => !u.disabledAt).map((u) => u.email);
}
