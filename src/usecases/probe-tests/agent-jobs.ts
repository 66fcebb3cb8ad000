import type { EntityManager } from '@mikro-orm/postgresql';
import type { Agent } from '../../db/entities';
import { toIso } from '../../domain/time';
import type { UseCaseLog } from '../shared/context';
import { currentConfigVersion } from '../metrics/agent-metrics';
import { type AgentReport, claimJobs, completeJob, requeueJobsOfReplacedSession } from './jobs';
import type { JobWatches, ProbeTestRunner } from './ports';

export interface AgentJob {
  job_id: string;
  source_type: string;
  source_config: Record<string, unknown>;
  expires_at: string;
}

/**
 * The agent's long poll: answers at once with the jobs waiting for it (now running) or with a
 * change of its metrics, else waits up to `waitSeconds` for either. `gone()` says the agent hung
 * up: it is then handed nothing, since jobs handed to nobody would wait until they expire.
 */
export async function pollAgentJobs(
  em: EntityManager,
  deps: { watches: JobWatches },
  agent: Agent,
  q: { waitSeconds: number; configVersion?: string; session?: string },
  gone: () => boolean,
): Promise<{ jobs: AgentJob[]; config_changed: boolean }> {
  const deadline = Date.now() + q.waitSeconds * 1000;
  // Watched before the first read, so a job queued or a config changed in between still wakes the poll.
  const watch = deps.watches.watchAgent(agent.id);
  try {
    let configChanged = q.configVersion !== undefined && q.configVersion !== (await currentConfigVersion(em, agent));
    for (;;) {
      if (gone()) return { jobs: [], config_changed: configChanged };
      const jobs = await claimJobs(em.fork(), agent, new Date(), 10, q.session ?? null);
      if (jobs.length || configChanged || gone() || Date.now() >= deadline) {
        return {
          jobs: jobs.map((j) => ({
            job_id: j.id,
            source_type: j.sourceType,
            source_config: j.sourceConfig,
            expires_at: toIso(j.expiresAt),
          })),
          config_changed: configChanged,
        };
      }
      if ((await watch.next(Math.min(deadline - Date.now(), 5_000))).includes('config')) configChanged = true;
    }
  } finally {
    watch.close();
  }
}

/**
 * The heartbeat's `session` names the agent process. When it is not the one heard from last, a
 * new process has replaced the old one (a restart, or a crash): the jobs the old process took
 * and never answered go back to the queue for the new one (see requeueJobsOfReplacedSession).
 * Heartbeats without a session (older agents, hand-written clients) change nothing.
 */
export async function noteAgentSession(
  em: EntityManager,
  agent: Agent,
  session: string | undefined,
  now: Date,
  log: UseCaseLog,
): Promise<void> {
  if (!session || session === agent.session) return;
  const previous = agent.session ?? null;
  agent.session = session;
  await em.flush();
  const requeued = await requeueJobsOfReplacedSession(em, agent.id, session, now);
  if (requeued)
    log.warn(
      { agent_id: agent.id, previous_session: previous, session, requeued },
      'a new agent process took over: the jobs the previous one held went back to the queue',
    );
}

/**
 * Stores what the agent reported for one of its jobs and tells the job's workflow; repeats and
 * late results are accepted and ignored. Answers whether this report finished the job.
 */
export async function postAgentJobResult(
  em: EntityManager,
  deps: { runner: ProbeTestRunner },
  agent: Agent,
  jobId: string,
  report: AgentReport,
  now: Date,
  log: UseCaseLog,
): Promise<boolean> {
  const { job, finished } = await completeJob(em, agent, jobId, report, now);
  if (finished) {
    try {
      await deps.runner.finished(job);
    } catch (err) {
      log.warn({ err, job_id: job.id }, 'could not signal the probe-test workflow; it expires on its own');
    }
  }
  return finished;
}
