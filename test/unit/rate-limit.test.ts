import { judge, windowsAt } from '../../src/domain/rate-limit';

describe('rate-limit windows', () => {
  it('aligns to the UTC minute and the UTC day, with resets in whole seconds', () => {
    const w = windowsAt(new Date('2026-11-22T23:59:30.250Z'));
    expect(w.minuteStart.toISOString()).toBe('2026-11-22T23:59:00.000Z');
    expect(w.dayStart.toISOString()).toBe('2026-11-22T00:00:00.000Z');
    expect(w.minuteResetSeconds).toBe(30);
    expect(w.dayResetSeconds).toBe(30);
  });

  it('never reports a reset of 0 seconds', () => {
    const w = windowsAt(new Date('2026-11-22T10:00:59.999Z'));
    expect(w.minuteResetSeconds).toBe(1);
  });

  const limits = { perMinute: 10, perDay: 100 };
  const w = windowsAt(new Date('2026-11-22T12:00:00.000Z'));

  it('allows the request that reaches the limit and refuses the next', () => {
    expect(judge(limits, { minuteCount: 10, dayCount: 10 }, w).exceeded).toBeNull();
    expect(judge(limits, { minuteCount: 11, dayCount: 11 }, w).exceeded).toEqual({
      window: 'minute',
      max: 10,
      retryAfter: 60,
    });
  });

  it('reports the day window when the daily quota is what ran out', () => {
    expect(judge(limits, { minuteCount: 11, dayCount: 101 }, w).exceeded).toEqual({
      window: 'day',
      max: 100,
      retryAfter: 43_200,
    });
  });

  it('sets the six headers, remaining never below zero', () => {
    expect(judge(limits, { minuteCount: 15, dayCount: 15 }, w).headers).toEqual({
      'x-ratelimit-limit': '10',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': '60',
      'x-ratelimit-daily-limit': '100',
      'x-ratelimit-daily-remaining': '85',
      'x-ratelimit-daily-reset': '43200',
    });
  });
});

describe('lease sizing', () => {
  const { leaseSize, usableGrant } = jest.requireActual(
    '../../src/domain/rate-limit',
  ) as typeof import('../../src/domain/rate-limit');

  it('leases a tenth of what is left, at most 100, and one at a time near the limit', () => {
    expect(leaseSize(6000, 0)).toBe(100);
    expect(leaseSize(300, 0)).toBe(30);
    expect(leaseSize(300, 290)).toBe(1);
    expect(leaseSize(4, 0)).toBe(1);
    expect(leaseSize(10, 12)).toBe(1);
  });

  it('grants only what fits under the limit', () => {
    expect(usableGrant(100, 10, 50)).toBe(10);
    expect(usableGrant(100, 10, 105)).toBe(5);
    expect(usableGrant(100, 10, 120)).toBe(0);
  });
});
