/**
 * The final timeline of a schedule between two instants: contiguous segments of who is on call
 * and why, after layers and overrides are applied.
 *
 * - Segments are clipped to [from, to); `onCallAt(from)` gives the whole shift in progress.
 * - Consecutive segments merge when the same user continues from the same source (the same layer,
 *   or overrides), e.g. a one-person rotation is one segment, not one per handoff.
 * - Time when nobody is on call has no segment: a gap between two segments is uncovered time.
 * - At most `limit` segments (default 1,000); `truncated` says more follow, and the next page
 *   starts at the last segment's end, which is exact.
 */
import {
  compileSchedule,
  instantMs,
  nextCoverageAfter,
  winnerAt,
  type OnCallSource,
  type ScheduleSpec,
} from './schedule';

export const DEFAULT_SHIFT_LIMIT = 1_000;

export interface Shift {
  user: string;
  source: OnCallSource;
  /** Index of the layer; null for an override. */
  layer: number | null;
  layer_name: string | null;
  start: Date;
  end: Date;
}

export interface ShiftTimeline {
  shifts: Shift[];
  truncated: boolean;
}

export function shiftsBetween(spec: ScheduleSpec, from: Date, to: Date, limit = DEFAULT_SHIFT_LIMIT): ShiftTimeline {
  const fromMs = instantMs(from, 'from');
  const toMs = instantMs(to, 'to');
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError('limit must be a positive integer');
  const schedule = compileSchedule(spec);
  const shifts: Shift[] = [];
  let t = fromMs;
  while (t < toMs) {
    const w = winnerAt(schedule, t, true);
    if (w === null) {
      t = nextCoverageAfter(schedule, t);
      continue;
    }
    const end = Math.min(w.end, toMs);
    const last = shifts[shifts.length - 1];
    if (
      last &&
      last.end.getTime() === t &&
      last.user === w.user &&
      last.source === w.source &&
      last.layer === w.layer
    ) {
      last.end = new Date(end);
    } else {
      if (shifts.length === limit) return { shifts, truncated: true };
      shifts.push({
        user: w.user,
        source: w.source,
        layer: w.layer,
        layer_name: w.layer_name,
        start: new Date(t),
        end: new Date(end),
      });
    }
    t = end;
  }
  return { shifts, truncated: false };
}
