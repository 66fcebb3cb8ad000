import { prose } from './prose';

/** What the operations of src/api/routes/locations.ts do, as their OpenAPI descriptions say it. */
export const descriptions = {
  listLocations: prose(
    "The installation's cloud locations (prober processes, registered by heartbeat) and the ",
    "organization's agents (`agent:<id>`), by id, each with its status, last heartbeat, version and ",
    'how many metrics it measures.',
  ),
};
