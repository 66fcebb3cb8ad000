/** How metric use cases keep a cloud metric's schedule in step with its row (implemented in src/temporal). */
export interface MetricScheduler {
  /** Creates or updates the schedule of a cloud metric; removes it when the metric is not (or no longer) a cloud one. */
  /** `created`: a new cloud metric is also checked once at once, not only at its bucket's next tick. */
  sync(metric: {
    id: string;
    organization: string;
    name: string;
    intervalSeconds: number;
    cloud: boolean;
    deleted: boolean;
    created?: boolean;
  }): Promise<void>;
}

/** The Temporal Schedules a new metric's first check tidies (src/activities/metric-rounds.ts implements it). */
export interface RoundSchedules {
  /** Deletes the metric's own Schedule from before buckets; an absent one is fine. */
  retireMetricSchedule(metricId: string): Promise<void>;
  /** Makes sure the Schedule of each bucket these metrics run in exists (one call per bucket). */
  ensureBuckets(metrics: readonly { id: string; intervalSeconds: number }[]): Promise<void>;
}
