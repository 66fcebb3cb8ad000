import type { EntityManager } from '@mikro-orm/postgresql';
import { ApplicationFailure } from '@temporalio/activity';
import type { Orm } from '../db/orm';
import { cloudAddressCheck } from '../probes/cloud-guard';
import { cloudResolver } from '../probes/cloud-resolver';
import { type ProbeRegistry, runProbe } from '../probes/run-probe';
import { expireJob, loadJob, storeCloudOutcome } from '../usecases/probe-tests/jobs';

export interface ProberDeps {
  registry: ProbeRegistry;
  /** CLOUD_PROBE_ALLOW_CIDRS: addresses the cloud prober may reach although not public (tests only). */
  allowCidrs?: string;
  /** CLOUD_PROBE_RESOLVER: the DNS server the cloud prober asks (ip or ip:port); the system's when empty. */
  resolver?: string;
  defaultTimeoutMs: number;
}

export function createProbeTestActivities(deps: { orm: Orm; prober?: ProberDeps }) {
  const em = () => deps.orm.em.fork() as EntityManager;
  return {
    /** Runs a cloud probe test once and stores its outcome; a job already final is left alone. */
    async runCloudProbeTest(input: { jobId: string }): Promise<void> {
      if (!deps.prober) throw ApplicationFailure.nonRetryable('This worker was started without the cloud prober', 'not_configured');
      const job = await loadJob(em(), input.jobId);
      if (!job || job.state !== 'running') return;
      const outcome = await runProbe(deps.prober.registry, job.sourceType, job.sourceConfig, {
        mode: 'cloud',
        // The cloud holds no secrets: every *_ref resolves to nothing.
        env: () => undefined,
        defaultTimeoutMs: deps.prober.defaultTimeoutMs,
        deadlineMs: 30_000,
        checkAddress: cloudAddressCheck(deps.prober.allowCidrs),
        ...(deps.prober.resolver ? { resolveHost: cloudResolver(deps.prober.resolver) } : {}),
      });
      await storeCloudOutcome(em(), input.jobId, outcome, new Date());
    },
    async expireProbeTest(input: { jobId: string }): Promise<void> {
      await expireJob(em(), input.jobId, new Date());
    },
  };
}
