import type { ProbeTestJob } from '../../db/entities';

interface Entry {
  job: ProbeTestJob;
  finish(job: ProbeTestJob): void;
}

/**
 * Cloud probe tests whose API request and worker share a process (`vigil start` starts them
 * eagerly on its own worker). The request offers its new job here; the worker's activity takes
 * it instead of reading it back, and hands the stored result straight to the waiting request
 * instead of through a NOTIFY and another read. Purely a shortcut: the job row stays the record,
 * and a test run by another worker takes the usual way (read the row, NOTIFY).
 */
export class LocalProbeJobs {
  private readonly entries = new Map<string, Entry>();

  /** Registers a job just created; `finished` resolves with it once its result is stored here. */
  offer(job: ProbeTestJob): { finished: Promise<ProbeTestJob>; withdraw(): void } {
    let finish!: (job: ProbeTestJob) => void;
    const finished = new Promise<ProbeTestJob>((resolve) => (finish = resolve));
    this.entries.set(job.id, { job, finish });
    return { finished, withdraw: () => this.entries.delete(job.id) };
  }

  /** The job as created, if its request waits in this process. */
  take(jobId: string): ProbeTestJob | undefined {
    return this.entries.get(jobId)?.job;
  }

  /** The job's result is stored: wakes its request with the job as it now is. */
  finish(job: ProbeTestJob): void {
    const entry = this.entries.get(job.id);
    if (!entry) return;
    this.entries.delete(job.id);
    entry.finish(job);
  }

  get size(): number {
    return this.entries.size;
  }
}
