import {
  activeAlerts,
  alertMeasurement,
  alertScore,
  applyAlertBatch,
  emptyAlertState,
  heartbeatVerdict,
  type AlertState,
} from '../../src/domain/inbound-alerts/alert-state';
import type { AlertSeverity, NormalizedAlert } from '../../src/domain/inbound-alerts/webhook-formats';

const T0 = Date.UTC(2026, 2, 2, 12);
const min = (n: number) => T0 + n * 60_000;
const iso = (t: number) => new Date(t).toISOString();

const alert = (fingerprint: string, severity: AlertSeverity, over: Partial<NormalizedAlert> = {}): NormalizedAlert => ({
  fingerprint,
  name: fingerprint.toUpperCase(),
  status: 'firing',
  severity,
  startsAt: iso(min(0)),
  endsAt: null,
  ...over,
});
const watchdog = (over: Partial<NormalizedAlert> = {}) => alert('wd', 'none', { name: 'Watchdog', ...over });
const HEARTBEAT = { heartbeat_alert: 'Watchdog', heartbeat_timeout_seconds: 300 };

const apply = (state: AlertState, alerts: NormalizedAlert[], at: number) =>
  applyAlertBatch(state, { source: 'alertmanager', alerts }, at);

describe('alert score (spec §4.1: 0 none, 1 degraded, 2 unhealthy)', () => {
  it('is 0 with nothing firing, else the worst firing severity', () => {
    let s = emptyAlertState(min(0));
    expect(alertScore(s, min(0))).toBe(0);
    s = apply(s, [alert('info', 'none')], min(1));
    expect(alertScore(s, min(1))).toBe(0);
    s = apply(s, [alert('warn', 'degraded')], min(2));
    expect(alertScore(s, min(2))).toBe(1);
    s = apply(s, [alert('crit', 'unhealthy'), alert('warn2', 'degraded')], min(3));
    expect(alertScore(s, min(3))).toBe(2);
    expect(Object.keys(s.firing).sort()).toEqual(['crit', 'info', 'warn', 'warn2']);
  });

  it('drops a resolved alert and falls back to the next worst', () => {
    let s = apply(emptyAlertState(min(0)), [alert('crit', 'unhealthy'), alert('warn', 'degraded')], min(1));
    s = apply(s, [alert('crit', 'unhealthy', { status: 'resolved', endsAt: iso(min(2)) })], min(2));
    expect(alertScore(s, min(2))).toBe(1);
    s = apply(s, [alert('warn', 'degraded', { status: 'resolved' })], min(3));
    expect(alertScore(s, min(3))).toBe(0);
    expect(s.firing).toEqual({});
  });

  it('ignores a resolution of an unknown alert and a late resolution of an older episode', () => {
    let s = apply(emptyAlertState(min(0)), [alert('crit', 'unhealthy', { startsAt: iso(min(10)) })], min(11));
    s = apply(s, [alert('other', 'unhealthy', { status: 'resolved' })], min(12));
    s = apply(
      s,
      [alert('crit', 'unhealthy', { status: 'resolved', startsAt: iso(min(0)), endsAt: iso(min(5)) })],
      min(12),
    );
    expect(alertScore(s, min(12))).toBe(2);
  });

  it('updates an alert by fingerprint: a new severity replaces the old one', () => {
    let s = apply(emptyAlertState(min(0)), [alert('disk', 'degraded')], min(1));
    s = apply(s, [alert('disk', 'unhealthy')], min(2));
    expect(alertScore(s, min(2))).toBe(2);
    s = apply(s, [alert('disk', 'none')], min(3));
    expect(alertScore(s, min(3))).toBe(0);
    expect(Object.keys(s.firing)).toEqual(['disk']);
    expect(s.firing.disk).toMatchObject({ severity: 'none', receivedAt: iso(min(3)) });
  });

  it('treats an alert whose endsAt has passed as resolved, and a refresh extends it', () => {
    let s = apply(emptyAlertState(min(0)), [alert('lease', 'unhealthy', { endsAt: iso(min(4)) })], min(0));
    expect(alertScore(s, min(3))).toBe(2);
    s = apply(s, [alert('lease', 'unhealthy', { endsAt: iso(min(8)) })], min(3));
    expect(alertScore(s, min(7))).toBe(2);
    expect(alertScore(s, min(8))).toBe(0);
    expect(activeAlerts(s, min(8))).toEqual([]);
    s = apply(s, [], min(9));
    expect(s.firing).toEqual({});
  });

  it('does not add a firing alert that arrives already ended', () => {
    const s = apply(emptyAlertState(min(0)), [alert('old', 'unhealthy', { endsAt: iso(min(1)) })], min(2));
    expect(s.firing).toEqual({});
  });

  it('leaves the old state untouched and stays JSON-serialisable', () => {
    const before = apply(emptyAlertState(min(0)), [alert('crit', 'unhealthy')], min(1));
    const copy = JSON.parse(JSON.stringify(before)) as AlertState;
    const after = apply(before, [alert('crit', 'unhealthy', { status: 'resolved' }), watchdog()], min(2));
    expect(before).toEqual(copy);
    const restored = JSON.parse(JSON.stringify(after)) as AlertState;
    expect(restored).toEqual(after);
    expect(alertScore(restored, min(2), HEARTBEAT)).toBe(alertScore(after, min(2), HEARTBEAT));
    expect(heartbeatVerdict(restored, HEARTBEAT, min(2))).toBeNull();
    expect(after.lastReceivedAt).toBe(iso(min(2)));
  });

  it('accepts a bare list of alerts and Date instants', () => {
    const s = applyAlertBatch(emptyAlertState(new Date(min(0))), [alert('crit', 'unhealthy')], new Date(min(1)));
    expect(alertScore(s, new Date(min(1)))).toBe(2);
  });
});

describe('heartbeat (spec §7.3 alert_heartbeat_missing)', () => {
  it('has no verdict without a heartbeat rule', () => {
    expect(heartbeatVerdict(emptyAlertState(min(0)), {}, min(600))).toBeNull();
    expect(heartbeatVerdict(emptyAlertState(min(0)), { heartbeat_alert: null }, min(600))).toBeNull();
  });

  it('gives a new metric one timeout before the first heartbeat', () => {
    const s = emptyAlertState(min(0));
    expect(heartbeatVerdict(s, HEARTBEAT, min(5))).toBeNull();
    expect(heartbeatVerdict(s, HEARTBEAT, min(5) + 1)).toBe('alert_heartbeat_missing');
  });

  it('is missing when the heartbeat stops arriving, and returns when it resumes', () => {
    let s = apply(emptyAlertState(min(0)), [watchdog()], min(1));
    s = apply(s, [watchdog()], min(5));
    expect(heartbeatVerdict(s, HEARTBEAT, min(10))).toBeNull();
    s = apply(s, [alert('crit', 'unhealthy')], min(9)); // other alerts do not count as a heartbeat
    expect(heartbeatVerdict(s, HEARTBEAT, min(10) + 1)).toBe('alert_heartbeat_missing');
    expect(alertMeasurement(s, HEARTBEAT, min(11))).toEqual({ value: null, reason: 'alert_heartbeat_missing' });
    s = apply(s, [watchdog()], min(30));
    expect(heartbeatVerdict(s, HEARTBEAT, min(30))).toBeNull();
    expect(alertMeasurement(s, HEARTBEAT, min(30))).toEqual({ value: 2, reason: null });
  });

  it('is missing at once when the heartbeat resolves or lapses (after the first grace period)', () => {
    let s = apply(emptyAlertState(min(0)), [watchdog()], min(10));
    s = apply(s, [watchdog({ status: 'resolved', endsAt: iso(min(11)) })], min(11));
    expect(heartbeatVerdict(s, HEARTBEAT, min(11))).toBe('alert_heartbeat_missing');
    s = apply(s, [watchdog({ endsAt: iso(min(14)) })], min(12));
    expect(heartbeatVerdict(s, HEARTBEAT, min(13))).toBeNull();
    expect(heartbeatVerdict(s, HEARTBEAT, min(14))).toBe('alert_heartbeat_missing');
  });

  it('counts several heartbeat copies (one per Prometheus replica) by the newest', () => {
    let s = apply(
      emptyAlertState(min(0)),
      [watchdog({ fingerprint: 'wd-a' }), watchdog({ fingerprint: 'wd-b' })],
      min(1),
    );
    s = apply(s, [watchdog({ fingerprint: 'wd-b' })], min(8));
    expect(heartbeatVerdict(s, HEARTBEAT, min(12))).toBeNull();
    expect(heartbeatVerdict(s, HEARTBEAT, min(13) + 1)).toBe('alert_heartbeat_missing');
  });

  it('uses a 600 s timeout when none is set', () => {
    const s = apply(emptyAlertState(min(0)), [watchdog()], min(0));
    expect(heartbeatVerdict(s, { heartbeat_alert: 'Watchdog' }, min(10))).toBeNull();
    expect(heartbeatVerdict(s, { heartbeat_alert: 'Watchdog' }, min(10) + 1)).toBe('alert_heartbeat_missing');
  });

  it('never counts the heartbeat alert toward the score', () => {
    const s = apply(emptyAlertState(min(0)), [watchdog({ severity: 'unhealthy' }), alert('warn', 'degraded')], min(1));
    expect(alertScore(s, min(1), HEARTBEAT)).toBe(1);
    expect(activeAlerts(s, min(1), HEARTBEAT).map((a) => a.fingerprint)).toEqual(['warn']);
    expect(alertMeasurement(s, HEARTBEAT, min(1))).toEqual({ value: 1, reason: null });
    const onlyHeartbeat = apply(emptyAlertState(min(0)), [watchdog({ severity: 'unhealthy' })], min(1));
    expect(alertMeasurement(onlyHeartbeat, HEARTBEAT, min(1))).toEqual({ value: 0, reason: null });
  });
});
