import type { ProbeTestJob } from '../../db/entities';
import type { OrgContext } from '../shared/context';
import { createProbeTestJob, getProbeTestJob, isFinal, loadJob } from './jobs';
import type { LocalProbeJobs } from './local-jobs';
import type { JobWatches, ProbeTestRunner } from './ports';
import { type ProbeTestAnswer, presentJob } from './present';
import { parseProbeTestRequest } from './request';

export interface ProbeTestDeps {
  runner: ProbeTestRunner;
  watches: JobWatches;
  /** How long an agent has to answer (spec: 2 minutes; shorter in tests). */
  expiryMs: number;
  /** When a worker runs in this process: cloud jobs handed to it, and their results handed back, directly. */
  localJobs?: LocalProbeJobs;
}

/** How long a cloud test waits for its answer before also asking Temporal whether the workflow failed. */
const RESULT_WATCH_AFTER_MS = 250;

/** Calls `f` after `ms` unless canceled first (the promise then never settles). */
function later<T>(ms: number, f: () => Promise<T>): { promise: Promise<T>; cancel: () => void } {
  let timer: NodeJS.Timeout | undefined;
  const promise = new Promise<T>((resolve, reject) => {
    timer = setTimeout(() => void f().then(resolve, reject), ms);
  });
  return { promise, cancel: () => clearTimeout(timer) };
}

/**
 * POST /metrics/test (spec §4.1): reads the request (§7.2's tokens, in order), records the job,
 * starts its workflow and waits for the answer: a cloud test until its probe has run (bounded by
 * the job's expiry), an agent test up to `wait_seconds`, then 202 with `poll`. Throws the
 * ProblemError a refused or failed test answers.
 */
export async function runProbeTest(ctx: OrgContext, deps: ProbeTestDeps, body: unknown): Promise<ProbeTestAnswer> {
  const req = parseProbeTestRequest(body);
  const job = await createProbeTestJob(ctx, req, deps.expiryMs);
  const deadline = job.mode === 'cloud' ? job.expiresAt.getTime() : Date.now() + req.waitSeconds * 1000;
  // Watched before the workflow starts, so no change of the job is missed.
  const watch = deps.watches.watchJob(job.id);
  const local = job.mode === 'cloud' ? deps.localJobs?.offer(job) : undefined;
  let current = job;
  let cancelFailureWatch: (() => void) | undefined;
  try {
    const { completion } = await deps.runner.run(job);
    // A failed cloud workflow never finishes the job: its error is the answer (500). Asking
    // Temporal for the result is a long poll per test, so only a test still unanswered after a
    // moment asks; most have answered by then.
    const failureWatch = completion ? later(RESULT_WATCH_AFTER_MS, completion) : null;
    cancelFailureWatch = failureWatch?.cancel;
    let settled = failureWatch?.promise.then(
      () => ({ err: null }),
      (err: unknown) => ({ err }),
    );
    let handedBack = local?.finished.then((finished: ProbeTestJob) => ({ finished }));
    // wait_seconds 0 asks not to wait: the answer is the queued job (202 with `poll`), even when a
    // quick agent has already answered by now.
    const waits = job.mode === 'cloud' || req.waitSeconds > 0;
    // A cloud job was created running a moment ago, and the watch has seen every change since.
    let known = job.mode === 'cloud';
    while (waits) {
      if (!known) current = (await loadJob(ctx.em.fork(), job.id)) ?? current;
      known = false;
      if (isFinal(current, new Date()) || Date.now() >= deadline) break;
      const woke = await Promise.race([
        watch.next(deadline - Date.now()).then((kinds) => ({ kinds })),
        ...(settled ? [settled] : []),
        ...(handedBack ? [handedBack] : []),
      ]);
      if ('kinds' in woke) {
        // The cloud job's own insert (state running) tells nothing new: no re-read for it.
        known = job.mode === 'cloud' && woke.kinds.length > 0 && woke.kinds.every((k) => k === 'running');
      } else if ('finished' in woke) {
        current = woke.finished;
        known = true;
        handedBack = undefined;
      } else {
        if (woke.err) throw woke.err;
        settled = undefined;
      }
    }
  } finally {
    watch.close();
    local?.withdraw();
    cancelFailureWatch?.();
  }
  return presentJob(current, new Date());
}

/** GET on a pending test's `poll` path: its result, still waiting (202), or the problem that ended it. */
export async function pollProbeTest(ctx: OrgContext, jobId: string): Promise<ProbeTestAnswer> {
  return presentJob(await getProbeTestJob(ctx, jobId), new Date());
}
