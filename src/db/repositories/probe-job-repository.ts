import type { EntityManager } from '@mikro-orm/postgresql';
import type { ProbeTestJob } from '../entities';
import { pgArray, rawRows, rawRun } from '../raw-sql';
import { COUNT_PROBE_TEST_UNDER_MAX } from './rate-limit-repository';

/**
 * Counts a cloud probe test in the organization's minute window and records its job, in one
 * statement: the window's count goes up only while it is under `max`, and the job is written
 * only when it did. Answers false (nothing written, nothing counted) when the window is full.
 */
export async function insertCloudProbeJob(
  em: EntityManager,
  job: ProbeTestJob,
  minuteStart: Date,
  max: number,
): Promise<boolean> {
  const rows = await rawRows<{ id: string }>(
    em,
    `with counted as (${COUNT_PROBE_TEST_UNDER_MAX})
     insert into probe_test_jobs (id, organization_id, agent_id, mode, source_type, source_config, thresholds, state, created_at, expires_at)
     select ?, ?, null, 'cloud', ?, ?::jsonb, ?::jsonb, 'running', ?, ? from counted
     returning id`,
    [
      job.organization,
      'ptest_c',
      minuteStart,
      max,
      job.id,
      job.organization,
      job.sourceType,
      JSON.stringify(job.sourceConfig),
      job.thresholds === null ? null : JSON.stringify(job.thresholds),
      job.createdAt,
      job.expiresAt,
    ],
  );
  return rows.length === 1;
}

/**
 * Finishes a job (completed with its outcome, or expired) unless it is already in one of the
 * `finalStates`: one statement without the ORM's query building, because the cloud probe
 * test's caller waits on it. An outcome of null leaves the stored one alone. Answers whether it did.
 */
export async function finishUnlessFinal(
  em: EntityManager,
  jobId: string,
  finalStates: readonly string[],
  change: { state: string; outcome: object | null; completedAt: Date },
): Promise<boolean> {
  const changed = await rawRun(
    em,
    `update probe_test_jobs set state = ?, outcome = coalesce(?::jsonb, outcome), completed_at = ? where id = ? and state <> all(?::text[])`,
    [
      change.state,
      change.outcome === null ? null : JSON.stringify(change.outcome),
      change.completedAt,
      jobId,
      pgArray(finalStates),
    ],
  );
  return changed === 1;
}
