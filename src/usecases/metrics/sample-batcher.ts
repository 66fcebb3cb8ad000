import type { EntityManager } from '@mikro-orm/postgresql';
import type { NewSample } from '../../db/repositories/samples-repository';
import { commitSamples } from './ingest';

interface Waiting {
  rows: NewSample[];
  now: Date;
  resolve(flips: number): void;
  reject(err: unknown): void;
}

interface OrgQueue {
  waiting: Waiting[];
  running: number;
}

/**
 * Group commit for agent sample batches. Batches of one organization's metrics all lock the
 * same metric rows when they commit, so running many side by side only makes them queue in
 * PostgreSQL. Here, per organization, at most `parallel` commits run at a time in this process
 * (two: one stores its samples while the other holds the locks; bench/ingest measured 1, 2 and 4);
 * the batches that arrive meanwhile are committed together in the next one (up to `maxSamples`),
 * and each caller learns its own flips. Other processes' commits still serialise on the row
 * locks, so correctness never depends on this queue. A merged commit that fails is retried batch
 * by batch, so one bad batch fails only its own request.
 */
export class SampleBatcher {
  private readonly orgs = new Map<string, OrgQueue>();

  constructor(
    private readonly em: () => EntityManager,
    private readonly parallel = 2,
    private readonly maxSamples = 20_000,
  ) {}

  private readonly tails = new Map<string, Promise<unknown>>();

  /**
   * commit, but queued in the order the calls were made for `source` (an agent): its batches are
   * evaluated side by side yet committed in arrival order, so a batch never lands behind a newer
   * one of the same agent. (Landing behind one makes its samples late, and late samples rebuild
   * their metrics' flips.)
   */
  commitInArrivalOrder<T extends { rows: NewSample[] }>(
    source: string,
    organizationId: string,
    evaluation: Promise<T>,
    now: Date,
  ): Promise<T & { flips: number }> {
    const before = this.tails.get(source) ?? Promise.resolve();
    const queued = before.then(async () => {
      const evaluated = await evaluation;
      return { evaluated, flips: this.commit(organizationId, evaluated.rows, now) };
    });
    const tail = queued.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(source, tail);
    void tail.then(() => {
      if (this.tails.get(source) === tail) this.tails.delete(source);
    });
    return queued.then(async ({ evaluated, flips }) => ({ ...evaluated, flips: await flips }));
  }

  /** Stores the evaluated samples (see commitSamples); answers how many flips they made. */
  commit(organizationId: string, rows: NewSample[], now: Date): Promise<number> {
    if (!rows.length) return Promise.resolve(0);
    return new Promise<number>((resolve, reject) => {
      let q = this.orgs.get(organizationId);
      if (!q) this.orgs.set(organizationId, (q = { waiting: [], running: 0 }));
      q.waiting.push({ rows, now, resolve, reject });
      this.pump(organizationId, q);
    });
  }

  private pump(organizationId: string, q: OrgQueue): void {
    while (q.running < this.parallel && q.waiting.length) {
      let size = q.waiting[0]!.rows.length;
      let n = 1;
      while (n < q.waiting.length && size + q.waiting[n]!.rows.length <= this.maxSamples)
        size += q.waiting[n++]!.rows.length;
      q.running++;
      void this.flush(organizationId, q.waiting.splice(0, n)).finally(() => {
        q.running--;
        this.pump(organizationId, q);
        if (!q.running && !q.waiting.length) this.orgs.delete(organizationId);
      });
    }
  }

  private async flush(organizationId: string, group: Waiting[]): Promise<void> {
    const only = group.length === 1 ? group[0]! : null;
    try {
      if (only) {
        only.resolve((await commitSamples(this.em(), organizationId, only.rows, only.now)).length);
        return;
      }
      const now = new Date(Math.max(...group.map((w) => w.now.getTime())));
      const flips = await commitSamples(
        this.em(),
        organizationId,
        group.flatMap((w) => w.rows),
        now,
      );
      // Each flip is owed to the first batch holding its sample.
      const firstHolder = new Map<string, number>();
      group.forEach((w, i) => {
        for (const r of w.rows) {
          const key = `${r.metricId}|${r.sampledAt.getTime()}`;
          if (!firstHolder.has(key)) firstHolder.set(key, i);
        }
      });
      const counts = new Array<number>(group.length).fill(0);
      for (const f of flips) counts[firstHolder.get(`${f.metric_id}|${f.at.getTime()}`)!]!++;
      group.forEach((w, i) => w.resolve(counts[i]!));
    } catch (err) {
      if (only) return only.reject(err);
      for (const w of group) {
        try {
          w.resolve((await commitSamples(this.em(), organizationId, w.rows, w.now)).length);
        } catch (e) {
          w.reject(e);
        }
      }
    }
  }
}
