import { z } from 'zod';
import { DateTime, Uuid } from './common';

const TimelineEntry = z.object({
  at: DateTime,
  kind: z
    .string()
    .describe(
      'triggered, notified_level, escalated, retriggered, suppressed, unsuppressed, acknowledged, snoozed, snooze_ended, resolved',
    ),
  actor: z.string().nullable(),
  detail: z.record(z.string(), z.unknown()),
});

export const AlertSchema = z
  .object({
    id: Uuid,
    rule_id: Uuid,
    subject: z.object({ kind: z.string(), id: z.string(), name: z.string() }),
    state: z.enum(['triggered', 'acknowledged', 'suppressed', 'resolved']),
    severity: z.string(),
    title: z.string(),
    summary: z.string(),
    level: z.number().int().describe('The highest escalation level notified so far (0 before the first)'),
    trigger_count: z
      .number()
      .int()
      .describe(
        'How many times the subject fired while this alert was open (further triggers add here, never a second page)',
      ),
    suppressed_by: z
      .record(z.string(), z.unknown())
      .nullable()
      .describe('The maintenance or silence holding the alert: `{ kind, id, title, until }`'),
    snoozed_until: DateTime.nullable(),
    triggered_at: DateTime,
    last_triggered_at: DateTime,
    acknowledged_at: DateTime.nullable(),
    acknowledged_by: z.string().nullable(),
    resolved_at: DateTime.nullable(),
    resolved_by: z.string().nullable(),
    workflow_id: z
      .string()
      .describe('The alert’s Temporal workflow (`alert:<rule>:<subject>`), to open in the Temporal UI'),
    created_at: DateTime,
    updated_at: DateTime,
    timeline: z.array(TimelineEntry),
  })
  .meta({ id: 'Alert' });

export const ChannelTestResultSchema = z
  .object({
    send_id: Uuid,
    state: z.enum(['succeeded', 'failed', 'pending']),
    status_code: z
      .number()
      .int()
      .nullable()
      .describe('HTTP status (250 for an accepted email); null when no answer came'),
    error: z.string().nullable(),
    response: z.string().nullable().describe('The first 1,000 characters of what the receiver answered'),
    latency_ms: z.number().int(),
  })
  .meta({ id: 'ChannelTestResult' });
