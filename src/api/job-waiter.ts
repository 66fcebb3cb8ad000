import type { ChangeFeed } from '../db/change-feed';
import type { JobWatches, Watch } from '../usecases/probe-tests/ports';

type Wake = (kind: string) => void;

/**
 * Wakes API requests that wait on probe-test jobs: a poster waiting for its job to finish, an
 * agent's long poll waiting for a job to be queued. Driven by the `vigil_probe_jobs`
 * notifications of the jobs table's trigger; without a feed it falls back to short sleeps. The
 * waiters always re-read the database after waking, so a notification is only ever a hint.
 * Watch before the read: a change between the read and the wait is then kept, not missed.
 */
export class JobWaiter implements JobWatches {
  private readonly byJob = new Map<string, Set<Wake>>();
  private readonly byAgent = new Map<string, Set<Wake>>();

  constructor(private readonly feed: ChangeFeed | null) {
    feed?.on('change', (c) => {
      const n = c as unknown as { j?: string; a?: string | null; s?: string };
      if (n.j) this.wake(this.byJob, n.j, n.s ?? 'changed');
      if (n.a && (n.s === 'pending' || n.s === 'config')) this.wake(this.byAgent, n.a, n.s);
    });
  }

  /** Changes of a job's state. */
  watchJob(jobId: string): Watch {
    return this.watch(this.byJob, jobId);
  }

  /** A job queued for the agent (`pending`), or a change of the metrics it runs (`config`). */
  watchAgent(agentId: string): Watch {
    return this.watch(this.byAgent, agentId);
  }

  private watch(map: Map<string, Set<Wake>>, key: string): Watch {
    let seen: string[] = [];
    let wake: (() => void) | null = null;
    const onChange: Wake = (kind) => {
      seen.push(kind);
      wake?.();
    };
    const set = map.get(key) ?? new Set<Wake>();
    map.set(key, set);
    set.add(onChange);
    const take = () => {
      const kinds = seen;
      seen = [];
      return kinds;
    };
    return {
      next: (ms) => {
        if (seen.length) return Promise.resolve(take());
        const bound = this.feed?.live ? ms : Math.min(ms, 200);
        return new Promise<string[]>((resolve) => {
          const done = () => {
            clearTimeout(timer);
            wake = null;
            resolve(take());
          };
          const timer = setTimeout(done, Math.max(0, bound));
          wake = done;
        });
      },
      close: () => {
        wake?.();
        set.delete(onChange);
        if (!set.size && map.get(key) === set) map.delete(key);
      },
    };
  }

  private wake(map: Map<string, Set<Wake>>, key: string, kind: string): void {
    for (const w of [...(map.get(key) ?? [])]) w(kind);
  }
}
