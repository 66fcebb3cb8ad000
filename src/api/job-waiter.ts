import type { ChangeFeed } from '../db/change-feed';

type Wake = (kind?: string) => void;

export interface JobWatch {
  next(ms: number): Promise<void>;
  close(): void;
}

/**
 * Wakes API requests that wait on probe-test jobs: a poster waiting for its job to finish, an
 * agent's long poll waiting for a job to be queued. Driven by the `vigil_probe_jobs`
 * notifications of the jobs table's trigger; without a feed it falls back to short sleeps. The
 * waiters always re-read the database after waking, so a notification is only ever a hint.
 */
export class JobWaiter {
  private readonly byJob = new Map<string, Set<Wake>>();
  private readonly byAgent = new Map<string, Set<Wake>>();

  constructor(private readonly feed: ChangeFeed | null) {
    feed?.on('change', (c) => {
      const n = c as unknown as { j?: string; a?: string | null; s?: string };
      if (n.j) this.wake(this.byJob, n.j);
      if (n.a && (n.s === 'pending' || n.s === 'config')) this.wake(this.byAgent, n.a, n.s);
    });
  }

  /**
   * Watches a job from now on: `next(ms)` resolves at once when the job changed since the last
   * call (or since the watch began), else after at most `ms` or on the next change. Begin
   * watching before whatever could finish the job, so no change falls between a read and a wait.
   */
  watchJob(jobId: string): JobWatch {
    let changed = false;
    let wake: (() => void) | null = null;
    const onChange: Wake = () => {
      changed = true;
      wake?.();
    };
    const set = this.byJob.get(jobId) ?? new Set<Wake>();
    this.byJob.set(jobId, set);
    set.add(onChange);
    return {
      next: (ms) => {
        if (changed) {
          changed = false;
          return Promise.resolve();
        }
        const bound = this.feed?.live ? ms : Math.min(ms, 200);
        return new Promise<void>((resolve) => {
          const timer = setTimeout(() => {
            wake = null;
            resolve();
          }, Math.max(0, bound));
          wake = () => {
            clearTimeout(timer);
            wake = null;
            changed = false;
            resolve();
          };
        });
      },
      close: () => {
        wake?.();
        set.delete(onChange);
        if (!set.size && this.byJob.get(jobId) === set) this.byJob.delete(jobId);
      },
    };
  }

  /** Resolves after at most `ms`, earlier when a job is queued for the agent (`pending`) or its metrics change (`config`). */
  agent(agentId: string, ms: number): Promise<string | undefined> {
    return this.wait(this.byAgent, agentId, ms);
  }

  private wait(map: Map<string, Set<Wake>>, key: string, ms: number): Promise<string | undefined> {
    const bound = this.feed?.live ? ms : Math.min(ms, 200);
    return new Promise((resolve) => {
      const set = map.get(key) ?? new Set<Wake>();
      map.set(key, set);
      const done = (kind?: string) => {
        clearTimeout(timer);
        set.delete(done);
        if (!set.size) map.delete(key);
        resolve(kind);
      };
      const timer = setTimeout(() => done(), Math.max(0, bound));
      set.add(done);
    });
  }

  private wake(map: Map<string, Set<Wake>>, key: string, kind?: string): void {
    for (const w of [...(map.get(key) ?? [])]) w(kind);
  }
}
