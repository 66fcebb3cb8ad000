import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { FormProblem } from '../../../render/console/forms';
import { type RowProblem, userListBody } from '../../../render/console/pages/users';
import { inviteFromConsole } from '../../../usecases/console/invitations';
import { listOrgConsoleUsers, updateOrgConsoleUser } from '../../../usecases/console/users';
import { type ConsoleViewer, redirectWithFlash, sendPage } from '../context';
import type { ConsoleDeps } from '../deps';
import { attempt, field, flashOf, listQuery } from '../forms';
import { requireOwner } from './api-keys';

const NAV = '/console/users';

/** Console users: invite, change role, disable and enable (owners only, as the navigation says). */
export const userPages: FastifyPluginAsync<ConsoleDeps> = async (app, deps) => {
  async function listPage(
    reply: FastifyReply,
    v: ConsoleViewer,
    query: unknown,
    o: {
      invite?: { email: string; role: string };
      problem?: FormProblem | null;
      rowProblem?: RowProblem | null;
      status?: number;
    } = {},
  ) {
    const page = await listOrgConsoleUsers(v.ctx, listQuery(query, 50));
    const body = userListBody({
      users: page.items.map((u) => ({
        id: u.id,
        email: u.email,
        role: u.role,
        createdAt: u.createdAt,
        lastSignInAt: u.lastSignInAt ?? null,
        disabledAt: u.disabledAt ?? null,
      })),
      nextCursor: page.nextCursor,
      me: v.session.user.id,
      csrf: v.csrf,
      timeZone: v.timeZone,
      invite: o.invite ?? { email: '', role: 'viewer' },
      problem: o.problem ?? null,
      rowProblem: o.rowProblem ?? null,
    });
    return sendPage(reply, v, NAV, { title: 'Users', flash: o.status ? null : flashOf(query), body }, o.status ?? 200);
  }

  app.get('/users', async (request, reply) => listPage(reply, requireOwner(request), request.query));

  app.post('/users', async (request, reply) => {
    const v = requireOwner(request);
    const invite = { email: field(request.body, 'email'), role: field(request.body, 'role') };
    const done = await attempt(() => inviteFromConsole(v.ctx, deps.mail, deps.consoleUrl, invite));
    if (!done.ok) return listPage(reply, v, {}, { invite, problem: done.problem, status: done.status });
    const { user, expiresAt } = done.value;
    return redirectWithFlash(
      reply,
      NAV,
      `Invited ${user.email} as ${user.role}: the sign-in link was emailed and works once, until ${expiresAt.toISOString().slice(0, 16).replace('T', ' ')} UTC.`,
    );
  });

  async function change(
    reply: FastifyReply,
    v: ConsoleViewer,
    id: string,
    change: { role: string } | { enabled: boolean },
  ) {
    const done = await attempt(() => updateOrgConsoleUser(v.ctx, v.session.user.id, id, change));
    if (!done.ok) {
      if (done.status === 404) return listPage(reply, v, {}, { problem: done.problem, status: 404 });
      return listPage(
        reply,
        v,
        {},
        { rowProblem: { userId: id, token: done.problem.title, message: done.problem.detail }, status: done.status },
      );
    }
    const u = done.value;
    const what =
      'role' in change
        ? `${u.email} is now ${u.role}; it takes effect on their next page.`
        : change.enabled
          ? `Enabled ${u.email}: they can sign in again.`
          : `Disabled ${u.email}: their sessions have ended.`;
    return redirectWithFlash(reply, NAV, what);
  }

  app.post<{ Params: { id: string } }>('/users/:id/role', async (request, reply) =>
    change(reply, requireOwner(request), request.params.id, { role: field(request.body, 'role') }),
  );
  app.post<{ Params: { id: string } }>('/users/:id/disable', async (request, reply) =>
    change(reply, requireOwner(request), request.params.id, { enabled: false }),
  );
  app.post<{ Params: { id: string } }>('/users/:id/enable', async (request, reply) =>
    change(reply, requireOwner(request), request.params.id, { enabled: true }),
  );
};
