import type { EntityManager } from '@mikro-orm/postgresql';
import {
  type ConsoleUser,
  ConsoleSessionSchema,
  ConsoleUserSchema,
  type Organization,
  OrganizationSchema,
} from '../../db/entities';
import { SESSION_IDLE_MS } from '../../domain/console-roles';
import { sha256Hex } from './sign-in';

export interface ConsoleSessionView {
  sessionId: string;
  user: ConsoleUser;
  organization: Organization;
  expiresAt: Date;
}

/** Touching `lastSeenAt` at most once a minute keeps a busy console from writing on every page view. */
const TOUCH_EVERY_MS = 60_000;

/** The live session a cookie token names: not ended, not idle too long, not past its end, its user enabled. */
export async function sessionOf(em: EntityManager, token: string, now: Date): Promise<ConsoleSessionView | null> {
  if (!token || token.length > 100) return null;
  const session = await em.findOne(ConsoleSessionSchema, {
    tokenHash: sha256Hex(token),
    endedAt: null,
    expiresAt: { $gt: now },
    lastSeenAt: { $gt: new Date(now.getTime() - SESSION_IDLE_MS) },
  });
  if (!session) return null;
  const user = await em.findOne(ConsoleUserSchema, { id: session.user, disabledAt: null });
  if (!user) return null;
  const organization = await em.findOneOrFail(OrganizationSchema, user.organization);
  if (now.getTime() - session.lastSeenAt.getTime() > TOUCH_EVERY_MS)
    await em.nativeUpdate(ConsoleSessionSchema, { id: session.id }, { lastSeenAt: now });
  return { sessionId: session.id, user, organization, expiresAt: session.expiresAt };
}

export async function endSession(em: EntityManager, token: string, now: Date): Promise<void> {
  await em.nativeUpdate(ConsoleSessionSchema, { tokenHash: sha256Hex(token), endedAt: null }, { endedAt: now });
}
