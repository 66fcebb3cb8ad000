import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { agentView, getAgent, listAgents, registerAgent, revokeAgent } from '../../usecases/agents/agents';
import { routeDoc } from '../route-doc';
import { BODY_ERRORS, IdParams, ListQuery, pageSchema } from '../schemas/common';
import { AgentCreateBody, AgentSchema, AgentWithTokenSchema } from '../schemas/agents';

const tag = 'Agents';

export const agentRoutes: FastifyPluginAsyncZod = async (app) => {
  {
    const { errorResponses, ...doc } = routeDoc('listAgents', {
      summary: 'List agents',
      tag,
      errors: ['validation_failed'],
    });
    app.get(
      '/agents',
      { schema: { ...doc, querystring: ListQuery, response: { 200: pageSchema(AgentSchema), ...errorResponses } } },
      async (request) => {
        const page = await listAgents(request.orgContext(), request.query);
        return { items: page.items, next_cursor: page.nextCursor };
      },
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('getAgent', { summary: 'Read an agent', tag, errors: ['not_found'] });
    app.get(
      '/agents/:id',
      { schema: { ...doc, params: IdParams, response: { 200: AgentSchema, ...errorResponses } } },
      async (request) => agentView(await getAgent(request.orgContext(), request.params.id), request.now),
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('registerAgent', {
      summary: 'Register an agent',
      tag,
      errors: [...BODY_ERRORS],
    });
    app.post(
      '/agents',
      { schema: { ...doc, body: AgentCreateBody, response: { 201: AgentWithTokenSchema, ...errorResponses } } },
      async (request, reply) => {
        const { view, token } = await registerAgent(request.orgContext(), request.body);
        reply.code(201);
        return { ...view, token };
      },
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('revokeAgent', {
      summary: 'Revoke an agent',
      tag,
      errors: ['not_found', 'already_revoked'],
    });
    app.post(
      '/agents/:id/revoke',
      { schema: { ...doc, params: IdParams, response: { 200: AgentSchema, ...errorResponses } } },
      async (request) => revokeAgent(request.orgContext(), request.params.id),
    );
  }
};
