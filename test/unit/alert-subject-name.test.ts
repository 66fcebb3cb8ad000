import { metricSubjectName } from '../../src/domain/alerting/subject-name';

describe('metricSubjectName', () => {
  it.each([
    ['Checkout API', 'p95 latency', 'Checkout API: p95 latency'],
    ['Checkout API', 'Checkout health', 'Checkout health'],
    ['Checkout API', 'checkout-api availability', 'checkout-api availability'],
    ['Checkout API', 'Checkout API latency', 'Checkout API latency'],
    ['Checkout', 'Checkout', 'Checkout'],
    ['Checkout', 'Checkouts per minute', 'Checkout: Checkouts per minute'],
    ['DB', 'DB replica lag', 'DB replica lag'],
    ['DB', 'DBA tasks', 'DB: DBA tasks'],
    [null, 'p95 latency', 'p95 latency'],
  ])('%s / %s → %s', (service, metric, expected) => {
    expect(metricSubjectName(service, metric)).toBe(expected);
  });
});
