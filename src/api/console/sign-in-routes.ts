import type { FastifyPluginAsync } from 'fastify';
import { SESSION_IDLE_MS } from '../../domain/console-roles';
import { esc } from '../../render/html';
import { inputField } from '../../render/console/forms';
import { publicConsolePage } from '../../render/console/layout';
import { endSession } from '../../usecases/console/sessions';
import { consumeSignIn, countSignInAttempt, requestSignIn, signInLinkUsable } from '../../usecases/console/sign-in';
import { DEFAULT_SIGN_IN_LIMITS } from '../../domain/sign-in-limits';
import { SESSION_COOKIE } from './context';
import type { ConsoleDeps } from './deps';
import { field } from './forms';

const HTML = { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' };
/** The address the form was sent for, sealed, for the page the form redirects to (a refresh there sends nothing again). */
const SENT_COOKIE = 'vigil_sign_in_sent';
const SENT_PATH = '/console/sign-in';

/** Sign-in by an emailed one-time link: ask for it, confirm it (a button, so mail scanners that open links do not spend it), sign out. */
export const consoleSignInRoutes: FastifyPluginAsync<ConsoleDeps> = async (app, deps) => {
  app.get('/sign-in', async (request, reply) => {
    const body = `<p>Enter the email address your organization gave Vigil. We send you a link that signs you in once.</p>
<form class="stack" method="post" action="/console/sign-in">
${inputField({ name: 'email', label: 'Email address', type: 'email', required: true })}
<div><button type="submit">Email me a sign-in link</button></div>
</form>`;
    return reply.headers(HTML).send(publicConsolePage('Sign in', body));
  });

  app.post('/sign-in', async (request, reply) => {
    const email = field(request.body, 'email').slice(0, 320);
    if (email.includes('@')) {
      const count = await countSignInAttempt(
        request.em,
        email,
        request.ip,
        deps.signInLimits ?? DEFAULT_SIGN_IN_LIMITS,
        request.now,
      );
      if (count.limited) {
        const minutes = Math.ceil(count.retryAfterSeconds / 60);
        const body = `<p role="alert">Too many sign-in requests for this address or from this network. Wait ${minutes} minute${minutes === 1 ? '' : 's'}, then ask for a new link; a link already sent still works.</p><p><a href="/console/sign-in">Back</a></p>`;
        return reply
          .code(429)
          .headers({ ...HTML, 'retry-after': String(count.retryAfterSeconds) })
          .send(publicConsolePage('Please wait', body));
      }
      // Looking the address up, issuing the link and mailing it happen after the answer, so a
      // known address answers in the same time as an unknown one.
      const em = request.em.fork();
      const now = request.now;
      setImmediate(() => {
        requestSignIn(em, deps.mail, email, deps.consoleUrl, now).catch((err: unknown) =>
          request.log.error({ err }, 'sending a console sign-in link failed'),
        );
      });
    }
    reply.setCookie(SENT_COOKIE, deps.box.seal(email), {
      path: SENT_PATH,
      httpOnly: true,
      sameSite: 'lax',
      secure: deps.secureCookie,
      maxAge: 600,
    });
    return reply.code(303).headers({ 'cache-control': 'no-store' }).header('location', '/console/sign-in/sent').send();
  });

  app.get('/sign-in/sent', async (request, reply) => {
    const raw = request.cookies[SENT_COOKIE];
    let email: string | null = null;
    try {
      email = raw === undefined ? null : deps.box.open(raw);
    } catch {
      email = null; // sealed with another key, or altered: say it without the address
    }
    const who = email ? `<strong>${esc(email)}</strong>` : 'that address';
    const body = `<p role="status">If ${who} may use the console, a sign-in link is on its way. It works once, for 15 minutes.</p><p><a href="/console/sign-in">Send another</a></p>`;
    return reply.headers(HTML).send(publicConsolePage('Check your email', body));
  });

  app.get('/sign-in/:token', async (request, reply) => {
    const { token } = request.params as { token: string };
    const usable = await signInLinkUsable(request.em, token, request.now);
    const body = usable
      ? `<p>Continue to sign in to the Vigil console.</p><form method="post" action="/console/sign-in/${esc(encodeURIComponent(token))}"><button type="submit">Sign in</button></form>`
      : `<p>This sign-in link has been used or has expired. Links work once, for 15 minutes.</p><p><a href="/console/sign-in">Get a new link</a></p>`;
    return reply
      .code(usable ? 200 : 410)
      .headers(HTML)
      .send(publicConsolePage(usable ? 'Sign in' : 'Link expired', body));
  });

  app.post('/sign-in/:token', async (request, reply) => {
    const { token } = request.params as { token: string };
    const signedIn = await consumeSignIn(request.em, token, request.now);
    if (!signedIn) {
      const body = `<p>This sign-in link has been used or has expired.</p><p><a href="/console/sign-in">Get a new link</a></p>`;
      return reply.code(410).headers(HTML).send(publicConsolePage('Link expired', body));
    }
    reply.setCookie(SESSION_COOKIE, signedIn.sessionToken, {
      path: '/console',
      httpOnly: true,
      sameSite: 'lax',
      secure: deps.secureCookie,
      maxAge: Math.floor(SESSION_IDLE_MS / 1000),
    });
    return reply.code(303).header('location', '/console').send();
  });

  app.post('/sign-out', async (request, reply) => {
    const token = request.cookies[SESSION_COOKIE];
    if (token) await endSession(request.em, token, request.now);
    reply.clearCookie(SESSION_COOKIE, { path: '/console' });
    return reply.code(303).header('location', '/console/sign-in').send();
  });
};
