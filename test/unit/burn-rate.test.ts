import {
  DEFAULT_BURN_WINDOWS,
  WORKBOOK_TICKET_WINDOW,
  budgetSpent,
  burnRate,
  burnRateForBudget,
  evaluateBurn,
} from '../../src/domain/alerting/burn-rate';

const SLO = 0.999;
const THIRTY_DAYS = 30 * 24 * 60;
/** Measurements for the default pairs: bad minutes per window length. */
const measured = (bad: Record<number, number>) =>
  Object.entries(bad).map(([minutes, b]) => ({ minutes: Number(minutes), bad: b, total: Number(minutes) }));

describe('burn rate arithmetic (SRE workbook, ch. 5)', () => {
  it('is the error ratio over the error budget, exact at the workbook figures', () => {
    expect(burnRate(0.0144, SLO)).toBe(14.4);
    expect(burnRate(0.006, SLO)).toBe(6);
    expect(burnRate(0.001, SLO)).toBe(1);
    expect(burnRate(0, SLO)).toBe(0);
    expect(burnRate(1, 0.99)).toBe(100);
  });

  it('relates rate, window and share of a 30-day budget: 14.4× over 1 h is 2 %, 6× over 6 h is 5 %, 1× over 3 d is 10 %', () => {
    expect(budgetSpent(14.4, 60, THIRTY_DAYS)).toBe(0.02);
    expect(budgetSpent(6, 360, THIRTY_DAYS)).toBe(0.05);
    expect(budgetSpent(1, 4320, THIRTY_DAYS)).toBe(0.1);
    expect(burnRateForBudget(0.02, 60, THIRTY_DAYS)).toBe(14.4);
    expect(burnRateForBudget(0.05, 360, THIRTY_DAYS)).toBe(6);
  });

  it('burns at Infinity with an objective of 100 % and any error, and refuses objectives outside (0, 1]', () => {
    expect(burnRate(0.0001, 1)).toBe(Number.POSITIVE_INFINITY);
    expect(burnRate(0, 1)).toBe(0);
    expect(() => burnRate(0.1, 99.9)).toThrow(RangeError);
    expect(() => burnRate(0.1, 0)).toThrow(RangeError);
    expect(() => burnRate(1.5, SLO)).toThrow(RangeError);
  });
});

describe('evaluateBurn with the default windows', () => {
  it('defaults to 14.4× over 1 h / 5 m paging and 6× over 6 h / 30 m warning', () => {
    expect(DEFAULT_BURN_WINDOWS).toEqual([
      { severity: 'page', long_minutes: 60, short_minutes: 5, burn_rate: 14.4 },
      { severity: 'warn', long_minutes: 360, short_minutes: 30, burn_rate: 6 },
    ]);
  });

  it('pages after 0.864 minutes of total outage in the hour (the workbook: 2 % of budget), not after 0.86', () => {
    const fires = evaluateBurn(SLO, measured({ 60: 0.864, 5: 0.864, 360: 0.864, 30: 0.864 }));
    expect(fires.firing).toEqual({
      severity: 'page',
      long_minutes: 60,
      short_minutes: 5,
      burn_rate: 14.4,
      long_burn: 14.4,
      short_burn: 172.8,
    });
    expect(evaluateBurn(SLO, measured({ 60: 0.86, 5: 0.86, 360: 0.86, 30: 0.86 })).firing).toBeNull();
  });

  it('does not fire when the long window burns but the short one has recovered', () => {
    const result = evaluateBurn(SLO, measured({ 60: 2, 5: 0, 360: 2, 30: 0 }));
    expect(result.firing).toBeNull();
    expect(result.pairs[0]).toMatchObject({ severity: 'page', long_burn: 33.333333, short_burn: 0, firing: false });
  });

  it('does not fire on a short spike the long window has not confirmed', () => {
    expect(evaluateBurn(SLO, measured({ 60: 0.5, 5: 0.5, 360: 0.5, 30: 0.5 })).firing).toBeNull();
  });

  it('warns at 6× over 6 h and 30 m when the page pair is below 14.4×', () => {
    const result = evaluateBurn(SLO, measured({ 60: 0.5, 5: 0.1, 360: 3, 30: 1 }));
    expect(result.firing).toEqual({
      severity: 'warn',
      long_minutes: 360,
      short_minutes: 30,
      burn_rate: 6,
      long_burn: 8.333333,
      short_burn: 33.333333,
    });
  });

  it('answers the most severe pair when several fire, whatever the policy order', () => {
    const windows = measured({ 60: 5, 5: 1, 360: 5, 30: 1 });
    expect(evaluateBurn(SLO, windows).firing?.severity).toBe('page');
    expect(evaluateBurn(SLO, windows, [...DEFAULT_BURN_WINDOWS].reverse()).firing?.severity).toBe('page');
  });

  it('never fires on a window that counted no time or was not measured', () => {
    const empty = evaluateBurn(SLO, [
      { minutes: 60, bad: 0, total: 0 },
      { minutes: 5, bad: 0, total: 0 },
      { minutes: 360, bad: 3, total: 3 },
    ]);
    expect(empty.firing).toBeNull();
    expect(empty.pairs.map((p) => [p.long_burn, p.short_burn])).toEqual([
      [null, null],
      [1000, null],
    ]);
  });

  it('refuses more bad minutes than counted ones', () => {
    expect(() =>
      evaluateBurn(SLO, [
        { minutes: 60, bad: 61, total: 60 },
        { minutes: 5, bad: 1, total: 5 },
      ]),
    ).toThrow(RangeError);
  });

  it("fires the workbook's 1× over 3 d / 6 h ticket pair when a policy includes it", () => {
    const policy = [...DEFAULT_BURN_WINDOWS, WORKBOOK_TICKET_WINDOW];
    const result = evaluateBurn(SLO, measured({ 60: 0, 5: 0, 360: 1, 30: 0, 4320: 5 }), policy);
    expect(result.firing).toEqual({
      severity: 'ticket',
      long_minutes: 4320,
      short_minutes: 360,
      burn_rate: 1,
      long_burn: 1.157407,
      short_burn: 2.777778,
    });
  });

  it('fires every pair on any error with a 100 % objective', () => {
    expect(evaluateBurn(1, measured({ 60: 0.01, 5: 0.01, 360: 0.01, 30: 0.01 })).firing?.severity).toBe('page');
  });
});
