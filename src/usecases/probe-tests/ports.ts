/** What the probe-test use cases need from outside (implemented in src/temporal and by the API's job waiter). */

export interface ProbeTestJobRef {
  id: string;
  organization: string;
  mode: string;
  sourceType: string;
  expiresAt: Date;
}

/** How probe-test use cases reach probe-test workflows. */
export interface ProbeTestRunner {
  /**
   * Starts the job's workflow. For a cloud test it also answers `completion`, which asks Temporal
   * for the workflow's result (a long poll) and rejects when the workflow fails; the caller reads
   * the result from the job row, which the probe's activity writes (and announces) before the
   * workflow completes, so it asks only when the answer is slow to come.
   */
  run(job: ProbeTestJobRef): Promise<{ completion: (() => Promise<void>) | null }>;
  /** Tells an agent test's workflow that the result is in (starting it, if the agent was faster than the API). */
  finished(job: ProbeTestJobRef): Promise<void>;
}

/** What happened to a watched job or agent since the last `next()`. */
export interface Watch {
  /**
   * Resolves at once with the kinds of change seen since the last call (or since the watch
   * began), else with the first change within `ms`, else with `[]`.
   */
  next(ms: number): Promise<string[]>;
  /** Stops watching; a pending `next()` resolves with what it has. */
  close(): void;
}

/** Notices of changes to probe-test jobs and to what agents should run (hints only: callers re-read). */
export interface JobWatches {
  /** Changes of a job's state. */
  watchJob(jobId: string): Watch;
  /** A job queued for the agent (`pending`), or a change of the metrics it runs (`config`). */
  watchAgent(agentId: string): Watch;
}
