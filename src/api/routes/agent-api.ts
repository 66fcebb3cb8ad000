import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { toIso } from '../../domain/time';
import type { JobWatches, ProbeTestRunner } from '../../usecases/probe-tests/ports';
import { type Agent, authenticateAgent, touchAgent } from '../../usecases/agents/agents';
import { noteAgentSession, pollAgentJobs, postAgentJobResult } from '../../usecases/probe-tests/agent-jobs';
import { routeDoc } from '../route-doc';
import { BODY_ERRORS } from '../schemas/common';
import {
  AgentConfigSchema,
  AgentJobSchema,
  HeartbeatAnswer,
  HeartbeatBody,
  JobParams,
  JobResultBody,
  PollQuery,
  SamplesAnswer,
} from '../schemas/agents';
import { AgentSamplesBody } from '../schemas/metrics';
import { agentConfig, ingestAgentSamples } from '../../usecases/metrics/agent-metrics';
import { z } from 'zod';

const tag = 'Agent protocol';

declare module 'fastify' {
  interface FastifyRequest {
    agent: Agent | null;
  }
}

/**
 * What the Vigil agent calls, with its agent token: heartbeat, long-poll for jobs, post results.
 * The agent talks to this API only, never to Temporal or PostgreSQL.
 */
export const agentApiRoutes: FastifyPluginAsyncZod<{
  runner: ProbeTestRunner;
  waiter: JobWatches;
  sampleMaxAgeMs?: number;
}> = async (app, opts) => {
  app.decorateRequest('agent', null);
  // Before the body is validated: an unauthenticated caller learns nothing about the protocol.
  app.addHook('onRequest', async (request) => {
    const agent = await authenticateAgent(request.em, request.headers.authorization);
    request.agent = agent;
    request.log = request.log.child({ organization_id: agent.organization, agent_id: agent.id });
  });
  {
    const { errorResponses, ...doc } = routeDoc('agentHeartbeat', {
      summary: 'Agent heartbeat',
      tag,
      errors: [...BODY_ERRORS],
    });
    app.post(
      '/agent/heartbeat',
      { schema: { ...doc, body: HeartbeatBody, response: { 200: HeartbeatAnswer, ...errorResponses } } },
      async (request) => {
        const agent = request.agent!;
        await touchAgent(request.em, agent, request.now, request.body);
        await noteAgentSession(request.em, agent, request.body.session, request.now, request.log);
        return {
          agent_id: agent.id,
          organization_id: agent.organization,
          server_time: toIso(request.now),
          jobs_url: '/v1/agent/jobs',
        };
      },
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('pollAgentJobs', {
      summary: 'Long-poll for jobs',
      tag,
      errors: ['validation_failed'],
    });
    app.get(
      '/agent/jobs',
      {
        schema: {
          ...doc,
          querystring: PollQuery,
          response: {
            200: z.object({
              jobs: z.array(AgentJobSchema),
              config_changed: z.boolean().describe('The metrics this agent runs changed: refetch /v1/agent/config'),
            }),
            ...errorResponses,
          },
        },
      },
      async (request, reply) => {
        const agent = request.agent!;
        await touchAgent(request.em, agent, request.now);
        let closed = false;
        reply.raw.once('close', () => (closed = true));
        return pollAgentJobs(
          request.em,
          { watches: opts.waiter },
          agent,
          {
            waitSeconds: request.query.wait_seconds ?? 25,
            configVersion: request.query.config_version,
            session: request.query.session,
          },
          () => closed,
        );
      },
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('getAgentConfig', {
      summary: 'The metrics this agent runs',
      tag,
    });
    app.get(
      '/agent/config',
      { schema: { ...doc, response: { 200: AgentConfigSchema, ...errorResponses } } },
      async (request) => agentConfig(request.em, request.agent!),
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('postAgentSamples', {
      summary: 'Post samples',
      tag,
      errors: [...BODY_ERRORS],
    });
    app.post(
      '/agent/samples',
      { schema: { ...doc, body: AgentSamplesBody, response: { 200: SamplesAnswer, ...errorResponses } } },
      async (request) => {
        const agent = request.agent!;
        const res = await ingestAgentSamples(
          request.em,
          app.platform.samples,
          agent,
          request.body.samples,
          request.now,
          opts.sampleMaxAgeMs,
        );
        await touchAgent(request.em, agent, request.now);
        return res;
      },
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('postAgentJobResult', {
      summary: 'Post a job result',
      tag,
      errors: [...BODY_ERRORS, 'not_found'],
    });
    app.post(
      '/agent/jobs/:jobId/result',
      {
        schema: {
          ...doc,
          params: JobParams,
          body: JobResultBody,
          response: { 200: z.object({ accepted: z.boolean() }), ...errorResponses },
        },
      },
      async (request) => {
        return {
          accepted: await postAgentJobResult(
            request.em,
            opts,
            request.agent!,
            request.params.jobId,
            request.body,
            request.now,
            request.log,
          ),
        };
      },
    );
  }
};
