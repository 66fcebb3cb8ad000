import {
  DAY_MS,
  UnknownTimeZoneError,
  calendarMonth,
  lastCalendarDays,
  InvalidPeriodError,
} from '../../src/domain/periods';
import {
  DAILY_UPTIME_POLICY,
  InvalidSloPolicyError,
  classify,
  computeSlo,
  dailyUptime,
  formatFloor,
  parseObjective,
  validateSloPolicy,
  type SloPolicy,
} from '../../src/domain/slo';
import type { StatusChange } from '../../src/domain/status-timeline';
import type { HealthStatus } from '../../src/domain/thresholds';

const M = 60_000;
const H = 3_600_000;
const ms = (iso: string): number => Date.parse(iso);

const rolling = (days: number, extra: Partial<SloPolicy> = {}): SloPolicy => ({
  objective: '99.9',
  window: { kind: 'rolling', days },
  no_data: 'excluded',
  maintenance: 'excluded',
  ...extra,
});
const monthly = (timezone: string, extra: Partial<SloPolicy> = {}): SloPolicy => ({
  objective: '99.9',
  window: { kind: 'calendar_month', timezone },
  no_data: 'excluded',
  maintenance: 'excluded',
  ...extra,
});

describe('formatFloor (exact decimals, rounded toward −∞)', () => {
  it.each([
    [2n, 3n, 3, '0.666'],
    [-2n, 3n, 3, '-0.667'],
    [-1n, 3000n, 3, '-0.001'],
    [0n, 7n, 3, '0.000'],
    [100n, 1n, 3, '100.000'],
    [99_950n, 1000n, 3, '99.950'],
    [7n, 2n, 0, '3'],
    [-7n, 2n, 0, '-4'],
    [123_456_789n, 1000n, 2, '123456.78'],
  ])('%d / %d with %d digits is %s', (num, den, digits, expected) =>
    expect(formatFloor(num, den, digits)).toBe(expected),
  );
});

describe('objective and policy validation', () => {
  it.each([
    ['99.9', 999n, 1000n],
    ['99.95', 9995n, 10000n],
    ['100', 100n, 100n],
    ['100.000', 100000n, 100000n],
    ['0.000001', 1n, 100000000n],
    ['95', 95n, 100n],
  ])('reads objective %s exactly as %d/%d', (objective, num, den) =>
    expect(parseObjective(objective)).toEqual({ num, den }),
  );

  it.each(['0', '0.0', '100.1', '101', '99.9999999', 'abc', '', ' 99.9', '-1', '1e2', '99.', '.9', '99,9'])(
    'rejects objective %j',
    (objective) => {
      expect(() => parseObjective(objective)).toThrow(InvalidSloPolicyError);
      expect(() => computeSlo([], [], rolling(30, { objective }), 0)).toThrow(InvalidSloPolicyError);
    },
  );

  it.each([
    [{ window: { kind: 'rolling', days: 0 } }],
    [{ window: { kind: 'rolling', days: 1.5 } }],
    [{ window: { kind: 'weekly' } }],
    [{ no_data: 'ignored' }],
    [{ maintenance: 'healthy' }],
    [{ degraded: 'excluded' }],
  ])('rejects the policy fields %j', (extra) => {
    const policy = { ...rolling(30), ...extra } as unknown as SloPolicy;
    expect(() => validateSloPolicy(policy)).toThrow(InvalidSloPolicyError);
  });

  it('rejects an unknown time zone with the typed zone error', () => {
    expect(() => computeSlo([], [], monthly('Europe/Atlantis'), 0)).toThrow(UnknownTimeZoneError);
  });

  it('rejects a period label on a rolling window, and a malformed label', () => {
    expect(() => computeSlo([], [], rolling(30), 0, { period: '2024-01' })).toThrow(InvalidSloPolicyError);
    expect(() => computeSlo([], [], monthly('UTC'), 0, { period: '2024-13' })).toThrow(InvalidPeriodError);
  });
});

describe('classify', () => {
  const policy = { no_data: 'bad', maintenance: 'excluded' } as const;
  it.each([
    ['unknown', false, 'excluded'],
    ['unknown', true, 'excluded'],
    ['healthy', false, 'good'],
    ['unhealthy', false, 'bad'],
    ['degraded', false, 'good'],
    ['no_data', false, 'bad'],
    ['unhealthy', true, 'excluded'],
  ] as const)('%s (maintenance %s) is %s', (status, maintenance, verdict) =>
    expect(classify({ status, maintenance }, policy)).toBe(verdict),
  );

  it('counts degraded as bad when the policy says so', () =>
    expect(classify({ status: 'degraded' }, { ...policy, degraded: 'bad' })).toBe('bad'));
});

/**
 * One day, rolling window [S, S + 1440 min), in minutes from S:
 * unknown 0–60, healthy 60–600, degraded 600–700, unhealthy 700–730, no_data 730–800, healthy 800–1440.
 * Maintenance 0–30 (unknown), 650–720 (degraded 50, unhealthy 20), 780–810 (no_data 20, healthy 10).
 */
const S = ms('2024-06-10T00:00:00Z');
const NOW = S + DAY_MS;
const at = (min: number, status: HealthStatus): StatusChange => ({ at: S + min * M, status });
const day = [at(60, 'healthy'), at(600, 'degraded'), at(700, 'unhealthy'), at(730, 'no_data'), at(800, 'healthy')];
const windows = [
  { start: S, end: S + 30 * M },
  { start: S + 650 * M, end: S + 720 * M },
  { start: S + 780 * M, end: S + 810 * M },
];
/** Minutes per status, outside and inside maintenance. */
const minutes = {
  unknown: { out: 30, in: 30 },
  healthy: { out: 1170, in: 10 },
  degraded: { out: 50, in: 50 },
  unhealthy: { out: 10, in: 20 },
  no_data: { out: 50, in: 20 },
};

describe('computeSlo: every combination of the counting policy', () => {
  const combos = (['bad', 'good', 'excluded'] as const).flatMap((no_data) =>
    (['excluded', 'good', 'counted'] as const).flatMap((maintenance) =>
      (['good', 'bad'] as const).map((degraded) => ({ no_data, maintenance, degraded })),
    ),
  );

  it.each(combos)('no_data %s, maintenance %s, degraded %s', (counting) => {
    // Expected from the table above and the documented counting steps.
    const expected = { good: 0, bad: 0, excluded: minutes.unknown.out + minutes.unknown.in };
    const verdict = {
      healthy: 'good',
      unhealthy: 'bad',
      degraded: counting.degraded,
      no_data: counting.no_data,
    } as const;
    for (const status of ['healthy', 'degraded', 'unhealthy', 'no_data'] as const) {
      expected[verdict[status]] += minutes[status].out;
      const inside = counting.maintenance === 'counted' ? verdict[status] : counting.maintenance;
      expected[inside] += minutes[status].in;
    }
    const r = computeSlo(day, windows, rolling(1, counting), NOW);
    expect([r.good_ms, r.bad_ms, r.excluded_ms]).toEqual([expected.good * M, expected.bad * M, expected.excluded * M]);
    expect(r.good_ms + r.bad_ms + r.excluded_ms).toBe(DAY_MS);
    expect(r.error_budget_total_ms).toBe(Math.floor(((1440 - expected.excluded) * M) / 1000));
    expect(r.error_budget_remaining_ms).toBe(r.error_budget_total_ms - r.bad_ms);
    expect(r.met).toBe(expected.good * 1000 >= 999 * (expected.good + expected.bad));
  });

  it('spot check: defaults (degraded good), no_data bad, maintenance excluded', () => {
    const r = computeSlo(day, windows, rolling(1, { no_data: 'bad' }), NOW);
    expect(r).toMatchObject({
      good_ms: 1220 * M,
      bad_ms: 60 * M,
      excluded_ms: 160 * M,
      attainment: '95.312',
      met: false,
    });
  });

  it('spot check: everything forgiving', () => {
    const r = computeSlo(day, windows, rolling(1, { no_data: 'good', maintenance: 'good', degraded: 'good' }), NOW);
    expect(r).toMatchObject({ good_ms: 1370 * M, bad_ms: 10 * M, excluded_ms: 60 * M, attainment: '99.275' });
  });
});

describe('computeSlo: attainment, budget and burn rate', () => {
  const budget = DAY_MS / 1000; // 99.9 % of one day leaves 86.4 s

  it('meets an objective attained exactly, with 0 budget left and a burn rate of 1', () => {
    const r = computeSlo(
      [
        { at: 0, status: 'healthy' },
        { at: NOW - budget, status: 'unhealthy' },
      ],
      [],
      rolling(1),
      NOW,
    );
    expect(r).toMatchObject({
      attainment: '99.900',
      met: true,
      bad_ms: budget,
      error_budget_total_ms: budget,
      error_budget_remaining_ms: 0,
      error_budget_remaining_pct: '0.000',
      burn_rate: '1.000',
    });
  });

  it('misses it by one ms, and the floor never rounds the attainment up to the objective', () => {
    const r = computeSlo(
      [
        { at: 0, status: 'healthy' },
        { at: NOW - budget - 1, status: 'unhealthy' },
      ],
      [],
      rolling(1),
      NOW,
    );
    expect(r).toMatchObject({
      attainment: '99.899',
      met: false,
      error_budget_remaining_ms: -1,
      error_budget_remaining_pct: '-0.002',
      burn_rate: '1.000',
    });
  });

  it('goes negative when the budget is overspent', () => {
    const r = computeSlo(
      [
        { at: 0, status: 'healthy' },
        { at: NOW - 3 * budget, status: 'unhealthy' },
      ],
      [],
      rolling(1),
      NOW,
    );
    expect(r).toMatchObject({
      error_budget_remaining_ms: -2 * budget,
      error_budget_remaining_pct: '-200.000',
      burn_rate: '3.000',
      met: false,
      attainment: '99.700',
    });
  });

  it('is exact for long windows: 99.95 % of 30 days', () => {
    const bad = (30 * DAY_MS * 5) / 10_000; // 21.6 min
    const r = computeSlo(
      [
        { at: 0, status: 'healthy' },
        { at: NOW - bad, status: 'unhealthy' },
      ],
      [],
      rolling(30, { objective: '99.95' }),
      NOW,
    );
    expect(r).toMatchObject({
      attainment: '99.950',
      met: true,
      error_budget_total_ms: bad,
      error_budget_remaining_ms: 0,
    });
  });

  it('reports a 100 % attainment and full budget for a healthy window', () => {
    const r = computeSlo([{ at: 0, status: 'healthy' }], [], rolling(30), NOW);
    expect(r).toMatchObject({
      attainment: '100.000',
      met: true,
      error_budget_remaining_pct: '100.000',
      burn_rate: '0.000',
      good_ms: 30 * DAY_MS,
      excluded_ms: 0,
      elapsed_ms: 30 * DAY_MS,
    });
    expect(r.period_start).toBe(NOW - 30 * DAY_MS);
    expect(r.period_end).toBe(NOW);
    expect(r.period_label).toBeNull();
    expect(r.objective).toBe('99.9');
  });

  it('has no attainment and is met when nothing was counted (no data ever recorded)', () => {
    const r = computeSlo([], [], rolling(7), NOW);
    expect(r).toMatchObject({
      attainment: null,
      met: true,
      good_ms: 0,
      bad_ms: 0,
      excluded_ms: 7 * DAY_MS,
      error_budget_total_ms: 0,
      error_budget_remaining_pct: null,
      burn_rate: '0.000',
    });
  });

  it('with objective 100: any bad time is an infinite burn (null) and a negative budget', () => {
    const r = computeSlo(
      [
        { at: 0, status: 'healthy' },
        { at: NOW - 1, status: 'unhealthy' },
      ],
      [],
      rolling(1, { objective: '100' }),
      NOW,
    );
    expect(r).toMatchObject({
      error_budget_total_ms: 0,
      error_budget_remaining_ms: -1,
      error_budget_remaining_pct: null,
      burn_rate: null,
      met: false,
      attainment: '99.999',
    });
    const clean = computeSlo([{ at: 0, status: 'healthy' }], [], rolling(1, { objective: '100' }), NOW);
    expect(clean).toMatchObject({ burn_rate: '0.000', met: true, attainment: '100.000' });
  });

  it('counts only the part of the metric that existed: the budget shrinks with the excluded time', () => {
    const r = computeSlo([{ at: NOW - 10 * DAY_MS, status: 'healthy' }], [], rolling(30), NOW);
    expect(r).toMatchObject({
      good_ms: 10 * DAY_MS,
      excluded_ms: 20 * DAY_MS,
      error_budget_total_ms: (10 * DAY_MS) / 1000,
    });
  });

  it('ignores changes after now and carries the status in force before the window in', () => {
    const timeline = [
      { at: S - 40 * DAY_MS, status: 'unhealthy' as const },
      { at: S - DAY_MS, status: 'degraded' as const },
      { at: NOW + 1, status: 'unhealthy' as const },
      { at: NOW + DAY_MS, status: 'healthy' as const },
    ];
    const r = computeSlo(timeline, [], rolling(1, { degraded: 'bad' }), NOW);
    expect(r).toMatchObject({ good_ms: 0, bad_ms: DAY_MS, excluded_ms: 0 });
  });
});

describe('computeSlo over calendar months', () => {
  const berlinMarch = calendarMonth('2024-03', 'Europe/Berlin'); // 743 h, clocks forward on the 31st

  it('burn rate at the very start of the period is 0, not a division by zero', () => {
    const r = computeSlo([{ at: 0, status: 'unhealthy' }], [], monthly('Europe/Berlin'), berlinMarch.start);
    expect(r).toMatchObject({
      period_start: berlinMarch.start,
      period_end: berlinMarch.end,
      period_label: '2024-03',
      elapsed_ms: 0,
      good_ms: 0,
      bad_ms: 0,
      attainment: null,
      burn_rate: '0.000',
      met: true,
      error_budget_total_ms: (743 * H) / 1000,
      error_budget_remaining_pct: '100.000',
    });
  });

  it('mid-month: budget over the whole month, burn rate against the elapsed fraction', () => {
    const now = berlinMarch.start + 10 * DAY_MS;
    const timeline = [
      { at: berlinMarch.start - DAY_MS, status: 'healthy' as const },
      { at: now - 2 * H, status: 'unhealthy' as const },
      { at: now - 2 * H + 30 * M, status: 'healthy' as const },
    ];
    const r = computeSlo(timeline, [], monthly('Europe/Berlin'), now);
    expect(r).toMatchObject({
      elapsed_ms: 240 * H,
      good_ms: 240 * H - 30 * M,
      bad_ms: 30 * M,
      error_budget_total_ms: 2_674_800,
      error_budget_remaining_ms: 874_800,
      error_budget_remaining_pct: '32.705',
      burn_rate: '2.083',
      attainment: '99.791',
      met: false,
    });
  });

  it('uses the month of now in the zone: 23:30Z on 31 Dec is January in Berlin', () => {
    const now = ms('2024-12-31T23:30:00Z');
    expect(computeSlo([], [], monthly('Europe/Berlin'), now).period_label).toBe('2025-01');
    expect(computeSlo([], [], monthly('UTC'), now).period_label).toBe('2024-12');
    expect(computeSlo([], [], monthly('Pacific/Chatham'), ms('2024-12-31T10:15:00Z')).period_start).toBe(
      ms('2024-12-31T10:15:00Z'),
    );
  });

  it('counts a whole 25-hour-longer October in Berlin (745 h) once it is over', () => {
    const oct = calendarMonth('2024-10', 'Europe/Berlin');
    const r = computeSlo([{ at: 0, status: 'healthy' }], [], monthly('Europe/Berlin'), oct.end + DAY_MS, {
      period: '2024-10',
    });
    expect(r).toMatchObject({ elapsed_ms: 745 * H, good_ms: 745 * H, burn_rate: '0.000', period_label: '2024-10' });
  });

  it('a closed month: met exactly when the budget is not overspent', () => {
    const feb = calendarMonth('2024-02', 'Asia/Kathmandu'); // leap February, 696 h
    const budget = (696 * H) / 1000;
    for (const [bad, met] of [
      [budget, true],
      [budget + 1, false],
    ] as const) {
      const r = computeSlo(
        [
          { at: 0, status: 'healthy' },
          { at: feb.end - bad, status: 'unhealthy' },
        ],
        [],
        monthly('Asia/Kathmandu'),
        ms('2030-01-01T00:00:00Z'),
        { period: '2024-02' },
      );
      expect(r.met).toBe(met);
      expect(r.error_budget_remaining_ms >= 0).toBe(met);
      expect(r.burn_rate).toBe('1.000'); // 1 ms over is still 1.000 after flooring
    }
  });

  it('a future month has nothing elapsed', () => {
    const r = computeSlo([{ at: 0, status: 'unhealthy' }], [], monthly('UTC'), ms('2024-01-15T00:00:00Z'), {
      period: '2024-03',
    });
    expect(r).toMatchObject({ elapsed_ms: 0, bad_ms: 0, burn_rate: '0.000', met: true });
  });

  it('clips maintenance windows that overlap the period start or run past now', () => {
    const jan = calendarMonth('2024-01', 'America/New_York');
    const now = jan.start + 5 * DAY_MS;
    const timeline = [{ at: 0, status: 'unhealthy' as const }];
    const maintenances = [
      { start: jan.start - DAY_MS, end: jan.start + 2 * H },
      { start: now - 3 * H, end: now + DAY_MS },
    ];
    const excluded = computeSlo(timeline, maintenances, monthly('America/New_York'), now);
    expect(excluded).toMatchObject({ excluded_ms: 5 * H, bad_ms: 5 * DAY_MS - 5 * H, good_ms: 0 });
    expect(excluded.error_budget_total_ms).toBe(Math.floor((jan.end - jan.start - 5 * H) / 1000));
    const good = computeSlo(timeline, maintenances, monthly('America/New_York', { maintenance: 'good' }), now);
    expect(good).toMatchObject({ excluded_ms: 0, good_ms: 5 * H, bad_ms: 5 * DAY_MS - 5 * H });
    const counted = computeSlo(timeline, maintenances, monthly('America/New_York', { maintenance: 'counted' }), now);
    expect(counted).toMatchObject({ excluded_ms: 0, good_ms: 0, bad_ms: 5 * DAY_MS });
  });
});

describe('dailyUptime', () => {
  const tz = 'Europe/Berlin';
  const now = ms('2024-03-31T12:00:00Z'); // 14:00 on Berlin's 23-hour day
  const days = lastCalendarDays(4, now, tz); // 28th … 31st of March
  const d29 = days[1]!;
  const d30 = days[2]!;
  const d31 = days[3]!;
  const timeline: StatusChange[] = [
    { at: d29.start + 12 * H, status: 'healthy' }, // the 28th and half the 29th: nothing recorded
    { at: d30.start + 6 * H, status: 'unhealthy' },
    { at: d30.start + 7 * H, status: 'degraded' },
    { at: d30.start + 9 * H, status: 'no_data' },
    { at: d30.start + 10 * H, status: 'healthy' },
  ];
  const maintenances = [{ start: d30.start + 6 * H + 30 * M, end: d30.start + 8 * H }];

  it('reports raw status time per day and uptime under the default policy', () => {
    const rows = dailyUptime(timeline, maintenances, days, { now });
    expect(rows.map((r) => r.date)).toEqual(['2024-03-28', '2024-03-29', '2024-03-30', '2024-03-31']);
    expect(rows[0]).toEqual({
      date: '2024-03-28',
      uptime_pct: null,
      healthy_ms: 0,
      degraded_ms: 0,
      unhealthy_ms: 0,
      no_data_ms: 0,
      maintenance_ms: 0,
    });
    expect(rows[1]).toMatchObject({ uptime_pct: '100.000', healthy_ms: 12 * H });
    // 30th: healthy 6 + 14 h, unhealthy 1 h (30 min in maintenance), degraded 2 h (1 h in maintenance), no_data 1 h.
    expect(rows[2]).toEqual({
      date: '2024-03-30',
      healthy_ms: 20 * H,
      degraded_ms: 2 * H,
      unhealthy_ms: H,
      no_data_ms: H,
      maintenance_ms: 90 * M,
      uptime_pct: '97.674',
    }); // 21 h good of 21.5 h counted
    // 31st: the 23-hour day, counted up to now (13 h after its midnight, 22:00Z the day before).
    expect(rows[3]).toMatchObject({ healthy_ms: now - d31.start, uptime_pct: '100.000' });
    expect(now - d31.start).toBe(13 * H);
  });

  it('counts each day up to its end without now, so a 23-hour day holds 23 h', () => {
    const rows = dailyUptime([{ at: 0, status: 'healthy' }], [], days);
    expect(rows[3]?.healthy_ms).toBe(23 * H);
    expect(rows[1]?.healthy_ms).toBe(24 * H);
  });

  it('is null for a day with only no_data (no data at all) under the default policy', () => {
    const [row] = dailyUptime([{ at: 0, status: 'no_data' }], [], [d29]);
    expect(row).toMatchObject({ uptime_pct: null, no_data_ms: 24 * H });
    expect(dailyUptime([{ at: 0, status: 'no_data' }], [], [d29], { no_data: 'bad' })[0]?.uptime_pct).toBe('0.000');
  });

  it('applies the counting policy overrides', () => {
    expect(DAILY_UPTIME_POLICY).toEqual({ no_data: 'excluded', maintenance: 'excluded', degraded: 'good' });
    const strict = dailyUptime(timeline, maintenances, [d30], {
      degraded: 'bad',
      no_data: 'bad',
      maintenance: 'counted',
    })[0];
    expect(strict?.uptime_pct).toBe(formatFloor(20n * 100n, 24n, 3)); // 20 of 24 h good
    const lenient = dailyUptime(timeline, maintenances, [d30], { maintenance: 'good' })[0];
    expect(lenient?.uptime_pct).toBe(formatFloor(225n * 100n, 230n, 3)); // 22.5 h good of 23 h counted (no_data left out)
  });

  it('counts nothing for a day after now', () => {
    const [row] = dailyUptime([{ at: 0, status: 'healthy' }], [], [d31], { now: d31.start });
    expect(row).toMatchObject({ uptime_pct: null, healthy_ms: 0 });
  });
});
