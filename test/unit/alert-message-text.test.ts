import type { AlertMessage } from '../../src/domain/alerting/alert-message';
import { channelRequest, emailMessage } from '../../src/domain/alerting/channel-formats';
import { duration, facts, headline, zonedTime } from '../../src/domain/alerting/channel-formats/message-text';
import { confirmingLocations, type Vote } from '../../src/domain/confirmation';
import { probeTarget } from '../../src/domain/probe-target';

const base: AlertMessage = {
  action: 'trigger',
  alertId: '0b7e6c1e-5a8f-4f43-9a57-2f7cbb1d9e10',
  dedupKey: 'vigil-0b7e6c1e-5a8f-4f43-9a57-2f7cbb1d9e10',
  title: 'Checkout API: health is down',
  summary: 'Checkout API: health (metric) is unhealthy.',
  severity: 'critical',
  status: 'no_data',
  subject: { kind: 'metric', id: 'm1', name: 'Checkout API: health' },
  metric: { name: 'health', value: null, unit: 'ms', reason: 'ECONNREFUSED' },
  level: 1,
  organization: { id: 'o1', name: 'Acme' },
  occurredAt: '2026-12-01T22:27:49.000Z',
  actor: null,
  links: { alert: 'https://vigil.example.com/console/alerts/a1', acknowledge: null, resolve: null },
  outage: {
    startedAt: '2026-12-01T22:23:37.000Z',
    endedAt: null,
    target: 'https://checkout.example.com/health',
    reason: { code: 'ECONNREFUSED', words: 'Connection refused' },
    confirmedBy: { failing: ['eu-west', 'us-east'], voting: 3 },
    timeZone: 'Europe/Berlin',
  },
};

describe('the words of an outage in a message', () => {
  it('says durations in the two largest units', () => {
    expect([0, 999, 45_000, 252_000, 3_600_000, 7_380_000, 273_600_000].map(duration)).toEqual([
      '0 s',
      '1 s',
      '45 s',
      '4 min 12 s',
      '1 h',
      '2 h 3 min',
      '3 d 4 h',
    ]);
  });

  it('says instants in the recipient’s zone, named', () => {
    expect(zonedTime('2026-12-01T22:23:37.000Z', 'Europe/Berlin')).toBe('2026-12-01 23:23:37 CET');
    expect(zonedTime('2026-07-01T22:23:37.000Z', 'Europe/Berlin')).toBe('2026-07-02 00:23:37 CEST');
    expect(zonedTime('2026-12-01T22:23:37.000Z', 'Not/AZone')).toBe('2026-12-01 22:23:37 UTC');
  });

  it('gives the target, since when, the reason in words with its code and the confirming locations', () => {
    const f = Object.fromEntries(facts(base).map((x) => [x.label, x.value]));
    expect(f).toMatchObject({
      Target: 'https://checkout.example.com/health',
      Since: '2026-12-01 23:23:37 CET (4 min 12 s so far)',
      Reason: 'Connection refused (ECONNREFUSED)',
      'Confirmed by': 'eu-west, us-east (2 of 3 locations)',
    });
    expect(
      facts(base)
        .map((x) => x.label)
        .slice(0, 5),
    ).toEqual(['Status', 'Target', 'Since', 'Reason', 'Confirmed by']);
  });

  it('says how a resolved outage ended and how long it lasted, not that it is down', () => {
    const resolved: AlertMessage = {
      ...base,
      action: 'resolve',
      status: 'healthy',
      outage: { ...base.outage!, endedAt: '2026-12-01T22:27:49.000Z' },
    };
    expect(headline(resolved)).toBe('Resolved: Checkout API: health recovered after 4 min 12 s');
    expect(headline({ ...resolved, status: 'unhealthy' })).toBe(
      'Resolved: Checkout API: health was resolved after 4 min 12 s',
    );
    expect(Object.fromEntries(facts(resolved).map((x) => [x.label, x.value])).Lasted).toBe(
      '4 min 12 s (2026-12-01 23:23:37 CET to 2026-12-01 23:27:49 CET)',
    );
    // Every vendor's payload carries the ending, never "is down".
    for (const type of ['slack', 'teams', 'discord', 'email'] as const) {
      const body = JSON.stringify(
        type === 'email'
          ? emailMessage(resolved)
          : channelRequest(type, { url: 'https://hooks.example.com/x' }, resolved),
      );
      expect([type, body.includes('recovered after 4 min 12 s')]).toEqual([type, true]);
      expect([type, body.includes('is down')]).toEqual([type, false]);
    }
  });

  it('names who acted right after the status, so a vendor that caps its fields (Slack: 10) still shows it', () => {
    const resolved: AlertMessage = {
      ...base,
      action: 'resolve',
      status: 'unhealthy',
      actor: 'console user ana@example.com',
      outage: { ...base.outage!, endedAt: '2026-12-01T22:27:49.000Z' },
    };
    expect(
      facts(resolved)
        .map((x) => x.label)
        .slice(0, 2),
    ).toEqual(['Status', 'Resolved by']);
    expect(facts(resolved).length).toBeGreaterThan(10);
    const slack = JSON.parse(String(channelRequest('slack', { url: 'https://hooks.example.com/x' }, resolved).body));
    expect(slack.blocks[1].fields.map((f: { text: string }) => f.text)).toContain(
      '*Resolved by*\nconsole user ana@example.com',
    );
    expect(
      facts({ ...resolved, action: 'acknowledge' })
        .map((x) => x.label)
        .slice(0, 2),
    ).toEqual(['Status', 'Acknowledged by']);
  });

  it('falls back to the raw reason without an outage context (a test message, an older caller)', () => {
    const f = Object.fromEntries(facts({ ...base, outage: null }).map((x) => [x.label, x.value]));
    expect(f.Reason).toBe('ECONNREFUSED');
    expect(f.Target).toBeUndefined();
    expect(headline({ ...base, action: 'resolve', outage: null })).toBe('Resolved: Checkout API: health is down');
  });
});

describe('probeTarget', () => {
  it.each([
    ['http', { url: 'https://a.example/health' }, 'https://a.example/health'],
    ['websocket', { url: 'wss://a.example/ws' }, 'wss://a.example/ws'],
    ['tcp', { host: 'db.internal', port: 5432 }, 'db.internal:5432'],
    ['tcp', { host: '::1', port: 22 }, '[::1]:22'],
    ['tls_cert', { host: 'a.example' }, 'a.example:443'],
    ['icmp', { host: '10.0.0.1' }, '10.0.0.1'],
    ['dns', { name: 'a.example', record_type: 'AAAA' }, 'a.example (AAAA)'],
    ['grpc', { target: 'svc:50051' }, 'svc:50051'],
    ['prometheus', { query: 'up' }, null],
    ['manual', {}, null],
    ['database', { dsn_ref: 'VIGIL_SECRET_DSN' }, null],
  ])('%s %j → %s', (type, config, expected) => {
    expect(probeTarget(type, config)).toBe(expected);
  });
});

describe('confirmingLocations', () => {
  const vote = (location: string, reason: string | null, status: Vote['status'] = 'no_data'): Vote => ({
    location,
    value: reason ? null : 12,
    reason,
    status: reason ? 'no_data' : status,
    at: '2026-12-01T22:23:37.000Z',
  });
  it('names the failing locations of the last round, of those that voted', () => {
    const rounds = [
      { at: '1', votes: [vote('us-east', 'ECONNREFUSED')] },
      {
        at: '2',
        votes: [vote('us-east', 'ECONNREFUSED'), vote('eu-west', 'ECONNREFUSED'), vote('ap-south', null, 'healthy')],
      },
    ];
    expect(confirmingLocations(rounds)).toEqual({ failing: ['eu-west', 'us-east'], voting: 3 });
    expect(confirmingLocations(null)).toBeNull();
  });
});
