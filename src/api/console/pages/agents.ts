import type { FastifyPluginAsync } from 'fastify';
import { agentListBody } from '../../../render/console/pages/agents';
import { listAgents } from '../../../usecases/agents';
import { requireScope, sendPage } from '../context';
import type { ConsoleDeps } from '../deps';
import { flashOf, listQuery } from '../forms';

/** Agents: who runs the organization's agent metrics, and whether they can run probe tests. */
export const agentPages: FastifyPluginAsync<ConsoleDeps> = async (app) => {
  app.get('/agents', async (request, reply) => {
    const v = requireScope(request, 'read:config');
    const page = await listAgents(v.ctx, listQuery(request.query, 50));
    return sendPage(reply, v, '/console/agents', { title: 'Agents', flash: flashOf(request.query), body: agentListBody(page.items, page.nextCursor) });
  });
};
