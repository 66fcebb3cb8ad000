import type { ProbeTestJob } from '../../db/entities';
import { ProblemError } from '../../domain/error-catalog';
import { type ProbeTestResult, type ReportedOutcome, probeTestResult } from '../../domain/probe-test-result';
import type { Thresholds } from '../../domain/thresholds';
import { toIso } from '../../domain/time';

/** ProbeTestPending of spec §2.4. */
export interface ProbeTestPending {
  job_id: string;
  status: 'pending' | 'running';
  agent_id: string | null;
  expires_at: string;
  poll: string;
  detail: string;
}

export type ProbeTestAnswer = { status: 200; body: ProbeTestResult } | { status: 202; body: ProbeTestPending };

export const pollPath = (jobId: string) => `/v1/metrics/test/${jobId}`;

/** `header_refs` names a cloud check did not send: their values live on an agent host. */
export function skippedSecretHeaders(config: Record<string, unknown>): string[] {
  const refs = config.header_refs;
  return refs && typeof refs === 'object' ? Object.keys(refs) : [];
}

/** The cloud refused the target for not being public: by its address, or by an internal name. */
function refusedAsNonPublic(reason: string | null): boolean {
  return (
    reason !== null &&
    (reason.startsWith('target_not_public:') || reason === 'host_internal' || reason === 'host_not_fqdn')
  );
}

/** How a job answers, now: its result (200), still waiting (202), or the problem that ended it. Throws ProblemError. */
export function presentJob(job: ProbeTestJob, now: Date): ProbeTestAnswer {
  const mode = job.mode as 'agent' | 'cloud';
  if (job.state === 'completed' && job.outcome) {
    const outcome = job.outcome as unknown as ReportedOutcome;
    if (mode === 'cloud' && refusedAsNonPublic(outcome.reason)) {
      throw new ProblemError(
        'agent_unavailable',
        `The cloud refused a non-public target (${outcome.reason}); run the test on an agent inside that network.`,
        { reason: 'no_agent', private_url: true },
      );
    }
    return {
      status: 200,
      body: probeTestResult(outcome, {
        mode,
        jobId: job.id,
        agentId: job.agent ?? null,
        thresholds: job.thresholds as Thresholds | null,
        skippedSecretHeaders: skippedSecretHeaders(job.sourceConfig),
      }),
    };
  }
  if (job.state === 'failed') {
    throw new ProblemError('probe_test_failed', `The agent could not run the test (${job.failureReason}).`, {
      reason: job.failureReason ?? 'agent_error',
    });
  }
  if (job.state === 'expired' || now.getTime() > job.expiresAt.getTime()) {
    throw new ProblemError('probe_test_expired', `The agent did not answer by ${toIso(job.expiresAt)}.`);
  }
  return {
    status: 202,
    body: {
      job_id: job.id,
      status: job.state === 'running' ? 'running' : 'pending',
      agent_id: job.agent ?? null,
      expires_at: toIso(job.expiresAt),
      poll: pollPath(job.id),
      detail: job.state === 'running' ? 'The agent is running the test.' : 'Waiting for the agent to pick the test up.',
    },
  };
}
