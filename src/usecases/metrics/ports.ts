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
