import {
  STATUS_RANK,
  evaluateStatus,
  holds,
  isUpDownCheck,
  readingStatus,
  rollUp,
  shownReason,
  thresholdsComplete,
  worstOf,
  type HealthStatus,
  type Thresholds,
} from '../../src/domain/thresholds';

/** Latency-style thresholds: healthy under 200 ms, unhealthy over 500 ms, degraded between. */
const latency: Thresholds = {
  healthy_operation: 'under',
  healthy_value: 200,
  unhealthy_operation: 'over',
  unhealthy_value: 500,
};

describe('threshold comparisons are strict (spec §2.2)', () => {
  it.each([
    [201, 'over', 200, true],
    [200, 'over', 200, false],
    [199, 'under', 200, true],
    [200, 'under', 200, false],
    [200, 'equal', 200, true],
    [200.0001, 'equal', 200, false],
    [-1, 'under', 0, true],
  ] as const)('%d %s %d is %s', (value, op, threshold, expected) => expect(holds(value, op, threshold)).toBe(expected));
});

describe('evaluateStatus', () => {
  it.each([
    [100, 'healthy'],
    [199.999, 'healthy'],
    [200, 'degraded'],
    [350, 'degraded'],
    [500, 'degraded'],
    [500.001, 'unhealthy'],
    [10_000, 'unhealthy'],
  ])('a value of %d ms is %s (between the thresholds is degraded)', (value, status) =>
    expect(evaluateStatus(value, latency)).toBe(status),
  );

  it('reads the equal operation (e.g. a 1/0 health state)', () => {
    const up: Thresholds = {
      healthy_operation: 'equal',
      healthy_value: 1,
      unhealthy_operation: 'equal',
      unhealthy_value: 0,
    };
    expect(evaluateStatus(1, up)).toBe('healthy');
    expect(evaluateStatus(0, up)).toBe('unhealthy');
    expect(evaluateStatus(0.5, up)).toBe('degraded');
  });

  it('is no_data when no value was obtained, whatever the thresholds', () => {
    for (const value of [null, undefined, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      expect(evaluateStatus(value, latency)).toBe('no_data');
      expect(evaluateStatus(value, {})).toBe('no_data');
      expect(evaluateStatus(value, undefined)).toBe('no_data');
    }
  });

  it('is null when a value exists but the thresholds are not all four set', () => {
    const { unhealthy_value: _omit, ...three } = latency;
    for (const t of [
      undefined,
      null,
      {},
      three,
      { ...latency, healthy_operation: null },
      { ...latency, healthy_value: Number.NaN },
    ]) {
      expect(thresholdsComplete(t)).toBe(false);
      expect(evaluateStatus(300, t)).toBeNull();
    }
    expect(thresholdsComplete(latency)).toBe(true);
    expect(thresholdsComplete({ ...latency, healthy_value: 0 })).toBe(true);
  });

  it('lets the unhealthy condition win when both hold', () => {
    const overlapping: Thresholds = {
      healthy_operation: 'over',
      healthy_value: 0,
      unhealthy_operation: 'over',
      unhealthy_value: 90,
    };
    expect(evaluateStatus(95, overlapping)).toBe('unhealthy');
    expect(evaluateStatus(50, overlapping)).toBe('healthy');
    expect(evaluateStatus(0, overlapping)).toBe('degraded');
    const same: Thresholds = {
      healthy_operation: 'equal',
      healthy_value: 1,
      unhealthy_operation: 'equal',
      unhealthy_value: 1,
    };
    expect(evaluateStatus(1, same)).toBe('unhealthy');
  });
});

describe('worst-of rollup (spec §1)', () => {
  it('ranks unhealthy (3) > degraded (2) > healthy (1)', () => {
    expect(STATUS_RANK).toEqual({ unhealthy: 3, degraded: 2, healthy: 1 });
  });

  it.each<[HealthStatus[], HealthStatus | null]>([
    [['healthy', 'healthy'], 'healthy'],
    [['healthy', 'degraded', 'healthy'], 'degraded'],
    [['degraded', 'unhealthy', 'healthy'], 'unhealthy'],
    [['unhealthy', 'no_data'], 'unhealthy'],
    [['healthy', 'no_data'], 'healthy'],
    [['no_data', 'no_data'], 'no_data'],
    [['no_data'], 'no_data'],
    [[], null],
  ])('%j rolls up to %s', (children, status) => expect(worstOf(children)).toBe(status));

  it('reports no_data children as such rather than counting them healthy', () => {
    const r = rollUp(['healthy', 'no_data', 'healthy', null]);
    expect(r.status).toBe('healthy');
    expect(r.anyNoData).toBe(true);
    expect(r.counts).toEqual({ healthy: 2, degraded: 0, unhealthy: 0, no_data: 1 });
    expect(rollUp(['healthy', 'degraded']).anyNoData).toBe(false);
  });

  it('skips children without a status (value measured, thresholds incomplete)', () => {
    expect(worstOf([null, undefined])).toBeNull();
    expect(worstOf([null, 'degraded'])).toBe('degraded');
    expect(worstOf([null, 'no_data'])).toBe('no_data');
  });

  it('accepts any iterable', () => {
    expect(worstOf(new Set<HealthStatus>(['healthy', 'unhealthy']))).toBe('unhealthy');
  });
});

describe('an HTTP check without thresholds is an up/down check (readingStatus)', () => {
  const upDown = { sourceType: 'http', thresholds: null };
  it('is healthy when the target answered an accepted status (a response time), whatever it is', () => {
    expect(isUpDownCheck('http', null)).toBe(true);
    expect(isUpDownCheck('mtls_http', {})).toBe(true);
    expect(readingStatus(upDown, 12, null)).toBe('healthy');
    expect(readingStatus(upDown, 45_000, null)).toBe('healthy');
  });

  it('is unhealthy when the target answered a status outside the accepted set', () => {
    expect(readingStatus(upDown, null, 'unexpected_status:503')).toBe('unhealthy');
    expect(readingStatus({ sourceType: 'mtls_http', thresholds: undefined }, null, 'unexpected_status:404')).toBe(
      'unhealthy',
    );
    expect(shownReason('unhealthy', 'unexpected_status:503')).toBe('unexpected_status:503');
  });

  it('is no_data with its reason when the target did not answer (a target-class reason reads as down)', () => {
    expect(readingStatus(upDown, null, 'ECONNREFUSED')).toBe('no_data');
    expect(readingStatus(upDown, null, 'header_ref_missing')).toBe('no_data');
    expect(shownReason('no_data', 'ECONNREFUSED')).toBe('ECONNREFUSED');
    expect(shownReason('no_data', null)).toBe('no_data');
    expect(shownReason('healthy', 'ECONNREFUSED')).toBeNull();
  });

  it('keeps latency thresholds, when given, and every other type, as they were', () => {
    expect(isUpDownCheck('http', latency)).toBe(false);
    expect(readingStatus({ sourceType: 'http', thresholds: latency }, 600, null)).toBe('unhealthy');
    expect(readingStatus({ sourceType: 'http', thresholds: latency }, null, 'unexpected_status:503')).toBe('no_data');
    expect(isUpDownCheck('tcp', null)).toBe(false);
    expect(readingStatus({ sourceType: 'tcp', thresholds: null }, null, 'unexpected_status:503')).toBe('no_data');
    expect(readingStatus({ sourceType: 'tcp', thresholds: null }, 5, null)).toBe('healthy');
  });
});
