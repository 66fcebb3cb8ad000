import {
  InvalidSlaInputError,
  countDowntime,
  maintenanceQualifies,
  periodBounds,
  worstStatus,
  type DowntimeRule,
  type MaintenanceWindow,
  type ServiceTimeline,
  type SlaStatus,
} from '../../src/domain/sla';

const d = (iso: string): Date => new Date(iso);
/** January 2025 in UTC: [2025-01-01T00:00Z, 2025-02-01T00:00Z), 31 × 1440 = 44,640 minutes. */
const JAN = periodBounds('2025-01', 'UTC');
const RULE: DowntimeRule = { count_degraded_as_down: false, maintenance_notice_hours: 72 };

const timeline = (initial: SlaStatus, ...changes: [string, SlaStatus][]): ServiceTimeline => ({
  initial,
  changes: changes.map(([at, status]) => ({ at: d(at), status })),
});
const count = (services: ServiceTimeline[], maintenances: MaintenanceWindow[] = [], terms: DowntimeRule = RULE) =>
  countDowntime({ services, period: JAN, maintenances, terms });

describe('countDowntime: whole down minutes ("a minute counts as down when the service was down for at least part of it")', () => {
  it('counts nothing for a healthy month: 44,640 total and eligible', () => {
    expect(count([timeline('healthy')])).toEqual({
      totalMinutes: 44_640,
      excludedMinutes: 0,
      eligibleMinutes: 44_640,
      downMinutes: 0,
      unmeasuredMinutes: 0,
    });
  });

  it('counts a down stretch inside one minute as that one minute', () => {
    // 10:04:10 → 10:04:50 lies within minute 10:04 → 1.
    expect(
      count([timeline('healthy', ['2025-01-10T10:04:10Z', 'unhealthy'], ['2025-01-10T10:04:50Z', 'healthy'])])
        .downMinutes,
    ).toBe(1);
  });

  it('counts every minute a flip inside a minute touches', () => {
    // 10:04:30 → 10:05:10 touches minutes 10:04 and 10:05 → 2 (not 40 s rounded to 1).
    expect(
      count([timeline('healthy', ['2025-01-10T10:04:30Z', 'unhealthy'], ['2025-01-10T10:05:10Z', 'healthy'])])
        .downMinutes,
    ).toBe(2);
  });

  it('does not count the neighbouring minutes of flips exactly on minute boundaries', () => {
    // Down from 10:05:00 to 10:07:00: minutes 10:05 and 10:06 → 2; 10:04 and 10:07 stay up.
    expect(
      count([timeline('healthy', ['2025-01-10T10:05:00Z', 'unhealthy'], ['2025-01-10T10:07:00Z', 'healthy'])])
        .downMinutes,
    ).toBe(2);
  });

  it('counts the first and the last minute of the period at its edges', () => {
    // Down before the first change until 00:00:30 → minute 00:00 (1); down from 23:59:59 on 01-31 to the end → minute 23:59 (1). 1 + 1 = 2.
    expect(
      count([timeline('unhealthy', ['2025-01-01T00:00:30Z', 'healthy'], ['2025-01-31T23:59:59Z', 'unhealthy'])])
        .downMinutes,
    ).toBe(2);
  });

  it('clips down time across the period boundaries', () => {
    // Dec 31 23:50 → Jan 1 00:10: only 00:00–00:10 is January → 10. Jan 31 23:55 → Feb 1 00:05: 23:55–24:00 → 5. 10 + 5 = 15.
    const t = timeline(
      'healthy',
      ['2024-12-31T23:50:00Z', 'unhealthy'],
      ['2025-01-01T00:10:00Z', 'healthy'],
      ['2025-01-31T23:55:00Z', 'unhealthy'],
      ['2025-02-01T00:05:00Z', 'healthy'],
    );
    expect(count([t]).downMinutes).toBe(15);
  });

  it('ignores changes at or after the end of the period', () => {
    // Unhealthy from exactly 2025-02-01T00:00Z (the end, exclusive) → 0.
    expect(count([timeline('healthy', ['2025-02-01T00:00:00Z', 'unhealthy'])]).downMinutes).toBe(0);
  });

  it('uses the status in force at the period start from changes before it', () => {
    // Unhealthy since December, recovered at 01-01 00:03:00 → minutes 00:00, 00:01, 00:02 → 3.
    expect(
      count([timeline('healthy', ['2024-12-20T00:00:00Z', 'unhealthy'], ['2025-01-01T00:03:00Z', 'healthy'])])
        .downMinutes,
    ).toBe(3);
  });

  it('counts degraded only when the terms say so', () => {
    // Degraded 10:00 → 10:30 = 30 minutes.
    const t = timeline('healthy', ['2025-01-10T10:00:00Z', 'degraded'], ['2025-01-10T10:30:00Z', 'healthy']);
    expect(count([t]).downMinutes).toBe(0);
    expect(count([t], [], { ...RULE, count_degraded_as_down: true }).downMinutes).toBe(30);
  });

  it('never counts no_data as down', () => {
    // no_data 10:00 → 11:00 (60 minutes) is a gap in the evidence, not an outage → 0.
    expect(
      count([timeline('healthy', ['2025-01-10T10:00:00Z', 'no_data'], ['2025-01-10T11:00:00Z', 'healthy'])])
        .downMinutes,
    ).toBe(0);
    expect(count([timeline('no_data')]).downMinutes).toBe(0);
  });

  it('lets the last of several same-instant changes win', () => {
    // unhealthy then healthy, both at 10:00 → healthy from 10:00 → 0.
    expect(
      count([timeline('healthy', ['2025-01-10T10:00:00Z', 'unhealthy'], ['2025-01-10T10:00:00Z', 'healthy'])])
        .downMinutes,
    ).toBe(0);
  });

  it('refuses unsorted changes and an empty service list', () => {
    expect(() =>
      count([timeline('healthy', ['2025-01-10T10:00:00Z', 'unhealthy'], ['2025-01-10T09:00:00Z', 'healthy'])]),
    ).toThrow(InvalidSlaInputError);
    expect(() => count([])).toThrow(InvalidSlaInputError);
    expect(() => count([timeline('healthy', ['2025-01-10T10:00:00Z', 'down' as SlaStatus])])).toThrow(
      InvalidSlaInputError,
    );
  });
});

describe('countDowntime with several services: worst-of at each instant', () => {
  it('ranks unhealthy > degraded > healthy > no_data', () => {
    expect(worstStatus(['healthy', 'degraded'])).toBe('degraded');
    expect(worstStatus(['no_data', 'unhealthy', 'degraded'])).toBe('unhealthy');
    expect(worstStatus(['no_data', 'healthy'])).toBe('healthy');
    expect(worstStatus(['no_data'])).toBe('no_data');
  });

  it('unions the services’ down time', () => {
    // A down 10:00–10:10, B down 10:05–10:20 → the contract is down 10:00–10:20 = 20 (not 10 + 15 = 25).
    const a = timeline('healthy', ['2025-01-10T10:00:00Z', 'unhealthy'], ['2025-01-10T10:10:00Z', 'healthy']);
    const b = timeline('healthy', ['2025-01-10T10:05:00Z', 'unhealthy'], ['2025-01-10T10:20:00Z', 'healthy']);
    expect(count([a, b]).downMinutes).toBe(20);
  });

  it('counts one minute once when two services fail in different seconds of it', () => {
    // A down 14:00:10–14:00:20, B down 14:00:40–14:00:50: both in minute 14:00 → 1.
    const a = timeline('healthy', ['2025-01-10T14:00:10Z', 'unhealthy'], ['2025-01-10T14:00:20Z', 'healthy']);
    const b = timeline('healthy', ['2025-01-10T14:00:40Z', 'unhealthy'], ['2025-01-10T14:00:50Z', 'healthy']);
    expect(count([a, b]).downMinutes).toBe(1);
  });

  it('lets an unhealthy service win over a no_data one, and a degraded one count only if degraded counts', () => {
    // A no_data all month, B unhealthy 13:00–13:05 → 5. C degraded 12:00–12:10 beside a healthy D → 0, or 10 with degraded counted.
    const a = timeline('no_data');
    const b = timeline('healthy', ['2025-01-10T13:00:00Z', 'unhealthy'], ['2025-01-10T13:05:00Z', 'healthy']);
    expect(count([a, b]).downMinutes).toBe(5);
    const c = timeline('healthy', ['2025-01-10T12:00:00Z', 'degraded'], ['2025-01-10T12:10:00Z', 'healthy']);
    const dd = timeline('healthy');
    expect(count([c, dd]).downMinutes).toBe(0);
    expect(count([c, dd], [], { ...RULE, count_degraded_as_down: true }).downMinutes).toBe(10);
  });

  it('stays down while a second service is still down after the first recovers', () => {
    // A down 10:00–10:10, B down 10:10–10:15 (hand-over at the same instant) → 10:00–10:15 = 15.
    const a = timeline('healthy', ['2025-01-10T10:00:00Z', 'unhealthy'], ['2025-01-10T10:10:00Z', 'healthy']);
    const b = timeline('healthy', ['2025-01-10T10:10:00Z', 'unhealthy'], ['2025-01-10T10:15:00Z', 'healthy']);
    expect(count([a, b]).downMinutes).toBe(15);
  });
});

describe('countDowntime: scheduled maintenance announced at least N hours ahead is excluded', () => {
  // Window 01-15 02:00–04:00 = 120 minutes; with a 72 h rule it must be announced by 01-12 02:00.
  const window = (
    announcedAt: string,
    start = '2025-01-15T02:00:00Z',
    end = '2025-01-15T04:00:00Z',
  ): MaintenanceWindow => ({
    start: d(start),
    end: d(end),
    announcedAt: d(announcedAt),
  });
  const healthy = [timeline('healthy')];

  it('excludes a window announced exactly 72 h ahead, not one announced 71 h ahead', () => {
    // 72 h before 01-15 02:00 is 01-12 02:00 → excluded 120, eligible 44,640 − 120 = 44,520.
    expect(count(healthy, [window('2025-01-12T02:00:00Z')])).toEqual({
      totalMinutes: 44_640,
      excludedMinutes: 120,
      eligibleMinutes: 44_520,
      downMinutes: 0,
      unmeasuredMinutes: 0,
    });
    // 01-12 03:00 is 71 h ahead → not excluded.
    expect(count(healthy, [window('2025-01-12T03:00:00Z')])).toEqual({
      totalMinutes: 44_640,
      excludedMinutes: 0,
      eligibleMinutes: 44_640,
      downMinutes: 0,
      unmeasuredMinutes: 0,
    });
    // One second short of 72 h → not excluded.
    expect(maintenanceQualifies(window('2025-01-12T02:00:01Z'), 72)).toBe(false);
    expect(maintenanceQualifies(window('2025-01-12T02:00:00Z'), 72)).toBe(true);
  });

  it('does not count down time inside an excluded window, and does when the window does not qualify', () => {
    // Unhealthy 02:30–03:30 (60 minutes) inside the window: announced 72 h ahead → 0 down; 71 h → 60 down.
    const t = [timeline('healthy', ['2025-01-15T02:30:00Z', 'unhealthy'], ['2025-01-15T03:30:00Z', 'healthy'])];
    expect(count(t, [window('2025-01-12T02:00:00Z')]).downMinutes).toBe(0);
    expect(count(t, [window('2025-01-12T03:00:00Z')]).downMinutes).toBe(60);
  });

  it('counts overlapping and touching windows once', () => {
    // 02:00–04:00 and 03:00–05:00 → union 02:00–05:00 = 180 (not 120 + 120 = 240).
    expect(
      count(healthy, [
        window('2025-01-01T00:00:00Z'),
        window('2025-01-01T00:00:00Z', '2025-01-15T03:00:00Z', '2025-01-15T05:00:00Z'),
      ]).excludedMinutes,
    ).toBe(180);
    // 02:00–03:00 and 03:00–04:00 → 120.
    expect(
      count(healthy, [
        window('2025-01-01T00:00:00Z', '2025-01-15T02:00:00Z', '2025-01-15T03:00:00Z'),
        window('2025-01-01T00:00:00Z', '2025-01-15T03:00:00Z', '2025-01-15T04:00:00Z'),
      ]).excludedMinutes,
    ).toBe(120);
    // 02:00–04:00 qualifies, 03:00–05:00 announced at 01-15 00:00 (3 h ahead) does not → 120.
    expect(
      count(healthy, [
        window('2025-01-01T00:00:00Z'),
        window('2025-01-15T00:00:00Z', '2025-01-15T03:00:00Z', '2025-01-15T05:00:00Z'),
      ]).excludedMinutes,
    ).toBe(120);
  });

  it('clips windows to the period and ignores those outside it', () => {
    // 12-31 22:00 → 01-01 01:00: only 00:00–01:00 is in January → 60.
    expect(
      count(healthy, [window('2024-12-01T00:00:00Z', '2024-12-31T22:00:00Z', '2025-01-01T01:00:00Z')]).excludedMinutes,
    ).toBe(60);
    // 01-31 23:30 → 02-01 02:00: 23:30–24:00 → 30.
    expect(
      count(healthy, [window('2025-01-01T00:00:00Z', '2025-01-31T23:30:00Z', '2025-02-01T02:00:00Z')]).excludedMinutes,
    ).toBe(30);
    // Entirely in December or in February → 0.
    expect(
      count(healthy, [window('2024-12-01T00:00:00Z', '2024-12-20T00:00:00Z', '2024-12-20T05:00:00Z')]).excludedMinutes,
    ).toBe(0);
    expect(
      count(healthy, [window('2025-01-01T00:00:00Z', '2025-02-03T00:00:00Z', '2025-02-03T05:00:00Z')]).excludedMinutes,
    ).toBe(0);
  });

  it('excludes only whole minutes, and counts down time outside the window in a partly covered minute', () => {
    // Window 02:00:30–02:03:30 wholly covers minutes 02:01 and 02:02 → excluded 2.
    const w = window('2025-01-01T00:00:00Z', '2025-01-15T02:00:30Z', '2025-01-15T02:03:30Z');
    // Down 02:00:00–02:04:00: 02:00 is down outside the window (02:00:00–02:00:30), 02:03 too (02:03:30–02:04:00) → 2.
    const wide = [timeline('healthy', ['2025-01-15T02:00:00Z', 'unhealthy'], ['2025-01-15T02:04:00Z', 'healthy'])];
    expect(count(wide, [w])).toEqual({
      totalMinutes: 44_640,
      excludedMinutes: 2,
      eligibleMinutes: 44_638,
      downMinutes: 2,
      unmeasuredMinutes: 0,
    });
    // Down 02:00:40–02:03:20 lies wholly inside the window → 0 down, though 02:00 and 02:03 stay eligible.
    const inside = [timeline('healthy', ['2025-01-15T02:00:40Z', 'unhealthy'], ['2025-01-15T02:03:20Z', 'healthy'])];
    expect(count(inside, [w])).toEqual({
      totalMinutes: 44_640,
      excludedMinutes: 2,
      eligibleMinutes: 44_638,
      downMinutes: 0,
      unmeasuredMinutes: 0,
    });
  });

  it('with a 0 h rule excludes a window announced at or before its start, never one announced after', () => {
    const rule0 = { ...RULE, maintenance_notice_hours: 0 };
    expect(count(healthy, [window('2025-01-15T02:00:00Z')], rule0).excludedMinutes).toBe(120);
    expect(count(healthy, [window('2025-01-15T02:00:01Z')], rule0).excludedMinutes).toBe(0);
  });

  it('refuses a window that ends before it starts', () => {
    expect(() =>
      count(healthy, [window('2025-01-01T00:00:00Z', '2025-01-15T04:00:00Z', '2025-01-15T02:00:00Z')]),
    ).toThrow(InvalidSlaInputError);
  });
});

describe('countDowntime over a DST month', () => {
  it('uses the period’s own minutes (Berlin March 2025: 44,580) and keeps down time at the real instants', () => {
    const march = periodBounds('2025-03', 'Europe/Berlin');
    // Down 03-30 00:30Z → 01:30Z spans the 01:00Z switch (02:00 CET → 03:00 CEST locally): 60 real minutes, not 120.
    const t = timeline('healthy', ['2025-03-30T00:30:00Z', 'unhealthy'], ['2025-03-30T01:30:00Z', 'healthy']);
    expect(countDowntime({ services: [t], period: march, maintenances: [], terms: RULE })).toEqual({
      totalMinutes: 44_580,
      excludedMinutes: 0,
      eligibleMinutes: 44_580,
      downMinutes: 60,
      unmeasuredMinutes: 0,
    });
  });
});
