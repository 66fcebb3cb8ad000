import { randomUUID } from 'node:crypto';
import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { type ConsoleUser, ConsoleSessionSchema, ConsoleUserSchema, OrganizationSchema } from '../../db/entities';
import { CONSOLE_ROLES, type ConsoleRole, isConsoleRole } from '../../domain/console-roles';
import { pageOf } from '../../domain/cursor';
import { type FieldError, ProblemError, notFound } from '../../domain/error-catalog';
import { isUuid } from '../../domain/ids';
import { UsageError } from '../organizations/api-keys';
import type { OrgContext } from '../shared/context';
import { NEWEST_FIRST, afterCursor } from '../shared/keyset';

const EMAIL = /^[^\s@]+@[^\s@]+$/;

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

/** A console user of an organization (`vigil user create`); the email is unique within the organization. */
export async function createConsoleUser(
  em: EntityManager,
  input: { organizationId: string; email: string; role: string },
  now: Date,
): Promise<ConsoleUser> {
  const email = normalizeEmail(input.email);
  if (!EMAIL.test(email) || email.length > 320) throw new UsageError(`"${input.email}" is not an email address`);
  if (!isConsoleRole(input.role))
    throw new UsageError(`Unknown role "${input.role}"; roles: ${CONSOLE_ROLES.join(', ')}`);
  if (!isUuid(input.organizationId) || !(await em.findOne(OrganizationSchema, input.organizationId)))
    throw new UsageError(`No organization ${input.organizationId}`);
  try {
    const user = em.create(ConsoleUserSchema, {
      id: randomUUID(),
      organization: input.organizationId,
      email,
      role: input.role,
      createdAt: now,
      lastSignInAt: null,
      disabledAt: null,
    });
    await em.flush();
    return user;
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException)
      throw new UsageError(`${email} is already a console user of this organization`);
    throw err;
  }
}

export async function listConsoleUsers(em: EntityManager, organizationId: string): Promise<ConsoleUser[]> {
  if (!isUuid(organizationId)) throw new UsageError(`No organization ${organizationId}`);
  return em.find(ConsoleUserSchema, { organization: organizationId }, { orderBy: { createdAt: 'asc', id: 'asc' } });
}

export async function findConsoleUser(em: EntityManager, id: string | undefined): Promise<ConsoleUser> {
  const user = id && isUuid(id) ? await em.findOne(ConsoleUserSchema, id) : null;
  if (!user) throw new UsageError(`No console user ${id ?? ''}`.trim());
  return user;
}

/**
 * Disables a user: their sessions end (so enabling them again later does not revive one) and their
 * links do nothing.
 */
export async function disableConsoleUser(em: EntityManager, id: string, now: Date): Promise<ConsoleUser> {
  const user = isUuid(id) ? await em.findOne(ConsoleUserSchema, id) : null;
  if (!user) throw new UsageError(`No console user ${id}`);
  user.disabledAt ??= now;
  await em.flush();
  await em.nativeUpdate(ConsoleSessionSchema, { user: user.id, endedAt: null }, { endedAt: now });
  return user;
}

/** The owner of an organization for `npm start`'s banner: made once. */
export async function ensureConsoleOwner(
  em: EntityManager,
  organizationId: string,
  email: string,
  now: Date,
): Promise<ConsoleUser> {
  const existing = await em.findOne(ConsoleUserSchema, { organization: organizationId, email: normalizeEmail(email) });
  return existing ?? createConsoleUser(em, { organizationId, email, role: 'owner' }, now);
}

/** What an invitation's fields get wrong (paths as the Users form names them); empty when fine. */
export function newUserErrors(email: string, role: string): FieldError[] {
  const errors: FieldError[] = [];
  const normal = normalizeEmail(email);
  if (!EMAIL.test(normal) || normal.length > 320)
    errors.push({
      path: 'email',
      message: email.trim() ? `"${email.trim()}" is not an email address` : 'Give the email address to invite',
    });
  if (!isConsoleRole(role))
    errors.push({ path: 'role', message: `Pick one of the roles: ${CONSOLE_ROLES.join(', ')}` });
  return errors;
}

/** One newest-first page of the organization's console users (the Users page). */
export async function listOrgConsoleUsers(ctx: OrgContext, q: { limit: number; cursor?: string }) {
  const rows = await ctx.em.find(
    ConsoleUserSchema,
    { organization: ctx.org.id, ...afterCursor(q.cursor) },
    { orderBy: NEWEST_FIRST, limit: q.limit + 1 },
  );
  return pageOf(rows, q.limit);
}

/** A user of the caller's organization, or 404 (another organization's id too). */
export async function findOrgConsoleUser(ctx: OrgContext, id: string): Promise<ConsoleUser> {
  const user = isUuid(id) ? await ctx.em.findOne(ConsoleUserSchema, { id, organization: ctx.org.id }) : null;
  if (!user) throw notFound('Console user');
  return user;
}

/**
 * Changes a user's role or enables/disables them, in one transaction that locks the organization,
 * so two owners demoting each other at once cannot leave it with no owner who can sign in. Only an
 * enabled owner who has signed in counts: an invitation may never be accepted (its link expires
 * after a week, the address may be wrong), so the last such owner cannot step down or be disabled
 * while the others are only invited. A disabled user's sessions end at once. The change takes
 * effect on the user's next request (sessions read the role each time).
 */
export async function updateOrgConsoleUser(
  ctx: OrgContext,
  actorUserId: string,
  id: string,
  change: { role: string } | { enabled: boolean },
): Promise<ConsoleUser> {
  if ('role' in change && !isConsoleRole(change.role))
    throw new ProblemError('validation_failed', `Unknown role "${change.role}".`, {
      errors: [{ path: 'role', message: `Pick one of the roles: ${CONSOLE_ROLES.join(', ')}` }],
    });
  return ctx.em.transactional(async (tx) => {
    await tx.findOneOrFail(OrganizationSchema, ctx.org.id, { lockMode: LockMode.PESSIMISTIC_WRITE });
    const user = isUuid(id) ? await tx.findOne(ConsoleUserSchema, { id, organization: ctx.org.id }) : null;
    if (!user) throw notFound('Console user');
    const losesOwner =
      user.role === 'owner' && !user.disabledAt && ('role' in change ? change.role !== 'owner' : !change.enabled);
    if (losesOwner) {
      const others = await tx.find(
        ConsoleUserSchema,
        { organization: ctx.org.id, role: 'owner', disabledAt: null, id: { $ne: user.id } },
        { orderBy: { email: 'asc' } },
      );
      if (!others.some((o) => o.lastSignInAt !== null))
        throw lastOwner(
          user,
          user.id === actorUserId,
          others.map((o) => o.email),
          'role' in change ? 'role' : 'enabled',
        );
    }
    if ('role' in change) user.role = change.role;
    else if (change.enabled) user.disabledAt = null;
    else if (!user.disabledAt) {
      user.disabledAt = ctx.now;
      await tx.nativeUpdate(ConsoleSessionSchema, { user: user.id, endedAt: null }, { endedAt: ctx.now });
    }
    await tx.flush();
    return user;
  });
}

/** Why the last owner who can sign in cannot step down; `invited`: enabled owners who never signed in. */
function lastOwner(user: ConsoleUser, self: boolean, invited: string[], path: string): ProblemError {
  const who = self ? 'You are' : `${user.email} is`;
  const message = invited.length
    ? `${who} the organization's last owner who has signed in; ${invited.join(', ')} ${invited.length === 1 ? 'is an owner too but has' : 'are owners too but have'} not signed in yet, and might never. Once another owner has signed in, ${self ? 'you' : 'they'} can step down.`
    : `${who} the organization's last enabled owner. Make another user an owner first: without one, nobody could manage users and API keys.`;
  return new ProblemError('validation_failed', message, { errors: [{ path, message }] });
}

export type { ConsoleRole };
