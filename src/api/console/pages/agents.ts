import type { FastifyPluginAsync } from 'fastify';
import type { FormProblem } from '../../../render/console/forms';
import { agentListBody, agentRegisteredBody } from '../../../render/console/pages/agents';
import { agentView, getAgent, listAgents, registerAgent } from '../../../usecases/agents/agents';
import { AgentCreateBody } from '../../schemas/agents';
import { type ConsoleViewer, requireScope, sendPage } from '../context';
import type { ConsoleDeps } from '../deps';
import { attempt, field, flashOf, listQuery, validated } from '../forms';
import { shownOnce } from '../shown-once';

const NAV = '/console/agents';
/** A new agent's token is shown once, on the page the registration redirects to (see shownOnce). */
const TOKEN_COOKIE = 'vigil_new_agent';

/** Agents: who runs the organization's agent metrics, and whether they can run probe tests; registering one (POST /v1/agents). */
export const agentPages: FastifyPluginAsync<ConsoleDeps> = async (app, deps) => {
  const tokens = shownOnce(deps, TOKEN_COOKIE, NAV);
  // The form only for roles that may register (write:config, as the API's POST /v1/agents).
  const register = (v: ConsoleViewer, name = '', problem: FormProblem | null = null) =>
    v.can('write:config') ? { csrf: v.csrf, name, problem } : null;

  app.get('/agents', async (request, reply) => {
    const v = requireScope(request, 'read:config');
    const page = await listAgents(v.ctx, listQuery(request.query, 50));
    return sendPage(reply, v, NAV, {
      title: 'Agents',
      flash: flashOf(request.query),
      body: agentListBody(page.items, page.nextCursor, v.timeZone, register(v)),
    });
  });

  // The API's registerAgent: the same use case and scope.
  app.post('/agents/new', async (request, reply) => {
    const v = requireScope(request, 'write:config');
    const name = field(request.body, 'name');
    const done = await attempt(() => registerAgent(v.ctx, validated(AgentCreateBody, { name })));
    if (!done.ok) {
      const page = await listAgents(v.ctx, listQuery({}, 50));
      return sendPage(
        reply,
        v,
        NAV,
        {
          title: 'Agents',
          body: agentListBody(page.items, page.nextCursor, v.timeZone, register(v, name, done.problem)),
        },
        done.status,
      );
    }
    tokens.put(reply, v, done.value.view.id, done.value.token);
    return reply.code(303).header('location', `/console/agents/${done.value.view.id}/registered`).send();
  });

  app.get<{ Params: { id: string } }>('/agents/:id/registered', async (request, reply) => {
    const v = requireScope(request, 'write:config');
    const agent = agentView(await getAgent(v.ctx, request.params.id), v.ctx.now);
    const token = tokens.take(request, reply, v, agent.id);
    return sendPage(reply, v, NAV, {
      title: `Agent: ${agent.name}`,
      body: agentRegisteredBody(agent, token, deps.publicBaseUrl),
    });
  });
};
