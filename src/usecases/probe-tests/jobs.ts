import { randomUUID } from 'node:crypto';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { type Agent, AgentSchema, type ProbeTestJob, ProbeTestJobSchema } from '../../db/entities';
import { finishUnlessFinal, insertCloudProbeJob } from '../../db/repositories/probe-job-repository';
import { countProbeTestUnder } from '../../db/repositories/rate-limit-repository';
import { MIN_AGENT_VERSION, unavailableReason } from '../../domain/agent-status';
import { ProblemError, notFound } from '../../domain/error-catalog';
import { isUuid } from '../../domain/ids';
import { normalizeReason } from '../../domain/reason-codes';
import { CLOUD_TESTABLE_SOURCE_TYPES } from '../../domain/source-types';
import type { OrgContext } from '../shared/context';
import type { ProbeTestRequest } from './request';

/** Spec §8: probe tests per organization and minute, and jobs waiting per agent. */
export const PROBE_TEST_LIMITS = { agentPerMinute: 30, cloudPerMinute: 20, queuePerAgent: 20 } as const;

const FINAL = ['completed', 'failed', 'expired'];

/**
 * Checks that the test can run now and records its job: the agent (404, 409 with the reason),
 * the organization's probe-test limit (429 rate_limited) and the agent's queue (429 queue_full).
 * Agent jobs start pending (the agent claims them); cloud jobs start running.
 */
export async function createProbeTestJob(
  ctx: OrgContext,
  req: ProbeTestRequest,
  expiryMs: number,
): Promise<ProbeTestJob> {
  const mode = req.agentId ? 'agent' : 'cloud';
  if (mode === 'cloud' && !CLOUD_TESTABLE_SOURCE_TYPES.includes(req.sourceType)) {
    throw new ProblemError(
      'agent_unavailable',
      `Only public HTTP checks run from the cloud; pass agent_id to run a ${req.sourceType} test on an agent.`,
      { reason: 'no_agent', private_url: false },
    );
  }
  const minuteStart = new Date(Math.floor(ctx.now.getTime() / 60_000) * 60_000);
  if (mode === 'cloud') return createCloudJob(ctx, req, expiryMs, minuteStart);
  const agentId = req.agentId!;
  return ctx.em.transactional(async (em) => {
    // Locked so that concurrent tests cannot both slip under the queue limit.
    const agent = await em.findOne(
      AgentSchema,
      { id: agentId, organization: ctx.org.id },
      { lockMode: LockMode.PESSIMISTIC_WRITE },
    );
    if (!agent) throw new ProblemError('agent_not_found', 'No agent with that id in this organization.');
    const reason = unavailableReason(agent, ctx.now);
    if (reason) {
      // An outdated agent is told which version it needs (spec §7.2: "outdated (below min_agent_version)").
      const minimum = reason === 'outdated' ? { min_agent_version: MIN_AGENT_VERSION } : {};
      throw new ProblemError('agent_unavailable', agentUnavailableDetail(reason, agent.version ?? null), {
        reason,
        private_url: false,
        ...minimum,
      });
    }
    // Waiting for the agent's answer: queued, or taken by a poll and not answered yet.
    const waiting = await em.count(ProbeTestJobSchema, {
      agent: agent.id,
      state: { $in: ['pending', 'running'] },
      expiresAt: { $gt: ctx.now },
    });
    if (waiting >= PROBE_TEST_LIMITS.queuePerAgent) {
      const retryAfter = 5;
      // Every 429 carries `limit` (spec §8). The spec's limit object knows only the organization
      // scope and minute/day windows: max is the agent's queue size (see docs/decisions.md).
      const limit = {
        scope: 'organization',
        window: 'minute',
        max: PROBE_TEST_LIMITS.queuePerAgent,
        plan: ctx.org.plan.id,
      } as const;
      throw new ProblemError(
        'queue_full',
        `The agent already has ${waiting} probe tests waiting; retry in ${retryAfter} s.`,
        { retry_after: retryAfter, limit },
        { 'retry-after': String(retryAfter) },
      );
    }
    // Counted last, so a test refused for any reason is never counted; in a statement of its own,
    // so the organization's counter row is not held locked until this transaction ends.
    const max = PROBE_TEST_LIMITS.agentPerMinute;
    if (!(await countProbeTestUnder(ctx.em.fork(), ctx.org.id, 'ptest_a', minuteStart, max)))
      throw probeTestsLimited(ctx, 'agent', max, minuteStart);
    const job = em.create(ProbeTestJobSchema, newJob(ctx, req, expiryMs, agent.id));
    await em.flush();
    return job;
  });
}

/**
 * A cloud job: counted and recorded in one statement, no transaction (it is the caller's wait
 * that the probe-test latency is made of). Cloud jobs start running: the worker runs them at once.
 */
async function createCloudJob(
  ctx: OrgContext,
  req: ProbeTestRequest,
  expiryMs: number,
  minuteStart: Date,
): Promise<ProbeTestJob> {
  const job = newJob(ctx, req, expiryMs, null);
  const max = PROBE_TEST_LIMITS.cloudPerMinute;
  if (!(await insertCloudProbeJob(ctx.em, job, minuteStart, max)))
    throw probeTestsLimited(ctx, 'cloud', max, minuteStart);
  return job;
}

/** A new job: an agent's waits to be claimed (pending), a cloud one runs at once. */
function newJob(ctx: OrgContext, req: ProbeTestRequest, expiryMs: number, agentId: string | null): ProbeTestJob {
  return {
    id: randomUUID(),
    organization: ctx.org.id,
    agent: agentId,
    mode: agentId ? 'agent' : 'cloud',
    sourceType: req.sourceType,
    sourceConfig: req.sourceConfig,
    thresholds: (req.thresholds as Record<string, unknown> | null) ?? null,
    state: agentId ? 'pending' : 'running',
    outcome: null,
    failureReason: null,
    createdAt: ctx.now,
    claimedAt: null,
    claimedSession: null,
    requeuedAt: null,
    completedAt: null,
    expiresAt: new Date(ctx.now.getTime() + expiryMs),
  };
}

function probeTestsLimited(ctx: OrgContext, mode: string, max: number, minuteStart: Date): ProblemError {
  const retryAfter = Math.max(1, Math.ceil((minuteStart.getTime() + 60_000 - ctx.now.getTime()) / 1000));
  return new ProblemError(
    'rate_limited',
    `The organization may run ${max} ${mode} probe tests per minute; retry in ${retryAfter} s.`,
    { retry_after: retryAfter, limit: { scope: 'organization', window: 'minute', max, plan: ctx.org.plan.id } },
    { 'retry-after': String(retryAfter) },
  );
}

function agentUnavailableDetail(reason: string, version: string | null): string {
  switch (reason) {
    case 'revoked':
      return 'The agent has been revoked.';
    case 'never_connected':
      return 'The agent has never connected: start it with its token.';
    case 'offline':
      return 'The agent is offline: it has not been heard from in the last minute.';
    default:
      return `The agent runs version ${version ?? 'unknown'}; probe tests need ${MIN_AGENT_VERSION} or later.`;
  }
}

export async function getProbeTestJob(ctx: OrgContext, id: string): Promise<ProbeTestJob> {
  const job = isUuid(id) ? await ctx.em.findOne(ProbeTestJobSchema, { id, organization: ctx.org.id }) : null;
  if (!job) throw notFound('Probe test');
  return job;
}

/**
 * Hands the agent up to `max` of its waiting jobs (now running); other pollers skip them.
 * `session` names the agent process that takes them (null when it sends none).
 */
export async function claimJobs(
  em: EntityManager,
  agent: Agent,
  now: Date,
  max = 10,
  session: string | null = null,
): Promise<ProbeTestJob[]> {
  return em.transactional(async (tx) => {
    const jobs = await tx.find(
      ProbeTestJobSchema,
      { agent: agent.id, state: 'pending', expiresAt: { $gt: now } },
      { orderBy: { createdAt: 'asc' }, limit: max, lockMode: LockMode.PESSIMISTIC_PARTIAL_WRITE },
    );
    for (const j of jobs) {
      j.state = 'running';
      j.claimedAt = now;
      j.claimedSession = session;
    }
    await tx.flush();
    return jobs;
  });
}

/**
 * A new process of the agent (heartbeat with another `session`) took over: the jobs an earlier
 * process took and never answered will never be answered by it (it died holding them, or was
 * replaced). They go back to the agent's queue, to be taken by the new process's next long poll
 * (the state change wakes it), while there is time left before their expiry. A job goes back
 * once at most, so a job that kills the agent every time it runs cannot crash-loop it: the second
 * time it simply expires (504). Answers how many went back.
 */
export async function requeueJobsOfReplacedSession(
  em: EntityManager,
  agentId: string,
  session: string,
  now: Date,
): Promise<number> {
  return em.nativeUpdate(
    ProbeTestJobSchema,
    {
      agent: agentId,
      state: 'running',
      requeuedAt: null,
      expiresAt: { $gt: now },
      $or: [{ claimedSession: null }, { claimedSession: { $ne: session } }],
    },
    { state: 'pending', claimedAt: null, claimedSession: null, requeuedAt: now },
  );
}

export interface AgentReport {
  outcome?: {
    value: number | null;
    unit: string | null;
    value_description?: string | null;
    reason: string | null;
    duration_ms: number;
  };
  /** The agent could not run the test at all (its error code). */
  error?: { reason: string };
}

/**
 * Stores what the agent reported for one of its jobs. Only the result fields are kept (no
 * metadata, bodies or headers). A job already final is left as it is (the report is late or
 * repeated); answers whether this report finished the job.
 */
export async function completeJob(
  em: EntityManager,
  agent: Agent,
  jobId: string,
  report: AgentReport,
  now: Date,
): Promise<{ job: ProbeTestJob; finished: boolean }> {
  return em.transactional(async (tx) => {
    const job = isUuid(jobId)
      ? await tx.findOne(ProbeTestJobSchema, { id: jobId, agent: agent.id }, { lockMode: LockMode.PESSIMISTIC_WRITE })
      : null;
    if (!job) throw notFound('Job');
    if (FINAL.includes(job.state)) return { job, finished: false };
    if (now.getTime() > job.expiresAt.getTime()) {
      job.state = 'expired';
    } else if (report.error) {
      job.state = 'failed';
      job.failureReason = normalizeReason(report.error.reason);
    } else if (report.outcome) {
      const o = report.outcome;
      job.state = 'completed';
      job.outcome = {
        value: o.value,
        unit: o.unit,
        value_description: o.value_description ?? null,
        reason: o.reason,
        duration_ms: o.duration_ms,
      };
    }
    job.completedAt = now;
    await tx.flush();
    return { job, finished: true };
  });
}

/** Cloud runs store their outcome here (the activity); idempotent. Answers the change it made, null when the job was already final. */
export async function storeCloudOutcome(
  em: EntityManager,
  jobId: string,
  outcome: NonNullable<AgentReport['outcome']>,
  now: Date,
): Promise<Pick<ProbeTestJob, 'state' | 'outcome' | 'completedAt'> | null> {
  const change = {
    state: 'completed',
    outcome: { ...outcome, value_description: outcome.value_description ?? null },
    completedAt: now,
  };
  return (await finishUnlessFinal(em, jobId, FINAL, change)) ? change : null;
}

/** The workflow's deadline passed: a job not finished by then is expired. Idempotent. */
export async function expireJob(em: EntityManager, jobId: string, now: Date): Promise<void> {
  await finishUnlessFinal(em, jobId, FINAL, { state: 'expired', outcome: null, completedAt: now });
}

export async function loadJob(em: EntityManager, jobId: string): Promise<ProbeTestJob | null> {
  return em.findOne(ProbeTestJobSchema, jobId);
}

export function isFinal(job: ProbeTestJob, now: Date): boolean {
  return FINAL.includes(job.state) || now.getTime() > job.expiresAt.getTime();
}
