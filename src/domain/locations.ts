/**
 * Probe locations: a location is a prober process (`vigil-prober`, or the worker's
 * built-in one) that polls its own Temporal task queue (`probe:<id>`) and registers by heartbeat.
 * Pure: the status rule, id and list validation, the heartbeat's shape and the demo's source
 * addresses. The installation a location belongs to is the main task queue it heartbeats to.
 */
import { LOCATION_ID_PATTERN } from './confirmation';

export { LOCATION_ID_PATTERN };

/** The prober's version, sent with every heartbeat and shown by GET /v1/locations. */
export const PROBER_VERSION = '1.0.0';

/** LOCATION_HEARTBEAT_SECONDS' default. */
export const DEFAULT_HEARTBEAT_SECONDS = 10;

/** A location that missed this many heartbeats in a row is offline. */
export const MISSED_HEARTBEATS_OFFLINE = 3;

/** The worker's built-in location unless VIGIL_LOCATION names another. */
export const DEFAULT_LOCATION_ID = 'local';
export const DEFAULT_LOCATION_LABEL = 'This machine';
export const LOCATION_LABEL_MAX = 100;

/** After this many heartbeats the location workflow continues as new (its history stays short). */
export const HEARTBEATS_PER_RUN = 200;

export type LocationStatus = 'online' | 'offline';

/** What a location sends with every heartbeat (the `heartbeat` signal of `locationWorkflow`). */
export interface LocationHeartbeat {
  id: string;
  label: string;
  version: string;
  heartbeatSeconds: number;
  /** ISO time the location sent it (its own clock). */
  at: string;
  /** ISO time the process started (a new value marks a restart). */
  startedAt?: string;
  /** Set on the last heartbeat of a process that stops on purpose: it is offline at once. */
  stopping?: boolean;
}

/** The signal name and workflow id a location heartbeats to, on the installation's (main) task queue. */
export const LOCATION_HEARTBEAT_SIGNAL = 'heartbeat';
export const locationWorkflowId = (mainTaskQueue: string, locationId: string) =>
  `location:${mainTaskQueue}:${locationId}`;

export const isLocationId = (id: string): boolean => LOCATION_ID_PATTERN.test(id);

/**
 * Online while the last heartbeat is younger than MISSED_HEARTBEATS_OFFLINE heartbeats; a
 * location that said it was stopping is offline from that heartbeat on.
 */
export function locationStatus(
  l: { lastSeenAt: Date | null; heartbeatSeconds: number; stoppedAt?: Date | null },
  now: Date,
): LocationStatus {
  if (!l.lastSeenAt) return 'offline';
  if (l.stoppedAt && l.stoppedAt.getTime() >= l.lastSeenAt.getTime()) return 'offline';
  return l.lastSeenAt.getTime() > now.getTime() - MISSED_HEARTBEATS_OFFLINE * l.heartbeatSeconds * 1000
    ? 'online'
    : 'offline';
}

/** The `last_seen_at` a heartbeat records: the time it says it was sent, never later than `now` (a fast clock cannot keep a dead location online). */
export function heartbeatSeenAt(at: string, now: Date): Date {
  const t = Date.parse(at);
  return Number.isFinite(t) && t < now.getTime() ? new Date(t) : now;
}

/** VIGIL_LOCATIONS (`eu-central,us-east,ap-south`): the ids, in order, or the problem with the list. */
export function parseLocationList(text: string): { ok: true; ids: string[] } | { ok: false; message: string } {
  const ids = text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const bad = ids.filter((id) => !isLocationId(id));
  if (bad.length)
    return {
      ok: false,
      message: `Not a location id: ${bad.join(', ')} (lower-case letters, digits and dashes, starting with a letter, at most 40)`,
    };
  const dup = ids.find((id, i) => ids.indexOf(id) !== i);
  if (dup) return { ok: false, message: `Location ${dup} is named twice` };
  if (ids.length > 200) return { ok: false, message: 'At most 200 locations' };
  return { ok: true, ids };
}

/** The loopback source address `npm start` gives its n-th prober (0-based): 127.0.0.11, .12, … */
export function demoSourceAddress(index: number): string {
  const n = 11 + index;
  return `127.0.${Math.floor(n / 256)}.${n % 256}`;
}
