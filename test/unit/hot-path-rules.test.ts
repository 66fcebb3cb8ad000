import { incidentState } from '../../src/domain/incident-state';
import { CONFIRMATION_EVENT, EMAIL_EVENT_TYPES } from '../../src/domain/status-page/notify-events';
import { evaluateStatus } from '../../src/domain/thresholds';
import {
  ALL_EVENT_TYPES,
  EMAIL_CASES,
  FLIP_CASES,
  INCIDENT_CREATE_CASES,
  THRESHOLD_CASES,
  flipsByTimeline,
  stampsOf,
} from '../support/hot-path-cases';

/**
 * The pure side of the rules the hot-path SQL encodes (docs/hot-paths.md). The same tables run
 * through the SQL statements in test/db/hot-path-rules.test.ts.
 */
describe('hot-path rules, pure versions', () => {
  it.each(THRESHOLD_CASES.map((c) => [c.value, c.set, c.status, c] as const))(
    'evaluateStatus: %p under the %s thresholds is %s',
    (_v, _set, _s, c) => expect(evaluateStatus(c.value, c.thresholds)).toBe(c.status),
  );

  it.each(FLIP_CASES.map((c) => [c.name, c] as const))('status flips (normalizeTimeline): %s', (_name, c) =>
    expect(flipsByTimeline(c)).toEqual(c.flips),
  );

  it('lists every event type once in the email table', () => {
    expect(EMAIL_CASES.map((c) => c.type).sort()).toEqual([...ALL_EVENT_TYPES].sort());
    expect([...EMAIL_EVENT_TYPES].every((t) => ALL_EVENT_TYPES.includes(t))).toBe(true);
  });

  it.each(EMAIL_CASES.map((c) => [c.type, c.owesEmail, c] as const))(
    'EMAIL_EVENT_TYPES: %s owes email: %p',
    (_type, _owes, c) => {
      expect(EMAIL_EVENT_TYPES.has(c.type)).toBe(c.owesEmail);
      expect(c.type === CONFIRMATION_EVENT).toBe(c.withoutConfirmedSubscriber);
    },
  );

  it.each(INCIDENT_CREATE_CASES.map((c) => [c.name, c.state, c] as const))(
    'incidentState of a new incident: %s is %s',
    (_name, _state, c) => expect(incidentState(stampsOf(c, new Date('2026-11-22T00:00:00.000Z')))).toBe(c.state),
  );
});
