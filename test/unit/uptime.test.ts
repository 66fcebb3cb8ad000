import { computeSlo } from '../../src/domain/slo';
import { availabilityTimeline, worstOfTimelines } from '../../src/domain/status-timeline';
import { rollUp } from '../../src/domain/thresholds';
import { effectiveStatus } from '../../src/domain/reason-class';
import { percentFloor, samplesByDay, uptimeByTime, uptimeDayList, uptimeDays } from '../../src/domain/uptime';

describe('uptime per day from daily counts', () => {
  it('lists the UTC days ending today, oldest first', () => {
    const days = uptimeDayList(new Date('2026-11-22T23:59:59.999Z'), 3);
    expect(days).toEqual(['2026-11-20', '2026-11-21', '2026-11-22']);
    expect(uptimeDayList(new Date('2026-11-22T00:00:00.000Z'))).toHaveLength(90);
  });

  it('rounds percentages down to three decimals', () => {
    expect(percentFloor(2, 3)).toBe('66.666');
    expect(percentFloor(1, 1)).toBe('100.000');
    expect(percentFloor(0, 5)).toBe('0.000');
  });

  it("counts the day's sample totals per day from the rollups", () => {
    const m = samplesByDay([
      { day: '2026-11-21', samples: '10' },
      { day: '2026-11-21', samples: 10 },
      { day: '2026-11-22', samples: 4 },
    ]);
    expect([...m]).toEqual([
      ['2026-11-21', 20],
      ['2026-11-22', 4],
    ]);
  });
});

describe('uptime measured in time', () => {
  const now = Date.parse('2026-11-22T12:05:00.000Z');
  const t0 = Date.parse('2026-11-22T12:00:00.000Z');
  const days = uptimeDays(new Date(now), 3);

  it("a five-minute-old service with one failed sample of three is not '66.666%': time weighs, the first day counts from the first sample", () => {
    // Samples at 12:00 healthy, 12:01 unhealthy, 12:02 healthy; now 12:05: down 1 minute of 5 measured.
    const flips = [
      { at: t0, toStatus: 'healthy', reason: null },
      { at: t0 + 60_000, toStatus: 'unhealthy', reason: null },
      { at: t0 + 120_000, toStatus: 'healthy', reason: null },
    ];
    const u = uptimeByTime(availabilityTimeline(flips, t0 - 3_600_000), days, now);
    expect(u.days.map((d) => d.uptime_pct)).toEqual([null, null, '80.000']);
    expect(u.days[2]).toMatchObject({ up_ms: 240_000, measured_ms: 300_000 });
    expect(u.total).toBe('80.000');
    // The total counts from the first sample, and says so (the page reads "since …", not "over 90 days").
    expect(u.since).toBe(t0);
  });

  it('the total counts from the span start when the service was measured before it, and from nothing when never measured', () => {
    const before = uptimeByTime(
      availabilityTimeline([{ at: days[0]!.start - 86_400_000, toStatus: 'healthy', reason: null }]),
      days,
      now,
    );
    expect(before.since).toBe(days[0]!.start);
    // A gap first: the first measured instant is when the gap ended.
    const gapFirst = uptimeByTime(
      availabilityTimeline([
        { at: days[0]!.start - 1000, toStatus: 'no_data', reason: 'stale_agent_silent' },
        { at: t0, toStatus: 'unhealthy', reason: null },
      ]),
      days,
      now,
    );
    expect([gapFirst.since, gapFirst.total]).toEqual([t0, '0.000']);
    expect(
      uptimeByTime(availabilityTimeline([{ at: t0, toStatus: 'no_data', reason: 'invalid_config' }]), days, now).since,
    ).toBeNull();
  });

  it('time down by a target reason is measured and down; a measurement gap is not measured', () => {
    const flips = [
      { at: t0, toStatus: 'healthy', reason: null },
      { at: t0 + 60_000, toStatus: 'no_data', reason: 'ECONNREFUSED' }, // target: down for 1 min
      { at: t0 + 120_000, toStatus: 'no_data', reason: 'stale_agent_silent' }, // measurement: 2 min gap
      { at: t0 + 240_000, toStatus: 'healthy', reason: null },
    ];
    const u = uptimeByTime(availabilityTimeline(flips), days, now);
    expect(u.days[2]).toMatchObject({ up_ms: 120_000, measured_ms: 180_000, uptime_pct: '66.666' });
  });

  it('a day with only a measurement gap is null, and the whole span is null without measured time', () => {
    const u = uptimeByTime(
      availabilityTimeline([{ at: t0, toStatus: 'no_data', reason: 'invalid_config' }], t0 - 1000),
      days,
      now,
    );
    expect(u.days.every((d) => d.uptime_pct === null)).toBe(true);
    expect(u.total).toBeNull();
  });

  it('a service is the worst of its metrics at each instant, and its uptime agrees with an SLO counting the same timeline', () => {
    const a = availabilityTimeline([{ at: t0, toStatus: 'healthy', reason: null }]);
    const b = availabilityTimeline([
      { at: t0, toStatus: 'healthy', reason: null },
      { at: t0 + 30_000, toStatus: 'no_data', reason: 'unexpected_status:503' },
      { at: t0 + 90_000, toStatus: 'degraded', reason: null },
    ]);
    const service = worstOfTimelines([a, b]);
    const u = uptimeByTime(service, days, now);
    expect(u.days[2]).toMatchObject({ up_ms: 240_000, measured_ms: 300_000, uptime_pct: '80.000' });
    const slo = computeSlo(
      service,
      [],
      {
        objective: '99',
        window: { kind: 'rolling', days: 1 },
        no_data: 'excluded',
        maintenance: 'counted',
        degraded: 'good',
      },
      now,
    );
    expect(slo.attainment).toBe(u.total);
  });
});

describe('effective status rollup', () => {
  it('no_data with a target reason rolls up as unhealthy; a measurement reason neither worsens nor improves', () => {
    expect(rollUp([effectiveStatus('healthy', null), effectiveStatus('no_data', 'ECONNREFUSED')]).status).toBe(
      'unhealthy',
    );
    expect(rollUp([effectiveStatus('no_data', 'ECONNREFUSED')]).status).toBe('unhealthy');
    expect(rollUp([effectiveStatus('healthy', null), effectiveStatus('no_data', 'stale_agent_silent')]).status).toBe(
      'healthy',
    );
    expect(rollUp([effectiveStatus('no_data', 'invalid_config')]).status).toBe('no_data');
    expect(rollUp([effectiveStatus('no_data', null)]).status).toBe('no_data');
  });
});
