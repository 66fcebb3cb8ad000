import { EVENT_TYPES } from '../../src/domain/event-types';
import type { IncidentTimestamps, IncidentState } from '../../src/domain/incident-state';
import { CONFIRMATION_EVENT } from '../../src/domain/status-page/notify-events';
import { type StatusChange, normalizeTimeline } from '../../src/domain/status-timeline';
import type { HealthStatus, Thresholds } from '../../src/domain/thresholds';

/**
 * The rules the hot-path SQL statements encode (docs/hot-paths.md), as tables of cases. Each
 * table runs through the pure version of its rule in src/domain (test/unit/hot-path-rules.test.ts)
 * and through the SQL statement against PostgreSQL (test/db/hot-path-rules.test.ts), so the two
 * cannot drift: a case changed here changes both, and a rule changed on one side fails the other.
 */

/** Threshold evaluation (spec §2.2): strict comparisons, unhealthy wins, no value is no_data. */
export interface ThresholdCase {
  /** Which of the threshold sets below. */
  set: 'latency' | 'up/down' | 'overlapping';
  thresholds: Required<Thresholds>;
  value: number | null;
  status: HealthStatus;
}

const latency = {
  healthy_operation: 'under',
  healthy_value: 100,
  unhealthy_operation: 'over',
  unhealthy_value: 200,
} as const;
const upDown = {
  healthy_operation: 'equal',
  healthy_value: 1,
  unhealthy_operation: 'equal',
  unhealthy_value: 0,
} as const;
const overlapping = {
  healthy_operation: 'over',
  healthy_value: 0,
  unhealthy_operation: 'over',
  unhealthy_value: 90,
} as const;

export const THRESHOLD_CASES: readonly ThresholdCase[] = [
  { set: 'latency', thresholds: latency, value: 50, status: 'healthy' },
  { set: 'latency', thresholds: latency, value: 100, status: 'degraded' },
  { set: 'latency', thresholds: latency, value: 150, status: 'degraded' },
  { set: 'latency', thresholds: latency, value: 200, status: 'degraded' },
  { set: 'latency', thresholds: latency, value: 200.5, status: 'unhealthy' },
  { set: 'latency', thresholds: latency, value: null, status: 'no_data' },
  { set: 'up/down', thresholds: upDown, value: 1, status: 'healthy' },
  { set: 'up/down', thresholds: upDown, value: 0, status: 'unhealthy' },
  { set: 'up/down', thresholds: upDown, value: 0.5, status: 'degraded' },
  { set: 'overlapping', thresholds: overlapping, value: 95, status: 'unhealthy' },
  { set: 'overlapping', thresholds: overlapping, value: 50, status: 'healthy' },
  { set: 'overlapping', thresholds: overlapping, value: 0, status: 'degraded' },
];

/** A sample of a flip case: seconds after the case's start, and the status it was evaluated to. */
export interface TimedStatus {
  at: number;
  status: HealthStatus;
}

export interface Flip {
  from: HealthStatus;
  to: HealthStatus;
  at: number;
}

/**
 * A status flips only on a change, walked in time order from the stored status (a new metric's
 * is no_data): each batch is stored in turn (its samples given out of order), and every change
 * is one flip.
 */
export interface FlipCase {
  name: string;
  batches: readonly (readonly TimedStatus[])[];
  flips: readonly Flip[];
}

/** The status a metric starts with, before any sample. */
export const START_STATUS: HealthStatus = 'no_data';

export const FLIP_CASES: readonly FlipCase[] = [
  {
    name: 'a repeated status is no flip',
    batches: [
      [
        { at: 0, status: 'healthy' },
        { at: 1, status: 'healthy' },
        { at: 2, status: 'healthy' },
      ],
    ],
    flips: [{ from: 'no_data', to: 'healthy', at: 0 }],
  },
  {
    name: 'every change is a flip, in time order whatever the order given',
    batches: [
      [
        { at: 3, status: 'degraded' },
        { at: 0, status: 'healthy' },
        { at: 2, status: 'unhealthy' },
        { at: 1, status: 'healthy' },
        { at: 4, status: 'healthy' },
      ],
    ],
    flips: [
      { from: 'no_data', to: 'healthy', at: 0 },
      { from: 'healthy', to: 'unhealthy', at: 2 },
      { from: 'unhealthy', to: 'degraded', at: 3 },
      { from: 'degraded', to: 'healthy', at: 4 },
    ],
  },
  {
    name: 'no_data first is no change from the stored no_data',
    batches: [
      [
        { at: 0, status: 'no_data' },
        { at: 1, status: 'no_data' },
        { at: 2, status: 'unhealthy' },
      ],
    ],
    flips: [{ from: 'no_data', to: 'unhealthy', at: 2 }],
  },
  {
    name: 'a later batch continues from the stored status',
    batches: [
      [
        { at: 0, status: 'healthy' },
        { at: 1, status: 'unhealthy' },
      ],
      [
        { at: 3, status: 'unhealthy' },
        { at: 2, status: 'unhealthy' },
      ],
      [
        { at: 4, status: 'healthy' },
        { at: 5, status: 'no_data' },
      ],
    ],
    flips: [
      { from: 'no_data', to: 'healthy', at: 0 },
      { from: 'healthy', to: 'unhealthy', at: 1 },
      { from: 'unhealthy', to: 'healthy', at: 4 },
      { from: 'healthy', to: 'no_data', at: 5 },
    ],
  },
];

/**
 * The flips of a case by the pure rule: normalizeTimeline (sorted, repeats of the status in
 * force dropped) over the start status and every sample; each change after the start is a flip.
 */
export function flipsByTimeline(c: FlipCase): Flip[] {
  const start: StatusChange = { at: -1, status: START_STATUS };
  const changes = normalizeTimeline([start, ...c.batches.flat()]);
  return changes.slice(1).map((change, i) => ({ from: changes[i]!.status, to: change.status, at: change.at }));
}

/**
 * Which events owe subscribers an email (docs/decisions.md "Subscriber email"), and
 * which of them are owed even where the organization has no confirmed subscriber (the
 * confirmation request writes to the one address that asked). Every event type is listed.
 */
export interface EmailCase {
  type: string;
  owesEmail: boolean;
  withoutConfirmedSubscriber: boolean;
}

export const EMAIL_CASES: readonly EmailCase[] = [
  { type: 'incident.created', owesEmail: false, withoutConfirmedSubscriber: false },
  { type: 'incident.published', owesEmail: true, withoutConfirmedSubscriber: false },
  { type: 'incident.updated', owesEmail: false, withoutConfirmedSubscriber: false },
  { type: 'incident.message_added', owesEmail: true, withoutConfirmedSubscriber: false },
  { type: 'incident.resolved', owesEmail: true, withoutConfirmedSubscriber: false },
  { type: 'incident.deleted', owesEmail: false, withoutConfirmedSubscriber: false },
  { type: 'maintenance.scheduled', owesEmail: true, withoutConfirmedSubscriber: false },
  { type: 'maintenance.starting_soon', owesEmail: false, withoutConfirmedSubscriber: false },
  { type: 'maintenance.started', owesEmail: true, withoutConfirmedSubscriber: false },
  { type: 'maintenance.completed', owesEmail: true, withoutConfirmedSubscriber: false },
  { type: 'maintenance.canceled', owesEmail: true, withoutConfirmedSubscriber: false },
  { type: 'maintenance.message_added', owesEmail: true, withoutConfirmedSubscriber: false },
  { type: 'metric.status_changed', owesEmail: false, withoutConfirmedSubscriber: false },
  { type: 'sla_statement.drafted', owesEmail: false, withoutConfirmedSubscriber: false },
  { type: 'sla_statement.submitted', owesEmail: false, withoutConfirmedSubscriber: false },
  { type: 'sla_statement.changes_requested', owesEmail: false, withoutConfirmedSubscriber: false },
  { type: 'sla_statement.recomputed', owesEmail: false, withoutConfirmedSubscriber: false },
  { type: 'sla_statement.approved', owesEmail: false, withoutConfirmedSubscriber: false },
  { type: 'sla_statement.delivered', owesEmail: false, withoutConfirmedSubscriber: false },
  { type: 'sla_statement.corrected', owesEmail: false, withoutConfirmedSubscriber: false },
  { type: 'sla_statement.superseded', owesEmail: false, withoutConfirmedSubscriber: false },
  { type: 'sla_statement.voided', owesEmail: false, withoutConfirmedSubscriber: false },
  // Alerts page the on-call engineer, never status page subscribers.
  { type: 'alert.triggered', owesEmail: false, withoutConfirmedSubscriber: false },
  { type: 'alert.escalated', owesEmail: false, withoutConfirmedSubscriber: false },
  { type: 'alert.acknowledged', owesEmail: false, withoutConfirmedSubscriber: false },
  { type: 'alert.resolved', owesEmail: false, withoutConfirmedSubscriber: false },
  // Sent on request to the one webhook being tested; stored already dispatched, so never fanned out or emailed.
  { type: 'webhook.test', owesEmail: false, withoutConfirmedSubscriber: false },
  { type: CONFIRMATION_EVENT, owesEmail: true, withoutConfirmedSubscriber: true },
];

/** Every type Vigil emits, plus the internal confirmation request: EMAIL_CASES must list them all. */
export const ALL_EVENT_TYPES: readonly string[] = [...EVENT_TYPES, CONFIRMATION_EVENT];

/** Only news less than 2 days old is sent: an event's age at dispatch, in hours, and whether it still owes email. */
export const EMAIL_WINDOW_CASES: readonly { ageHours: number; inWindow: boolean }[] = [
  { ageHours: 0, inWindow: true },
  { ageHours: 47, inWindow: true },
  { ageHours: 49, inWindow: false },
  { ageHours: 72, inWindow: false },
];

/**
 * A new incident's state (spec §3.1), derived from the timestamps createIncident writes in one
 * statement: a draft unless published, resolved at once when published with a Resolved message.
 * `events` are the outbox events the statement writes, in the order given.
 */
export interface IncidentCreateCase {
  name: string;
  input: { publish?: boolean; initial_message?: { type?: string; body: string } };
  stamps: { published: boolean; resolved: boolean };
  state: IncidentState;
  events: readonly string[];
}

export const INCIDENT_CREATE_CASES: readonly IncidentCreateCase[] = [
  {
    name: 'a bare draft',
    input: {},
    stamps: { published: false, resolved: false },
    state: 'draft',
    events: ['incident.created'],
  },
  {
    name: 'published at once',
    input: { publish: true },
    stamps: { published: true, resolved: false },
    state: 'published',
    events: ['incident.created', 'incident.published'],
  },
  {
    name: 'a draft with its first message',
    input: { initial_message: { body: 'Looking into it' } },
    stamps: { published: false, resolved: false },
    state: 'draft',
    events: ['incident.created', 'incident.message_added'],
  },
  {
    name: 'a draft whose first message says Resolved stays a draft',
    input: { initial_message: { type: 'Resolved', body: 'Was fine' } },
    stamps: { published: false, resolved: false },
    state: 'draft',
    events: ['incident.created', 'incident.message_added'],
  },
  {
    name: 'published with a Resolved message is resolved at once',
    input: { publish: true, initial_message: { type: 'Resolved', body: 'Already over' } },
    stamps: { published: true, resolved: true },
    state: 'resolved',
    events: ['incident.created', 'incident.published', 'incident.message_added', 'incident.resolved'],
  },
];

/** The timestamps of a case, as the pure incidentState reads them. */
export function stampsOf(c: IncidentCreateCase, at: Date): IncidentTimestamps {
  return {
    publishedAt: c.stamps.published ? at : null,
    resolvedAt: c.stamps.resolved ? at : null,
    canceledAt: null,
    deletedAt: null,
  };
}
