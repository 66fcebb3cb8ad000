import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  type ConsoleUser,
  ConsoleSessionSchema,
  ConsoleSignInTokenSchema,
  ConsoleUserSchema,
  OrganizationSchema,
} from '../../db/entities';
import { SESSION_MAX_MS, SIGN_IN_LINK_TTL_MS } from '../../domain/console-roles';
import { type SignInLimits, signInWindow } from '../../domain/sign-in-limits';
import { countSignInRequest } from '../../db/repositories/rate-limit-repository';
import { signInEmail } from '../../render/console/emails';
import type { ConsoleMail } from './ports';
import { normalizeEmail } from './users';

export const sha256Hex = (token: string) => createHash('sha256').update(token).digest('hex');
const newToken = () => randomBytes(32).toString('base64url');

/** A one-time sign-in link for a user; only its hash is kept. */
export async function issueSignInLink(
  em: EntityManager,
  user: ConsoleUser,
  consoleUrl: string,
  now: Date,
  ttlMs = SIGN_IN_LINK_TTL_MS,
): Promise<{ url: string; expiresAt: Date }> {
  const token = newToken();
  const expiresAt = new Date(now.getTime() + ttlMs);
  em.create(ConsoleSignInTokenSchema, {
    id: randomUUID(),
    user: user.id,
    tokenHash: sha256Hex(token),
    createdAt: now,
    expiresAt,
    usedAt: null,
  });
  await em.flush();
  return { url: `${consoleUrl}/sign-in/${token}`, expiresAt };
}

/**
 * Emails a sign-in link to each active console user with this address (one per organization).
 * Answers nothing about whether the address is known, so the form cannot be used to find users.
 */
export async function requestSignIn(
  em: EntityManager,
  mail: ConsoleMail,
  email: string,
  consoleUrl: string,
  now: Date,
): Promise<void> {
  const users = await em.find(ConsoleUserSchema, { email: normalizeEmail(email), disabledAt: null });
  for (const user of users) {
    const org = await em.findOneOrFail(OrganizationSchema, user.organization);
    const link = await issueSignInLink(em, user, consoleUrl, now);
    await mail.send({
      to: user.email,
      ...signInEmail({
        organization: org.name,
        url: link.url,
        expiresAt: link.expiresAt.toISOString(),
        invitation: false,
      }),
    });
  }
}

/** A UUID-shaped key for the counters table (an address is never stored there in clear). */
function counterKey(kind: string, value: string): string {
  const h = createHash('sha256').update(`${kind}:${value}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

/**
 * Counts a sign-in request for `email` from `clientIp` and says whether it is over a limit (then
 * nothing may be sent). The same work whether or not the address is known.
 */
export async function countSignInAttempt(
  em: EntityManager,
  email: string,
  clientIp: string,
  limits: SignInLimits,
  now: Date,
): Promise<{ limited: false } | { limited: true; retryAfterSeconds: number }> {
  const { start, retryAfterSeconds } = signInWindow(now);
  const [byAddress, byClient] = await Promise.all([
    countSignInRequest(em, counterKey('si_addr', normalizeEmail(email)), 'si_addr', start),
    countSignInRequest(em, counterKey('si_ip', clientIp), 'si_ip', start),
  ]);
  return byAddress > limits.perAddress || byClient > limits.perClient
    ? { limited: true, retryAfterSeconds }
    : { limited: false };
}

/** Sends an invitation: a sign-in link valid for `ttlMs` (a week by default). Answers the link too. */
export async function inviteConsoleUser(
  em: EntityManager,
  mail: ConsoleMail | null,
  user: ConsoleUser,
  consoleUrl: string,
  now: Date,
  ttlMs = 7 * 24 * 3_600_000,
): Promise<{ url: string; expiresAt: Date }> {
  const org = await em.findOneOrFail(OrganizationSchema, user.organization);
  const link = await issueSignInLink(em, user, consoleUrl, now, ttlMs);
  await mail?.send({
    to: user.email,
    ...signInEmail({
      organization: org.name,
      url: link.url,
      expiresAt: link.expiresAt.toISOString(),
      invitation: true,
    }),
  });
  return link;
}

/** Whether a link can still be used (for the confirmation page; using it is `consumeSignIn`). */
export async function signInLinkUsable(em: EntityManager, token: string, now: Date): Promise<boolean> {
  const row = await em.findOne(ConsoleSignInTokenSchema, {
    tokenHash: sha256Hex(token),
    usedAt: null,
    expiresAt: { $gt: now },
  });
  if (!row) return false;
  const user = await em.findOne(ConsoleUserSchema, { id: row.user, disabledAt: null });
  return !!user;
}

/**
 * Uses a link once (the update that marks it used is the check, so two tabs racing get one
 * session) and starts a session; answers its cookie token, or null when the link is no good.
 */
export async function consumeSignIn(
  em: EntityManager,
  token: string,
  now: Date,
): Promise<{ sessionToken: string; user: ConsoleUser; expiresAt: Date } | null> {
  return em.transactional(async (tx) => {
    const used = await tx.nativeUpdate(
      ConsoleSignInTokenSchema,
      { tokenHash: sha256Hex(token), usedAt: null, expiresAt: { $gt: now } },
      { usedAt: now },
    );
    if (!used) return null;
    const row = await tx.findOneOrFail(ConsoleSignInTokenSchema, { tokenHash: sha256Hex(token) });
    const user = await tx.findOne(ConsoleUserSchema, { id: row.user, disabledAt: null });
    if (!user) return null;
    const sessionToken = newToken();
    const expiresAt = new Date(now.getTime() + SESSION_MAX_MS);
    tx.create(ConsoleSessionSchema, {
      id: randomUUID(),
      user: user.id,
      tokenHash: sha256Hex(sessionToken),
      createdAt: now,
      lastSeenAt: now,
      expiresAt,
      endedAt: null,
    });
    user.lastSignInAt = now;
    await tx.flush();
    return { sessionToken, user, expiresAt };
  });
}
