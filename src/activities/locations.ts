import type { Orm } from '../db/orm';
import { recordHeartbeat } from '../db/repositories/location-repository';
import type { LocationHeartbeat } from '../domain/locations';

/** The main worker's side of the locations: the location workflow records heartbeats through it (a local activity). */
export function createLocationActivities(deps: { orm: Orm }) {
  return {
    /** Records a location's heartbeat for the installation `taskQueue` (the location workflow's task queue). */
    async recordLocationHeartbeat(input: { taskQueue: string; heartbeat: LocationHeartbeat }): Promise<void> {
      await recordHeartbeat(deps.orm.em.fork(), input.taskQueue, input.heartbeat, new Date());
    },
  };
}
