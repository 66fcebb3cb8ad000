/**
 * Down and excluded minutes of one statement period ("the downtime rule"), in whole
 * minutes, integers only.
 *
 * The minute grid: the period `[start, end)` is cut into minutes `[start + k·60 s, start + (k+1)·60 s)`
 * (period bounds are whole UTC minutes, see period.ts), `totalMinutes` of them.
 *
 * Status of the covered services at an instant: the worst of their statuses, unhealthy (3) >
 * degraded (2) > healthy (1) > no_data (0). `no_data` here is a measurement gap, never down by
 * itself (the caller maps a `no_data` with a `target` reason to `unhealthy` first;
 * what gaps count as is the terms' `no_data_counts_as`, below). So one service unhealthy makes
 * the whole contract down; one service no_data beside a healthy one does not.
 *
 * The rules, chosen in the customer's favour wherever a minute is only partly one thing:
 * - Down: the worst status is `unhealthy`, or `degraded` when the terms say
 *   `count_degraded_as_down`.
 * - Qualifying maintenance: a window `{ start, end, announcedAt }` with
 *   `start − announcedAt ≥ maintenance_notice_hours` (announced exactly N hours ahead qualifies;
 *   a window announced after it began never does, even with N = 0). Windows are clipped to the
 *   period; overlapping or touching ones are merged. `maintenances` apply to all covered
 *   services; a service's own `maintenances` only to it: it is not down during them, while
 *   another service's outage at the same time still counts.
 * - An excluded minute lies entirely inside qualifying maintenance (the merged windows, shared
 *   or of any one service) and is not a down minute. A minute only partly inside stays eligible.
 * - A down minute is an eligible minute during which the services were down for some (positive)
 *   time outside qualifying maintenance: "a minute counts as down when the service was down for
 *   at least part of it". A status that turns down at exactly 10:05:00 makes 10:05 down but not
 *   10:04; one that recovers at exactly 10:05:00 leaves 10:05 up.
 * - `eligibleMinutes = totalMinutes − excludedMinutes`, and `downMinutes ≤ eligibleMinutes`.
 *
 * Evidence gaps: `gaps` are the spans in which no status was measured (the caller
 * derives them, see coverage.ts). Whole minutes inside them are `unmeasuredMinutes`. The terms'
 * `no_data_counts_as` says what they are: `up` (default: nothing changes), `down` (gap time is
 * down time, same minute rule) or `excluded` (a minute wholly inside a gap is excluded, like
 * maintenance; a down minute never is).
 *
 * Timelines: each service gives the status in force before its first change (`initial`) and its
 * changes `{ at, status }` sorted by `at` (equal instants allowed: the last one listed wins). A
 * status holds from its `at` until the next change; changes before the period set the status at
 * its start, changes at or after its end are ignored.
 */
import type { DowntimeRule } from './credit-terms';
import { InvalidSlaInputError } from './errors';

export const SLA_STATUSES = ['healthy', 'degraded', 'unhealthy', 'no_data'] as const;
export type SlaStatus = (typeof SLA_STATUSES)[number];

/** Worst-of ranks. */
export const STATUS_RANK: Readonly<Record<SlaStatus, number>> = { no_data: 0, healthy: 1, degraded: 2, unhealthy: 3 };

export interface SlaStatusChange {
  at: Date;
  status: SlaStatus;
}

export interface ServiceTimeline {
  /** The status in force before the first change. */
  initial: SlaStatus;
  /** Sorted by `at`. */
  changes: readonly SlaStatusChange[];
  /** Maintenance of this service only: it is not down during the qualifying ones, others still may be. */
  maintenances?: readonly MaintenanceWindow[];
}

export interface MaintenanceWindow {
  start: Date;
  end: Date;
  announcedAt: Date;
}

export interface DowntimeInput {
  /** One timeline per covered service (at least one). */
  services: readonly ServiceTimeline[];
  period: { start: Date; end: Date };
  maintenances: readonly MaintenanceWindow[];
  terms: DowntimeRule;
  /** Spans with no measured status (none when undefined). */
  gaps?: readonly { start: Date; end: Date }[];
}

export interface DowntimeMinutes {
  totalMinutes: number;
  excludedMinutes: number;
  eligibleMinutes: number;
  downMinutes: number;
  /** Whole minutes inside the gaps. */
  unmeasuredMinutes: number;
}

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;

export interface Span {
  start: number;
  end: number;
}

function msOf(date: Date, what: string): number {
  const ms = date instanceof Date ? date.getTime() : Number.NaN;
  if (!Number.isFinite(ms)) throw new InvalidSlaInputError(`${what} must be a valid Date`);
  return ms;
}

function assertStatus(status: unknown, what: string): asserts status is SlaStatus {
  if (!(SLA_STATUSES as readonly unknown[]).includes(status))
    throw new InvalidSlaInputError(`${what}: unknown status ${JSON.stringify(status)}`);
}

export function worstStatus(statuses: readonly SlaStatus[]): SlaStatus {
  let worst: SlaStatus = 'no_data';
  for (const s of statuses) if (STATUS_RANK[s] > STATUS_RANK[worst]) worst = s;
  return worst;
}

export function isDownStatus(status: SlaStatus, rule: Pick<DowntimeRule, 'count_degraded_as_down'>): boolean {
  return status === 'unhealthy' || (status === 'degraded' && rule.count_degraded_as_down);
}

/** Announced at least `noticeHours` before it starts. */
export function maintenanceQualifies(window: MaintenanceWindow, noticeHours: number): boolean {
  if (!Number.isInteger(noticeHours) || noticeHours < 0)
    throw new InvalidSlaInputError(`maintenance_notice_hours must be an integer ≥ 0, got ${noticeHours}`);
  return (
    msOf(window.start, 'maintenance start') - msOf(window.announcedAt, 'maintenance announcedAt') >=
    noticeHours * HOUR_MS
  );
}

/** Merge sorted-or-not spans, joining overlapping and touching ones; empty spans vanish. */
export function mergeSpans(spans: Span[]): Span[] {
  const sorted = spans.filter((s) => s.end > s.start).sort((a, b) => a.start - b.start);
  const out: Span[] = [];
  for (const s of sorted) {
    const last = out[out.length - 1];
    if (last && s.start <= last.end) last.end = Math.max(last.end, s.end);
    else out.push({ ...s });
  }
  return out;
}

/** Spans of `from` not covered by `holes` (both sorted, disjoint). */
function subtractSpans(from: readonly Span[], holes: readonly Span[]): Span[] {
  const out: Span[] = [];
  let h = 0;
  for (const span of from) {
    let cursor = span.start;
    while (h < holes.length && (holes[h] as Span).end <= cursor) h++;
    for (let i = h; i < holes.length && (holes[i] as Span).start < span.end; i++) {
      const hole = holes[i] as Span;
      if (hole.start > cursor) out.push({ start: cursor, end: hole.start });
      cursor = Math.max(cursor, hole.end);
    }
    if (cursor < span.end) out.push({ start: cursor, end: span.end });
  }
  return out;
}

/** The spans of [periodStart, periodEnd) during which the worst status is down. */
function downSpans(
  services: readonly ServiceTimeline[],
  periodStart: number,
  periodEnd: number,
  rule: DowntimeRule,
): Span[] {
  return spansWhere(services, periodStart, periodEnd, (worst) => isDownStatus(worst, rule));
}

/** The spans of [periodStart, periodEnd) during which the worst status of `services` satisfies `holds`. */
export function spansWhere(
  services: readonly ServiceTimeline[],
  periodStart: number,
  periodEnd: number,
  holds: (worst: SlaStatus) => boolean,
): Span[] {
  const current: SlaStatus[] = [];
  const events: { at: number; service: number; status: SlaStatus }[] = [];
  services.forEach((service, i) => {
    assertStatus(service.initial, `service ${i} initial`);
    let status = service.initial;
    let previous = Number.NEGATIVE_INFINITY;
    for (const [j, change] of service.changes.entries()) {
      const at = msOf(change.at, `service ${i} change ${j}`);
      assertStatus(change.status, `service ${i} change ${j}`);
      if (at < previous)
        throw new InvalidSlaInputError(
          `service ${i}: changes must be sorted by at (change ${j} is earlier than the one before)`,
        );
      previous = at;
      if (at <= periodStart) status = change.status;
      else if (at < periodEnd) events.push({ at, service: i, status: change.status });
    }
    current.push(status);
  });
  events.sort((a, b) => a.at - b.at); // stable: a service's same-instant changes keep their order

  const spans: Span[] = [];
  let downSince: number | null = holds(worstStatus(current)) ? periodStart : null;
  for (let e = 0; e < events.length;) {
    const at = (events[e] as (typeof events)[number]).at;
    for (; e < events.length && (events[e] as (typeof events)[number]).at === at; e++) {
      const event = events[e] as (typeof events)[number];
      current[event.service] = event.status;
    }
    const down = holds(worstStatus(current));
    if (down && downSince === null) downSince = at;
    else if (!down && downSince !== null) {
      spans.push({ start: downSince, end: at });
      downSince = null;
    }
  }
  if (downSince !== null) spans.push({ start: downSince, end: periodEnd });
  return spans;
}

/** The qualifying windows of `maintenances`, clipped to [start, end) and merged. */
function qualifyingSpans(
  maintenances: readonly MaintenanceWindow[],
  start: number,
  end: number,
  noticeHours: number,
  what: string,
): Span[] {
  const windows: Span[] = [];
  for (const [i, w] of maintenances.entries()) {
    const ws = msOf(w.start, `${what} ${i} start`);
    const we = msOf(w.end, `${what} ${i} end`);
    if (we < ws) throw new InvalidSlaInputError(`${what} ${i} ends before it starts`);
    if (maintenanceQualifies(w, noticeHours)) windows.push({ start: Math.max(ws, start), end: Math.min(we, end) });
  }
  return mergeSpans(windows);
}

/** Whole-minute index ranges [first, afterLast) of the minutes wholly inside each span. */
function wholeMinutes(spans: readonly Span[], start: number): [number, number][] {
  return spans
    .map((w) => [Math.ceil((w.start - start) / MINUTE_MS), Math.floor((w.end - start) / MINUTE_MS)] as [number, number])
    .filter(([a, b]) => b > a);
}

/** Total, excluded, eligible and down minutes of the period (see the module comment for the rules). */
export function countDowntime(input: DowntimeInput): DowntimeMinutes {
  const { services, period, maintenances, terms } = input;
  if (!Number.isInteger(terms.maintenance_notice_hours) || terms.maintenance_notice_hours < 0) {
    throw new InvalidSlaInputError(
      `maintenance_notice_hours must be an integer ≥ 0, got ${terms.maintenance_notice_hours}`,
    );
  }
  if (services.length === 0) throw new InvalidSlaInputError('a downtime count needs at least one service timeline');
  const start = msOf(period.start, 'period start');
  const end = msOf(period.end, 'period end');
  if (end <= start || (end - start) % MINUTE_MS !== 0)
    throw new InvalidSlaInputError('the period must be a positive whole number of minutes');
  const totalMinutes = (end - start) / MINUTE_MS;
  const notice = terms.maintenance_notice_hours;

  // Windows for every service, and each service's own: a service is never down during its own
  // qualifying maintenance, but another service's outage then still counts.
  const shared = qualifyingSpans(maintenances, start, end, notice, 'maintenance');
  const own = services.map((service, i) =>
    qualifyingSpans(service.maintenances ?? [], start, end, notice, `service ${i} maintenance`),
  );
  const gaps = mergeSpans(
    (input.gaps ?? []).map((g, i) => ({
      start: Math.max(msOf(g.start, `gap ${i} start`), start),
      end: Math.min(msOf(g.end, `gap ${i} end`), end),
    })),
  );
  const treatment = terms.no_data_counts_as ?? 'up';
  const down = mergeSpans([
    ...services.flatMap((service, i) => subtractSpans(downSpans([service], start, end, terms), own[i] as Span[])),
    ...(treatment === 'down' ? gaps : []),
  ]);
  const downRanges: [number, number][] = [];
  for (const s of subtractSpans(down, shared)) {
    const last = downRanges[downRanges.length - 1];
    const first = Math.max(Math.floor((s.start - start) / MINUTE_MS), last ? last[1] : 0);
    const afterLast = Math.ceil((s.end - start) / MINUTE_MS);
    if (afterLast > first) {
      if (last && last[1] === first) last[1] = afterLast;
      else downRanges.push([first, afterLast]);
    }
  }
  const downMinutes = downRanges.reduce((n, [a, b]) => n + b - a, 0);

  // Excluded: minutes wholly inside any window that are not down minutes (a down minute is always eligible).
  const inside = wholeMinutes(mergeSpans([...shared, ...own.flat(), ...(treatment === 'excluded' ? gaps : [])]), start);
  let excludedMinutes = inside.reduce((n, [a, b]) => n + b - a, 0);
  for (let i = 0, j = 0; i < inside.length && j < downRanges.length;) {
    const [a1, b1] = inside[i] as [number, number];
    const [a2, b2] = downRanges[j] as [number, number];
    excludedMinutes -= Math.max(0, Math.min(b1, b2) - Math.max(a1, a2));
    if (b1 < b2) i++;
    else j++;
  }

  const unmeasuredMinutes = wholeMinutes(gaps, start).reduce((n, [a, b]) => n + b - a, 0);
  return {
    totalMinutes,
    excludedMinutes,
    eligibleMinutes: totalMinutes - excludedMinutes,
    downMinutes,
    unmeasuredMinutes,
  };
}
