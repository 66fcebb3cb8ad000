import { randomUUID } from 'node:crypto';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { type ConsoleUser, ConsoleUserSchema, OrganizationSchema } from '../../db/entities';
import { CONSOLE_ROLES, type ConsoleRole, isConsoleRole } from '../../domain/console-roles';
import { isUuid } from '../../domain/ids';
import { UsageError } from '../api-keys';

const EMAIL = /^[^\s@]+@[^\s@]+$/;

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

/** A console user of an organization (`vigil user create`); the email is unique within the organization. */
export async function createConsoleUser(em: EntityManager, input: { organizationId: string; email: string; role: string }, now: Date): Promise<ConsoleUser> {
  const email = normalizeEmail(input.email);
  if (!EMAIL.test(email) || email.length > 320) throw new UsageError(`"${input.email}" is not an email address`);
  if (!isConsoleRole(input.role)) throw new UsageError(`Unknown role "${input.role}"; roles: ${CONSOLE_ROLES.join(', ')}`);
  if (!isUuid(input.organizationId) || !(await em.findOne(OrganizationSchema, input.organizationId))) throw new UsageError(`No organization ${input.organizationId}`);
  try {
    const user = em.create(ConsoleUserSchema, { id: randomUUID(), organization: input.organizationId, email, role: input.role, createdAt: now, lastSignInAt: null, disabledAt: null });
    await em.flush();
    return user;
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException) throw new UsageError(`${email} is already a console user of this organization`);
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

/** Disables a user: their sessions stop working at once and their links do nothing. */
export async function disableConsoleUser(em: EntityManager, id: string, now: Date): Promise<ConsoleUser> {
  const user = isUuid(id) ? await em.findOne(ConsoleUserSchema, id) : null;
  if (!user) throw new UsageError(`No console user ${id}`);
  user.disabledAt ??= now;
  await em.flush();
  return user;
}

/** The owner of an organization for `npm start`'s banner: made once. */
export async function ensureConsoleOwner(em: EntityManager, organizationId: string, email: string, now: Date): Promise<ConsoleUser> {
  const existing = await em.findOne(ConsoleUserSchema, { organization: organizationId, email: normalizeEmail(email) });
  return existing ?? createConsoleUser(em, { organizationId, email, role: 'owner' }, now);
}

export type { ConsoleRole };
