import type { FastifyPluginAsync } from 'fastify';
import { settingsBody } from '../../../render/console/pages/settings';
import { setConsoleTimeZone } from '../../../usecases/console/settings';
import { redirectWithFlash, requireScope, sendPage } from '../context';
import type { ConsoleDeps } from '../deps';
import { attempt, field, flashOf } from '../forms';

/** The signed-in user's own settings: time zone. Any role may change their own. */
export const settingsPages: FastifyPluginAsync<ConsoleDeps> = async (app) => {
  app.get('/settings', async (request, reply) => {
    const v = requireScope(request, 'read:metrics');
    const zone = v.session.user.timeZone ?? null;
    const body = settingsBody({
      csrf: v.csrf,
      email: v.session.user.email,
      timeZone: zone,
      chosen: zone ?? '',
      now: v.ctx.now.toISOString(),
    });
    return sendPage(reply, v, '/console/settings', { title: 'Settings', flash: flashOf(request.query), body });
  });

  app.post('/settings', async (request, reply) => {
    const v = requireScope(request, 'read:metrics');
    const posted = field(request.body, 'time_zone');
    const r = await attempt(() => setConsoleTimeZone(v.ctx.em, v.session.user.id, posted));
    if (r.ok)
      return redirectWithFlash(
        reply,
        '/console/settings',
        r.value ? `Times are now shown in ${r.value}.` : "Times are now shown in your browser's time zone.",
      );
    const zone = v.session.user.timeZone ?? null;
    const body = settingsBody({
      csrf: v.csrf,
      email: v.session.user.email,
      timeZone: zone,
      chosen: posted,
      now: v.ctx.now.toISOString(),
      problem: r.problem,
    });
    return sendPage(reply, v, '/console/settings', { title: 'Settings', body }, r.status);
  });
};
