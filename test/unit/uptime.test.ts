import { percentFloor, uptimeByDay, uptimeDayList } from '../../src/domain/uptime';

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

  it('sums metrics per day, counts degraded as up, leaves no_data out, and totals the span', () => {
    const rows = [
      { day: '2026-11-21', samples: '10', healthy: '8', degraded: '1', no_data: '0' },
      { day: '2026-11-21', samples: 10, healthy: 5, degraded: 0, no_data: 5 },
      { day: '2026-11-22', samples: 4, healthy: 0, degraded: 0, no_data: 4 },
    ];
    const r = uptimeByDay(rows, ['2026-11-20', '2026-11-21', '2026-11-22']);
    expect(r.days).toEqual([
      { date: '2026-11-20', uptime_pct: null, samples: 0 },
      { date: '2026-11-21', uptime_pct: '93.333', samples: 20 },
      { date: '2026-11-22', uptime_pct: null, samples: 4 },
    ]);
    expect(r.total).toBe('93.333');
    expect(uptimeByDay([], ['2026-11-22']).total).toBeNull();
  });
});
