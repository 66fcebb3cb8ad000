import {
  clipTimeline,
  durationsByStatus,
  emptyDurations,
  maintenanceSegments,
  mergeIntervals,
  normalizeTimeline,
  overlapMs,
  statusAt,
  worstOfTimelines,
  type StatusChange,
} from '../../src/domain/status-timeline';
import { worstOf, type HealthStatus } from '../../src/domain/thresholds';

const M = 60_000; // one minute
const c = (atMin: number, status: HealthStatus): StatusChange => ({ at: atMin * M, status });
const d = (partial: Partial<ReturnType<typeof emptyDurations>>) => ({ ...emptyDurations(), ...partial });

/** healthy 0–10, unhealthy 10–15, degraded 15–30, no_data 30–40, healthy from 40 (minutes). */
const metric = [c(0, 'healthy'), c(10, 'unhealthy'), c(15, 'degraded'), c(30, 'no_data'), c(40, 'healthy')];

describe('normalizeTimeline', () => {
  it('sorts changes and drops repeats of the status in force', () => {
    expect(normalizeTimeline([c(20, 'healthy'), c(0, 'healthy'), c(10, 'unhealthy'), c(30, 'healthy')])).toEqual([
      c(0, 'healthy'),
      c(10, 'unhealthy'),
      c(20, 'healthy'),
    ]);
  });

  it('keeps the last given of two changes at the same instant', () => {
    expect(normalizeTimeline([c(0, 'healthy'), c(5, 'degraded'), c(5, 'unhealthy')])).toEqual([
      c(0, 'healthy'),
      c(5, 'unhealthy'),
    ]);
    expect(normalizeTimeline([c(0, 'healthy'), c(5, 'degraded'), c(5, 'healthy')])).toEqual([c(0, 'healthy')]);
  });

  it('rejects a change at a non-finite instant', () => {
    expect(() => normalizeTimeline([{ at: Number.NaN, status: 'healthy' }])).toThrow(RangeError);
  });

  it('does not modify its input', () => {
    const input = [c(10, 'healthy'), c(0, 'unhealthy')];
    normalizeTimeline(input);
    expect(input).toEqual([c(10, 'healthy'), c(0, 'unhealthy')]);
  });
});

describe('statusAt', () => {
  it.each([
    [-1, 'unknown'],
    [0, 'healthy'],
    [9.999, 'healthy'],
    [10, 'unhealthy'],
    [35, 'no_data'],
    [1e6, 'healthy'],
  ])('at minute %d reads %s (a status holds from its at until the next change)', (min, status) =>
    expect(statusAt(metric, min * M)).toBe(status),
  );

  it('is unknown for an empty timeline', () => expect(statusAt([], 0)).toBe('unknown'));
});

describe('clipTimeline', () => {
  it('covers the whole range, starting with the status in force at its start', () => {
    expect(clipTimeline(metric, 12 * M, 35 * M)).toEqual([
      { start: 12 * M, end: 15 * M, status: 'unhealthy' },
      { start: 15 * M, end: 30 * M, status: 'degraded' },
      { start: 30 * M, end: 35 * M, status: 'no_data' },
    ]);
  });

  it('starts with unknown when nothing was recorded before the range start', () => {
    expect(clipTimeline(metric, -5 * M, 12 * M)).toEqual([
      { start: -5 * M, end: 0, status: 'unknown' },
      { start: 0, end: 10 * M, status: 'healthy' },
      { start: 10 * M, end: 12 * M, status: 'unhealthy' },
    ]);
  });

  it('ignores changes at or after the range end and uses the last change before the range', () => {
    expect(clipTimeline(metric, 50 * M, 60 * M)).toEqual([{ start: 50 * M, end: 60 * M, status: 'healthy' }]);
    expect(clipTimeline(metric, 5 * M, 10 * M)).toEqual([{ start: 5 * M, end: 10 * M, status: 'healthy' }]);
  });

  it('is all unknown for an empty timeline or a range before the first change', () => {
    expect(clipTimeline([], 0, M)).toEqual([{ start: 0, end: M, status: 'unknown' }]);
    expect(clipTimeline(metric, -10 * M, -5 * M)).toEqual([{ start: -10 * M, end: -5 * M, status: 'unknown' }]);
  });

  it('is empty for an empty or inverted range', () => {
    expect(clipTimeline(metric, 5 * M, 5 * M)).toEqual([]);
    expect(clipTimeline(metric, 6 * M, 5 * M)).toEqual([]);
  });
});

describe('durationsByStatus', () => {
  it('sums ms per status inside [from, to)', () => {
    expect(durationsByStatus(metric, 0, 60 * M)).toEqual(
      d({ healthy: 30 * M, unhealthy: 5 * M, degraded: 15 * M, no_data: 10 * M }),
    );
  });

  it('counts the time before the first change as unknown, never as no_data', () => {
    expect(durationsByStatus(metric, -20 * M, 5 * M)).toEqual(d({ unknown: 20 * M, healthy: 5 * M }));
    expect(durationsByStatus([], 0, 60 * M)).toEqual(d({ unknown: 60 * M }));
  });

  it('the durations add up to the range length', () => {
    const got = durationsByStatus(metric, -3 * M, 47 * M);
    expect(Object.values(got).reduce((a, b) => a + b, 0)).toBe(50 * M);
  });

  it('is all zero for an empty range', () => {
    expect(durationsByStatus(metric, 10 * M, 10 * M)).toEqual(emptyDurations());
  });

  it('works in ms, not rounded minutes', () => {
    expect(
      durationsByStatus(
        [
          { at: 0, status: 'healthy' },
          { at: 1_500, status: 'unhealthy' },
        ],
        0,
        2_001,
      ),
    ).toEqual(d({ healthy: 1_500, unhealthy: 501 }));
  });

  describe('with maintenance windows', () => {
    /** Window minutes 8–12 (healthy 8–10, unhealthy 10–12) and 38–45 (no_data 38–40, healthy 40–45). */
    const windows = [
      { start: 8 * M, end: 12 * M },
      { start: 38 * M, end: 45 * M },
    ];

    it('counted: maintenance changes nothing (the default)', () => {
      expect(durationsByStatus(metric, 0, 60 * M, { maintenances: windows })).toEqual(
        durationsByStatus(metric, 0, 60 * M),
      );
      expect(durationsByStatus(metric, 0, 60 * M, { maintenances: windows, mode: 'counted' })).toEqual(
        durationsByStatus(metric, 0, 60 * M),
      );
    });

    it('excluded: window time moves to the maintenance bucket', () => {
      expect(durationsByStatus(metric, 0, 60 * M, { maintenances: windows, mode: 'excluded' })).toEqual(
        d({ healthy: 30 * M - 2 * M - 5 * M, unhealthy: 3 * M, degraded: 15 * M, no_data: 8 * M, maintenance: 11 * M }),
      );
    });

    it('healthy: window time counts as healthy', () => {
      expect(durationsByStatus(metric, 0, 60 * M, { maintenances: windows, mode: 'healthy' })).toEqual(
        d({ healthy: 30 * M + 2 * M + 2 * M, unhealthy: 3 * M, degraded: 15 * M, no_data: 8 * M }),
      );
    });

    it('clips windows that overlap the range edges', () => {
      const edges = [
        { start: -10 * M, end: 2 * M },
        { start: 55 * M, end: 90 * M },
      ];
      expect(durationsByStatus(metric, 0, 60 * M, { maintenances: edges, mode: 'excluded' })).toEqual(
        d({ healthy: 23 * M, unhealthy: 5 * M, degraded: 15 * M, no_data: 10 * M, maintenance: 7 * M }),
      );
    });

    it('merges overlapping windows so no time is counted twice', () => {
      const overlapping = [
        { start: 0, end: 20 * M },
        { start: 5 * M, end: 25 * M },
        { start: 25 * M, end: 26 * M },
      ];
      expect(durationsByStatus(metric, 0, 60 * M, { maintenances: overlapping, mode: 'excluded' }).maintenance).toBe(
        26 * M,
      );
    });

    it('accepts an open-ended window (end = Infinity)', () => {
      expect(
        durationsByStatus(metric, 0, 60 * M, {
          maintenances: [{ start: 50 * M, end: Number.POSITIVE_INFINITY }],
          mode: 'excluded',
        }).maintenance,
      ).toBe(10 * M);
    });

    it('leaves unknown time unknown in every mode', () => {
      for (const mode of ['counted', 'healthy', 'excluded'] as const) {
        expect(
          durationsByStatus(metric, -10 * M, 0, { maintenances: [{ start: -20 * M, end: 0 }], mode }).unknown,
        ).toBe(10 * M);
      }
    });
  });
});

describe('interval helpers', () => {
  it('mergeIntervals sorts, merges overlapping and touching intervals, drops empty ones', () => {
    expect(
      mergeIntervals([
        { start: 30, end: 40 },
        { start: 0, end: 10 },
        { start: 10, end: 15 },
        { start: 5, end: 7 },
        { start: 20, end: 20 },
        { start: 50, end: 45 },
      ]),
    ).toEqual([
      { start: 0, end: 15 },
      { start: 30, end: 40 },
    ]);
  });

  it('overlapMs measures the part inside a range', () => {
    expect(
      overlapMs(
        [
          { start: 0, end: 10 },
          { start: 5, end: 20 },
          { start: 30, end: 40 },
        ],
        8,
        35,
      ),
    ).toBe(12 + 5);
  });

  it('maintenanceSegments splits at window edges and marks window time', () => {
    expect(maintenanceSegments([c(0, 'healthy')], [{ start: 2 * M, end: 4 * M }], 0, 6 * M)).toEqual([
      { start: 0, end: 2 * M, status: 'healthy', maintenance: false },
      { start: 2 * M, end: 4 * M, status: 'healthy', maintenance: true },
      { start: 4 * M, end: 6 * M, status: 'healthy', maintenance: false },
    ]);
  });

  it('maintenanceSegments handles a window spanning several status changes', () => {
    const segs = maintenanceSegments(metric, [{ start: 5 * M, end: 35 * M }], 0, 40 * M);
    expect(segs.filter((s) => s.maintenance).map((s) => [s.start / M, s.end / M, s.status])).toEqual([
      [5, 10, 'healthy'],
      [10, 15, 'unhealthy'],
      [15, 30, 'degraded'],
      [30, 35, 'no_data'],
    ]);
    expect(segs.reduce((a, s) => a + (s.end - s.start), 0)).toBe(40 * M);
  });
});

describe('worstOfTimelines (service status = worst of its metrics)', () => {
  it('takes the worst measured status at each instant', () => {
    const a = [c(0, 'healthy'), c(10, 'unhealthy'), c(20, 'healthy')];
    const b = [c(0, 'healthy'), c(5, 'degraded'), c(15, 'healthy')];
    expect(worstOfTimelines([a, b])).toEqual([c(0, 'healthy'), c(5, 'degraded'), c(10, 'unhealthy'), c(20, 'healthy')]);
  });

  it('reads no_data only when every started metric is no_data', () => {
    const a = [c(0, 'no_data'), c(10, 'healthy')];
    const b = [c(0, 'no_data'), c(5, 'degraded'), c(8, 'no_data')];
    expect(worstOfTimelines([a, b])).toEqual([c(0, 'no_data'), c(5, 'degraded'), c(8, 'no_data'), c(10, 'healthy')]);
  });

  it('never lets no_data improve or worsen a measured metric', () => {
    expect(worstOfTimelines([[c(0, 'unhealthy')], [c(0, 'no_data')]])).toEqual([c(0, 'unhealthy')]);
    expect(worstOfTimelines([[c(0, 'healthy')], [c(0, 'no_data')]])).toEqual([c(0, 'healthy')]);
  });

  it('skips metrics that have not started (unknown), like null children of rollUp', () => {
    const early = [c(0, 'healthy')];
    const late = [c(10, 'unhealthy'), c(12, 'healthy')];
    expect(worstOfTimelines([late, early])).toEqual([c(0, 'healthy'), c(10, 'unhealthy'), c(12, 'healthy')]);
  });

  it('matches worstOf from thresholds.ts at every instant', () => {
    const ts = [
      [c(0, 'healthy'), c(3, 'no_data'), c(7, 'unhealthy'), c(9, 'healthy')],
      [c(1, 'degraded'), c(4, 'no_data'), c(8, 'healthy')],
      [c(2, 'no_data'), c(6, 'degraded')],
    ];
    const service = worstOfTimelines(ts);
    for (let min = -1; min <= 10; min += 0.5) {
      const expected = worstOf(ts.map((t) => statusAt(t, min * M)).map((s) => (s === 'unknown' ? null : s)));
      expect(statusAt(service, min * M)).toBe(expected ?? 'unknown');
    }
  });

  it('emits no repeated status and is empty without metrics', () => {
    expect(worstOfTimelines([])).toEqual([]);
    expect(worstOfTimelines([[], []])).toEqual([]);
    expect(
      worstOfTimelines([
        [c(0, 'unhealthy'), c(5, 'healthy')],
        [c(0, 'healthy'), c(5, 'unhealthy')],
      ]),
    ).toEqual([c(0, 'unhealthy')]);
  });

  it('accepts unsorted metric timelines', () => {
    expect(worstOfTimelines([[c(10, 'healthy'), c(0, 'unhealthy')]])).toEqual([c(0, 'unhealthy'), c(10, 'healthy')]);
  });
});
