import { customerWording } from '../../src/domain/incident-wording';

describe("customerWording: a drafted incident in the customer's words", () => {
  const since = new Date('2026-12-01T22:23:37.151Z');

  it('names the service and the time in the page zone, no ISO timestamp', () => {
    expect(
      customerWording({
        service: 'Checkout',
        impact: 'outage',
        since,
        now: new Date('2026-12-01T22:40:00.000Z'),
        timeZone: 'Europe/Berlin',
      }),
    ).toEqual({
      title: 'Problems with Checkout',
      body: 'We are investigating problems with Checkout since 23:23 CET.',
    });
  });

  it('says the day when it started before today in that zone, and degraded performance for a degraded service', () => {
    const w = customerWording({
      service: 'Search',
      impact: 'degraded',
      since,
      now: new Date('2026-12-02T09:00:00.000Z'),
      timeZone: 'Europe/Berlin',
    });
    expect(w).toEqual({
      title: 'Degraded performance of Search',
      body: 'We are investigating degraded performance of Search since 1 December, 23:23 CET.',
    });
  });

  it('reads an unknown zone as UTC, where it is still the same day', () => {
    expect(
      customerWording({ service: 'API', impact: 'outage', since, now: since, timeZone: 'Mars/Olympus' }).body,
    ).toBe('We are investigating problems with API since 22:23 UTC.');
  });
});
