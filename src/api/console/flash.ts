import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Console notices after post/redirect/get travel in a short-lived HttpOnly cookie bound to the
 * session (an HMAC keyed by the session token), never in the URL: a link with `?flash=` cannot
 * make the console show text as an official notice. The notice shows once.
 */
export const FLASH_COOKIE = 'vigil_flash';
const FLASH = Symbol('flash');
const MAX = 200;

const mac = (sessionToken: string, text: string) =>
  createHmac('sha256', sessionToken).update(`flash:${text}`).digest('base64url');

/** Sets the notice the next console page of this session shows. */
export function setFlash(reply: FastifyReply, sessionToken: string | undefined, flash: string): void {
  if (!sessionToken) return;
  const text = flash.slice(0, MAX);
  reply.setCookie(FLASH_COOKIE, `${Buffer.from(text).toString('base64url')}.${mac(sessionToken, text)}`, {
    path: '/console',
    httpOnly: true,
    sameSite: 'lax',
    secure: 'auto',
    maxAge: 60,
  });
}

/**
 * On a signed-in GET: takes the session's notice (clearing the cookie) and puts it where
 * flashOf(request.query) finds it. Any `flash` query parameter is ignored.
 */
export function takeFlash(request: FastifyRequest, reply: FastifyReply, sessionToken: string): void {
  const raw = request.cookies[FLASH_COOKIE];
  if (raw === undefined) return;
  reply.clearCookie(FLASH_COOKIE, { path: '/console' });
  const [encoded, sig] = raw.split('.');
  if (!encoded || !sig) return;
  const text = Buffer.from(encoded, 'base64url').toString('utf8').slice(0, MAX);
  const want = Buffer.from(mac(sessionToken, text));
  const got = Buffer.from(sig);
  if (got.length !== want.length || !timingSafeEqual(got, want)) return;
  if (request.query && typeof request.query === 'object')
    Object.defineProperty(request.query, FLASH, { value: text, enumerable: false });
}

/** The notice takeFlash found for this request. */
export function flashIn(query: unknown): string | null {
  const f = query && typeof query === 'object' ? (query as { [FLASH]?: unknown })[FLASH] : undefined;
  return typeof f === 'string' ? f : null;
}
