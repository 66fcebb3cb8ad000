/**
 * Cloud metrics run in buckets: every cloud metric belongs to exactly one bucket, named by its
 * interval and a phase slot derived from its id, and each bucket has one Temporal Schedule
 * (`metric-bucket:<task queue>:<interval>:<slot>`) that fires once per interval at the slot's offset and runs
 * the bucket's checks as one batch. One Schedule per metric could not keep 10,000 metrics at 30 s
 * on time (bench/scale; docs/decisions.md "Cloud metrics run in interval buckets").
 *
 * The slot is the metric id's leading 32 bits scaled to the interval's slot count, so a bucket's
 * metrics are a contiguous range of ids (`bucketIdRange`): the batch reads them by primary key.
 * Pure: no I/O, used by the API (which Schedule a metric needs), the activity (which metrics a
 * bucket run checks) and the bench (when each run was planned).
 */

/** At most this many phase slots per interval (one per second below it). */
export const MAX_BUCKET_SLOTS = 30;

export interface MetricBucket {
  intervalSeconds: number;
  slot: number;
}

/** How many slots an interval is split into: one per second up to MAX_BUCKET_SLOTS. */
export function slotsFor(intervalSeconds: number): number {
  if (!Number.isInteger(intervalSeconds) || intervalSeconds < 1)
    throw new RangeError(`interval_seconds must be a positive integer, got ${intervalSeconds}`);
  return Math.min(intervalSeconds, MAX_BUCKET_SLOTS);
}

const TWO_32 = 2 ** 32;

/** The id's leading 32 bits (its first 8 hex digits). */
function leading32(metricId: string): number {
  const hex = metricId.slice(0, 8);
  if (!/^[0-9a-fA-F]{8}$/.test(hex)) throw new RangeError(`not a uuid: ${metricId}`);
  return Number.parseInt(hex, 16);
}

/** The bucket a metric with this id and interval runs in. */
export function bucketOf(metricId: string, intervalSeconds: number): MetricBucket {
  const slots = slotsFor(intervalSeconds);
  return { intervalSeconds, slot: Math.floor((leading32(metricId) * slots) / TWO_32) };
}

/**
 * A bucket's Schedule id. The task queue is part of it: Vigil installs sharing one Temporal
 * namespace on different task queues (the test suite's files do) keep their buckets apart.
 */
export const bucketScheduleId = (b: MetricBucket, taskQueue: string): string =>
  `metric-bucket:${taskQueue}:${b.intervalSeconds}:${b.slot}`;

/** Parses a bucket Schedule id back; null for any other id. */
export function parseBucketScheduleId(id: string): (MetricBucket & { taskQueue: string }) | null {
  const m = /^metric-bucket:(.+):(\d+):(\d+)$/.exec(id);
  if (!m) return null;
  const b = { taskQueue: m[1]!, intervalSeconds: Number(m[2]), slot: Number(m[3]) };
  return b.intervalSeconds >= 1 && b.slot < slotsFor(b.intervalSeconds) ? b : null;
}

/** Seconds after each multiple of the interval (since the Unix epoch) at which the bucket runs. */
export function bucketOffsetSeconds(b: MetricBucket): number {
  return Math.floor((b.slot * b.intervalSeconds) / slotsFor(b.intervalSeconds));
}

/** The ids of the bucket's metrics are `from <= id < below` (uuid order; `below` null for the last slot). */
export function bucketIdRange(b: MetricBucket): { from: string; below: string | null } {
  const slots = slotsFor(b.intervalSeconds);
  if (!Number.isInteger(b.slot) || b.slot < 0 || b.slot >= slots)
    throw new RangeError(`slot ${b.slot} out of range for ${b.intervalSeconds} s`);
  const bound = (s: number) =>
    `${Math.ceil((s * TWO_32) / slots)
      .toString(16)
      .padStart(8, '0')}-0000-0000-0000-000000000000`;
  return { from: bound(b.slot), below: b.slot + 1 < slots ? bound(b.slot + 1) : null };
}

/** The latest planned run of the bucket at or before `atMs` (epoch ms): the Schedule's nominal tick. */
export function plannedRunAt(b: MetricBucket, atMs: number): number {
  const every = b.intervalSeconds * 1000;
  const offset = bucketOffsetSeconds(b) * 1000;
  return Math.floor((atMs - offset) / every) * every + offset;
}

/** The workflow type a bucket's Schedule starts. */
export const BUCKET_WORKFLOW_TYPE = 'cloudMetricBucketWorkflow';

/**
 * A bucket's Schedule as plain data, for `client.schedule.create` (the API's adapter and the
 * activity that re-creates a retired bucket both build it from here): every interval at the
 * slot's offset; overlap skip (a batch still running at the next tick skips that tick); catch-up
 * one interval, at most a minute. A new metric runs at its bucket's next tick, at most one
 * interval away.
 */
export function bucketScheduleOptions(b: MetricBucket, taskQueue: string) {
  return {
    scheduleId: bucketScheduleId(b, taskQueue),
    spec: {
      intervals: [
        { every: `${b.intervalSeconds} seconds` as const, offset: `${bucketOffsetSeconds(b)} seconds` as const },
      ],
    },
    action: {
      type: 'startWorkflow' as const,
      workflowType: BUCKET_WORKFLOW_TYPE,
      workflowId: bucketScheduleId(b, taskQueue),
      taskQueue,
      args: [{ intervalSeconds: b.intervalSeconds, slot: b.slot }],
      memo: { title: `Cloud checks every ${b.intervalSeconds} s, slot ${b.slot}` },
    },
    policies: { overlap: 'SKIP' as const, catchupWindow: `${Math.min(60, b.intervalSeconds)} seconds` as const },
  };
}

/** Runs `fn` over `items` with at most `concurrency` at once; answers the results in input order. */
export async function mapBounded<T, R>(
  items: readonly T[],
  concurrency: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, lane));
  return out;
}
