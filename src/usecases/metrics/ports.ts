/** How metric use cases keep a cloud metric's schedule in step with its row (implemented in src/temporal). */
export interface MetricScheduler {
  /** Creates or updates the schedule of a cloud metric; removes it when the metric is not (or no longer) a cloud one. */
  sync(metric: { id: string; organization: string; name: string; intervalSeconds: number; cloud: boolean; deleted: boolean }): Promise<void>;
}
