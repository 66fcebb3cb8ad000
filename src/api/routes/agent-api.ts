import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Agent } from '../../db/entities';
import { toIso } from '../../domain/time';
import type { ProbeTestRunner } from '../../temporal/probe-test-runner';
import { authenticateAgent, touchAgent } from '../../usecases/agents';
import { claimJobs, completeJob } from '../../usecases/probe-tests/jobs';
import type { JobWaiter } from '../job-waiter';
import { routeDoc } from '../route-doc';
import { BODY_ERRORS } from '../schemas/common';
import { AgentConfigSchema, AgentJobSchema, HeartbeatAnswer, HeartbeatBody, JobParams, JobResultBody, PollQuery, SamplesAnswer } from '../schemas/agents';
import { AgentSamplesBody } from '../schemas/metrics';
import { agentConfig, currentConfigVersion, ingestAgentSamples } from '../../usecases/metrics/agent-metrics';
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
export const agentApiRoutes: FastifyPluginAsyncZod<{ runner: ProbeTestRunner; waiter: JobWaiter }> = async (app, opts) => {
  app.decorateRequest('agent', null);
  // Before the body is validated: an unauthenticated caller learns nothing about the protocol.
  app.addHook('onRequest', async (request) => {
    const agent = await authenticateAgent(request.em, request.headers.authorization);
    request.agent = agent;
    request.log = request.log.child({ organization_id: agent.organization, agent_id: agent.id });
  });
  {
    const { errorResponses, ...doc } = routeDoc('agentHeartbeat', { summary: 'Agent heartbeat', tag, description: 'Reports the agent version and host; every 15 s.', errors: [...BODY_ERRORS] });
    app.post('/agent/heartbeat', { schema: { ...doc, body: HeartbeatBody, response: { 200: HeartbeatAnswer, ...errorResponses } } }, async (request) => {
      const agent = request.agent!;
      await touchAgent(request.em, agent, request.now, request.body);
      return { agent_id: agent.id, organization_id: agent.organization, server_time: toIso(request.now), jobs_url: '/v1/agent/jobs' };
    });
  }
  {
    const { errorResponses, ...doc } = routeDoc('pollAgentJobs', {
      summary: 'Long-poll for jobs',
      tag,
      description: 'Answers at once with the jobs waiting for this agent (now running), or waits up to `wait_seconds` for one.',
      errors: ['validation_failed'],
    });
    app.get('/agent/jobs', { schema: { ...doc, querystring: PollQuery, response: { 200: z.object({ jobs: z.array(AgentJobSchema), config_changed: z.boolean().describe('The metrics this agent runs changed: refetch /v1/agent/config') }), ...errorResponses } } }, async (request, reply) => {
      const agent = request.agent!;
      await touchAgent(request.em, agent, request.now);
      const deadline = Date.now() + (request.query.wait_seconds ?? 25) * 1000;
      // An agent that went away must not be handed jobs: they would wait for it until they expire.
      let closed = false;
      reply.raw.once('close', () => (closed = true));
      // Watched before the first read, so a job queued or a config changed in between still wakes the poll.
      const watch = opts.waiter.watchAgent(agent.id);
      try {
        let configChanged = request.query.config_version !== undefined && request.query.config_version !== (await currentConfigVersion(request.em, agent));
        for (;;) {
          if (closed) return { jobs: [], config_changed: configChanged };
          const jobs = await claimJobs(request.em.fork(), agent, new Date());
          if (jobs.length || configChanged || closed || Date.now() >= deadline) {
            return { jobs: jobs.map((j) => ({ job_id: j.id, source_type: j.sourceType, source_config: j.sourceConfig, expires_at: toIso(j.expiresAt) })), config_changed: configChanged };
          }
          if ((await watch.next(Math.min(deadline - Date.now(), 5_000))).includes('config')) configChanged = true;
        }
      } finally {
        watch.close();
      }
    });
  }
  {
    const { errorResponses, ...doc } = routeDoc('getAgentConfig', {
      summary: 'The metrics this agent runs',
      tag,
      description: 'Each with its source_config and interval; refetch when a long poll answers `config_changed: true`.',
    });
    app.get('/agent/config', { schema: { ...doc, response: { 200: AgentConfigSchema, ...errorResponses } } }, async (request) => agentConfig(request.em, request.agent!));
  }
  {
    const { errorResponses, ...doc } = routeDoc('postAgentSamples', {
      summary: 'Post samples',
      tag,
      description: 'A batch of the agent’s measurements (up to 5,000). Samples of metrics the agent does not run are rejected one by one (listed in the answer).',
      errors: [...BODY_ERRORS],
    });
    app.post('/agent/samples', { schema: { ...doc, body: AgentSamplesBody, response: { 200: SamplesAnswer, ...errorResponses } } }, async (request) => {
      const agent = request.agent!;
      const res = await ingestAgentSamples(request.em, app.platform.samples, agent, request.body.samples, request.now);
      await touchAgent(request.em, agent, request.now);
      return res;
    });
  }
  {
    const { errorResponses, ...doc } = routeDoc('postAgentJobResult', {
      summary: 'Post a job result',
      tag,
      description: 'The probe outcome (value, unit, reason, duration) or the error that kept the agent from running it. Repeats and late results are accepted and ignored.',
      errors: [...BODY_ERRORS, 'not_found'],
    });
    app.post('/agent/jobs/:jobId/result', { schema: { ...doc, params: JobParams, body: JobResultBody, response: { 200: z.object({ accepted: z.boolean() }), ...errorResponses } } }, async (request) => {
      const { job, finished } = await completeJob(request.em, request.agent!, request.params.jobId, request.body, request.now);
      if (finished) {
        try {
          await opts.runner.finished(job);
        } catch (err) {
          request.log.warn({ err, job_id: job.id }, 'could not signal the probe-test workflow; it expires on its own');
        }
      }
      return { accepted: finished };
    });
  }
};
