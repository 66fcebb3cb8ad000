import type { Alert, AlertTimelineEntry } from '../../db/entities';
import type { AlertState } from '../../domain/alerting/rule-kinds';
import { toIso } from '../../domain/time';

export interface AlertTimelineView {
  at: string;
  kind: string;
  actor: string | null;
  detail: Record<string, unknown>;
}

/** An alert as the API, webhooks and the console show it: state, subject, who acted, and its timeline in order. */
export function alertView(a: Alert, timeline: readonly AlertTimelineEntry[]) {
  return {
    id: a.id,
    rule_id: a.rule,
    subject: { kind: a.subjectKind, id: a.subjectId, name: a.subjectName },
    state: a.state as AlertState,
    severity: a.severity,
    title: a.title,
    summary: a.summary,
    level: a.level,
    trigger_count: a.triggerCount,
    suppressed_by: a.suppressedBy ?? null,
    snoozed_until: a.snoozedUntil ? toIso(a.snoozedUntil) : null,
    triggered_at: toIso(a.triggeredAt),
    last_triggered_at: toIso(a.lastTriggeredAt),
    acknowledged_at: a.acknowledgedAt ? toIso(a.acknowledgedAt) : null,
    acknowledged_by: a.acknowledgedBy ?? null,
    resolved_at: a.resolvedAt ? toIso(a.resolvedAt) : null,
    resolved_by: a.resolvedBy ?? null,
    workflow_id: a.workflowId,
    created_at: toIso(a.createdAt),
    updated_at: toIso(a.updatedAt),
    timeline: timeline.map((t): AlertTimelineView => ({
      at: toIso(t.at),
      kind: t.kind,
      actor: t.actor ?? null,
      detail: t.detail,
    })),
  };
}
export type AlertView = ReturnType<typeof alertView>;
