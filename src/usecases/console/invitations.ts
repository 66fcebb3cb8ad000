import { ProblemError } from '../../domain/error-catalog';
import { ConsoleUserSchema } from '../../db/entities';
import { UsageError } from '../organizations/api-keys';
import type { OrgContext } from '../shared/context';
import type { ConsoleMail } from './ports';
import { inviteConsoleUser } from './sign-in';
import { createConsoleUser, newUserErrors, normalizeEmail } from './users';

/**
 * An owner invites someone from the console: the console user is made (as `vigil user create`
 * does) and sent the invitation email the CLI sends, a sign-in link valid for a week. Refusals come
 * back as validation_failed with the field they concern.
 */
export async function inviteFromConsole(
  ctx: OrgContext,
  mail: ConsoleMail,
  consoleUrl: string,
  input: { email: string; role: string },
) {
  const errors = newUserErrors(input.email, input.role);
  const email = normalizeEmail(input.email);
  if (!errors.length && (await ctx.em.count(ConsoleUserSchema, { organization: ctx.org.id, email })))
    errors.push({ path: 'email', message: `${email} is already a console user of this organization` });
  if (errors.length) throw new ProblemError('validation_failed', errors[0]!.message, { errors });
  let user;
  try {
    user = await createConsoleUser(ctx.em, { organizationId: ctx.org.id, email, role: input.role }, ctx.now);
  } catch (err) {
    // Another owner invited the same address a moment ago.
    if (err instanceof UsageError)
      throw new ProblemError('validation_failed', err.message, { errors: [{ path: 'email', message: err.message }] });
    throw err;
  }
  const link = await inviteConsoleUser(ctx.em, mail, user, consoleUrl, ctx.now);
  return { user, expiresAt: link.expiresAt };
}
