import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/**
 * A probe location that registered by heartbeat, per installation (`taskQueue`: the
 * main task queue its heartbeats go to). Written and read with SQL (location-repository.ts); the
 * entity keeps the schema check (test/db/schema.test.ts) honest.
 */
export const ProbeLocationSchema = defineEntity({
  name: 'ProbeLocation',
  tableName: 'probe_locations',
  properties: {
    taskQueue: p.text().primary(),
    id: p.text().primary(),
    label: p.text(),
    version: p.text(),
    heartbeatSeconds: p.integer(),
    startedAt: p.datetime(3),
    lastSeenAt: p.datetime(3),
    stoppedAt: p.datetime(3).nullable(),
  },
});
export type ProbeLocation = InferEntity<typeof ProbeLocationSchema>;
