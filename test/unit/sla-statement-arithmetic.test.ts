import {
  attainment,
  computeCredit,
  countDowntime,
  creditTermsSchema,
  formatPercent,
  isBelowPercent,
  periodBounds,
} from '../../src/domain/sla';

const d = (iso: string): Date => new Date(iso);

describe('one statement end to end: period → minutes → attainment → credit', () => {
  it('Europe/Berlin 2025-03, tiered, with an excluded maintenance and a 4½-minute outage', () => {
    const period = periodBounds('2025-03', 'Europe/Berlin'); // 44,580 minutes (the DST hour is missing)
    const terms = creditTermsSchema.parse({
      type: 'tiered',
      steps: [
        { below_pct: '99.99', credit_pct: '10' },
        { below_pct: '99.0', credit_pct: '30' },
      ],
      maintenance_notice_hours: 72,
    });
    const minutes = countDowntime({
      period,
      terms,
      // Outage 10:00:00Z–10:04:30Z touches minutes 10:00…10:04 → 5 down minutes.
      services: [
        {
          initial: 'healthy',
          changes: [
            { at: d('2025-03-20T10:00:00Z'), status: 'unhealthy' },
            { at: d('2025-03-20T10:04:30Z'), status: 'healthy' },
          ],
        },
      ],
      // 03-15 02:00–04:00 CET = 01:00Z–03:00Z = 120 minutes, announced 5 days ahead → excluded.
      maintenances: [
        { start: d('2025-03-15T01:00:00Z'), end: d('2025-03-15T03:00:00Z'), announcedAt: d('2025-03-10T09:00:00Z') },
      ],
    });
    // 44,580 − 120 = 44,460 eligible.
    expect(minutes).toEqual({
      totalMinutes: 44_580,
      excludedMinutes: 120,
      eligibleMinutes: 44_460,
      downMinutes: 5,
      unmeasuredMinutes: 0,
    });

    const a = attainment(minutes.eligibleMinutes, minutes.downMinutes);
    // 44,455 / 44,460 = 1 − 5/44,460 = 0.9998875… → 99.9887 % (floor, 4 places).
    expect(formatPercent(a, 4)).toBe('99.9887');
    // 44,455 × 10,000 = 444,550,000 < 9,999 × 44,460 = 444,555,540 → below 99.99; far above 99.0.
    expect(isBelowPercent(a, '99.99')).toBe(true);
    // → 10 % of €500.00 (50,000 cents) = 5,000 cents.
    expect(computeCredit(terms, 50_000, 'EUR', a, minutes.eligibleMinutes, minutes.downMinutes)).toEqual({
      creditPct: '10',
      creditAmountMinor: 5_000,
      capped: false,
      minimumApplied: false,
    });
  });

  it('Australia/Lord_Howe 2025-04, proportional, with an outage across the 30-minute DST change', () => {
    const period = periodBounds('2025-04', 'Australia/Lord_Howe'); // 43,230 minutes
    const terms = creditTermsSchema.parse({ type: 'proportional', multiplier: '10', maintenance_notice_hours: 24 });
    // 04-05 14:40Z → 15:10Z: 30 real minutes across the switch at 15:00Z (02:00 +11:00 → 01:30 +10:30),
    // though the local clock reads 01:40 at both ends.
    const minutes = countDowntime({
      period,
      terms,
      services: [
        {
          initial: 'healthy',
          changes: [
            { at: d('2025-04-05T14:40:00Z'), status: 'unhealthy' },
            { at: d('2025-04-05T15:10:00Z'), status: 'healthy' },
          ],
        },
      ],
      maintenances: [],
    });
    expect(minutes).toEqual({
      totalMinutes: 43_230,
      excludedMinutes: 0,
      eligibleMinutes: 43_230,
      downMinutes: 30,
      unmeasuredMinutes: 0,
    });
    // AUD 1,000.00 = 100,000 cents × 30 / 43,230 × 10 = 30,000,000 / 43,230 = 693 rest 41,610 (43,230 × 693 = 29,958,390)
    // = 693.96… → half_up 694. creditPct = 300 / 43,230 × 100 = 0.6939625…% → "0.693962".
    const a = attainment(minutes.eligibleMinutes, minutes.downMinutes);
    expect(computeCredit(terms, 100_000, 'AUD', a, minutes.eligibleMinutes, minutes.downMinutes)).toEqual({
      creditPct: '0.693962',
      creditAmountMinor: 694,
      capped: false,
      minimumApplied: false,
    });
  });
});
