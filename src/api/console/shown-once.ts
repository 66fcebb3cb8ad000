import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SecretBox } from '../../crypto/secret-box';
import type { ConsoleViewer } from './context';

/**
 * A secret the console shows once (a new API key, an agent's token): it travels from the POST that
 * made it to the one GET that shows it in a cookie sealed with the installation's secret box and
 * bound to the session and the item, so post/redirect/get works without storing the secret
 * anywhere on the server. The GET clears it, so a reload, the back button or another tab find
 * nothing; unread, it dies after two minutes.
 */
export interface ShownOnce {
  /** Sets the sealed cookie on the POST's redirect. */
  put(reply: FastifyReply, v: ConsoleViewer, itemId: string, secret: string): void;
  /** Takes the secret (clearing the cookie): null when absent, for another session or another item, or tampered with. */
  take(request: FastifyRequest, reply: FastifyReply, v: ConsoleViewer, itemId: string): string | null;
}

export function shownOnce(deps: { box: SecretBox; secureCookie: boolean }, cookie: string, path: string): ShownOnce {
  return {
    put(reply, v, itemId, secret) {
      reply.setCookie(cookie, deps.box.seal(JSON.stringify({ s: v.session.sessionId, k: itemId, p: secret })), {
        path,
        httpOnly: true,
        sameSite: 'strict',
        secure: deps.secureCookie,
        maxAge: 120,
      });
    },
    take(request, reply, v, itemId) {
      const raw = request.cookies[cookie];
      if (raw === undefined) return null;
      reply.clearCookie(cookie, { path });
      try {
        const got = JSON.parse(deps.box.open(raw)) as { s?: unknown; k?: unknown; p?: unknown };
        return got.s === v.session.sessionId && got.k === itemId && typeof got.p === 'string' ? got.p : null;
      } catch {
        return null;
      }
    },
  };
}
